"""Every image sandbox/languages/ names is one the build script makes (and the deployment
Dockerfile has a target for): adding a language without its image fails here, not in CI's
first match."""

from __future__ import annotations

import re
from pathlib import Path

from sandbox.docker import RUNTIME_IMAGE
from sandbox.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = (ROOT / "deploy" / "build-language-images.sh").read_text()
DOCKERFILE = (ROOT / "deploy" / "runtime" / "languages.Dockerfile").read_text()


def _built_by_script() -> set[str]:
    tag = re.search(r'^TAG="([^"]+)"', SCRIPT, re.M)
    assert tag is not None
    table = SCRIPT.split("declare -A PKGS=(", 1)[1].split(")", 1)[0]
    keys = re.findall(r"\[(\w+)\]=", table)
    order = re.search(r"^ORDER=\(([^)]*)\)", SCRIPT, re.M)
    assert order is not None and set(order.group(1).split()) == set(keys)
    return {f"meeple-arena/bot-{key}:{tag.group(1)}" for key in keys} | {RUNTIME_IMAGE}


def test_every_language_image_is_built_by_the_script() -> None:
    built = _built_by_script()
    for lang in LANGUAGES.values():
        assert lang.image in built, (lang.key, lang.image)
        assert lang.build_image in built, (lang.key, lang.build_image)


def test_the_deployment_dockerfile_has_a_target_per_image() -> None:
    targets = set(re.findall(r"^FROM \S+ AS (\w+)", DOCKERFILE, re.M))
    for lang in LANGUAGES.values():
        for image in (lang.image, lang.build_image):
            if image == RUNTIME_IMAGE:
                continue  # deploy/runtime/Dockerfile
            key = image.split("/bot-", 1)[1].split(":", 1)[0]
            assert key in targets, (lang.key, image)
