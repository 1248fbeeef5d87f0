"""Python 3.11: run as it is (no build), its upload checked by compiling each source in a child
(``sandbox.compile_check``); the language of the sandbox's own runtime (the Docker backend's
image and warm pool, the process backend's bot interpreter)."""

from __future__ import annotations

from sandbox.languages.base import RunsItsEntry

#: What uploaded Python bots run with: the runtime image (deploy/runtime/Dockerfile,
#: deploy/build-runtime-image.sh, ``sandbox.docker.RUNTIME_IMAGE``). Shown on the upload page
#: and in the starter README; tests/arena/test_newbot.py keeps it true to the image.
RUNTIME_PYTHON = "3.11"
RUNTIME_LIBRARIES = ("numpy",)
RUNTIME = (
    f"Python {RUNTIME_PYTHON}, its standard library and {', '.join(RUNTIME_LIBRARIES)}; "
    "no network, and nothing can be installed"
)
#: The runtime image (deploy/runtime/Dockerfile builds it from python:3.11-slim).
IMAGE = f"meeple-arena/bot-runtime:py{RUNTIME_PYTHON}-1"

HELLO = b"""import json
import sys

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif msg["type"] == "act":
        print(json.dumps({"action_index": 0}), flush=True)
    else:
        break
"""

LANGUAGE = RunsItsEntry(
    key="python",
    name=f"Python {RUNTIME_PYTHON}",
    source="main.py",
    suffixes=(".py",),
    order=0,
    hello=HELLO,
    broken=b"import sys\n\ndef broken(:\n    pass\n",
    broken_says="SyntaxError",
    # Unbuffered; no PYTHON* variables, no user site: the bot sees the standard library only.
    run=("python3", "-u", "-E", "-s", "main.py"),
    image=IMAGE,
    build_image=IMAGE,
    host_tools=("python3",),
    sandbox_runtime=True,
    checked_by_compiling=True,
    runtime_note=RUNTIME,
)
