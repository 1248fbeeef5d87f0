"""The one-way doors between rooms (pyproject's [tool.importlinter] contracts) hold."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO


def test_import_contracts_are_kept() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "platform"), str(REPO)]))
    out = subprocess.run(
        [str(lint), "--no-cache"], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "0 broken" in out.stdout


def _contracts() -> dict:  # type: ignore[type-arg]
    import tomllib

    return tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["importlinter"]


def _platform_apps() -> set[str]:
    """Every Django app of the site: a package under platform/ with an apps.py (but the
    project itself, meeple, which is the top: no app may import it)."""
    return {p.parent.name for p in (REPO / "platform").glob("*/apps.py")} - {"meeple"}


def test_every_app_is_in_the_contracts() -> None:
    """A new app under platform/ must take its place in the layers (and so in every contract
    that names the apps): an app outside them could import anything."""
    config = _contracts()
    apps = _platform_apps()
    assert apps, "no app found under platform/"
    assert apps <= set(config["root_packages"]), apps - set(config["root_packages"])
    (layers,) = [c for c in config["contracts"] if c["name"].startswith("Django apps")]
    layered = {name.strip() for layer in layers["layers"] for name in layer.split("|")}
    assert layered == apps, f"not in the layers: {apps - layered}; gone: {layered - apps}"
    assert not layers.get("ignore_imports"), "pages that compose domains live at the top"
    for contract in config["contracts"]:
        forbidden = contract.get("forbidden_modules", [])
        # the apps' own contract (the core's forbids django too)
        if contract["type"] == "forbidden" and "meeple" in forbidden and "django" not in forbidden:
            assert set(contract["source_modules"]) == apps, contract["name"]
