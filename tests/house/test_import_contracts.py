"""The one-way doors between rooms (pyproject's [tool.importlinter] contracts) hold."""

from __future__ import annotations

import os
import re
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
    """Every package of the site: a folder under platform/ with Python in it (an app with its
    apps.py, or a plain package the apps would import), but the project itself, meeple, which
    is the top: no app may import it."""
    root = REPO / "platform"
    return {
        p.name
        for p in root.iterdir()
        if p.is_dir() and ((p / "__init__.py").exists() or any(p.glob("*.py")))
    } - {"meeple"}


def _core_packages() -> set[str]:
    """The packages at the repository's root (games, sandbox, arena), but the tests."""
    return {p.parent.name for p in REPO.glob("*/__init__.py")} - {"tests"}


def _contract(config: dict, start: str) -> dict:  # type: ignore[type-arg]
    (found,) = [c for c in config["contracts"] if c["name"].startswith(start)]
    return found


def _named(contract: dict, key: str) -> set[str]:  # type: ignore[type-arg]
    return set(contract.get(key, []))


def test_every_app_is_in_the_contracts() -> None:
    """A new app under platform/ must take its place in the layers and in every contract that
    names the apps: an app outside them could import anything, or be imported by the core."""
    config = _contracts()
    apps = _platform_apps()
    assert {"accounts", "play", "foundation", "audiences", "notifications"} <= apps, apps
    core = _core_packages()
    assert {"games", "sandbox", "arena"} <= core, core
    listed, packages = set(config["root_packages"]), apps | core | {"meeple"}
    assert listed == packages, f"not listed: {packages - listed}; gone: {listed - packages}"
    core_layers = _contract(config, "Core")["layers"]
    assert {name.strip() for layer in core_layers for name in layer.split("|")} == core
    layers = _contract(config, "Django apps")
    layered = {name.strip() for layer in layers["layers"] for name in layer.split("|")}
    assert layered == apps, f"not in the layers: {apps - layered}; gone: {layered - apps}"
    no_web = _contract(config, "The core knows no web")
    assert _named(no_web, "source_modules") == core
    web = apps | {"meeple", "django", "rest_framework"}
    assert web <= _named(no_web, "forbidden_modules"), web - _named(no_web, "forbidden_modules")
    through_arena = _contract(config, "The platform reaches bots' processes only through")
    assert _named(through_arena, "source_modules") == apps | {"meeple"}
    assert _named(through_arena, "forbidden_modules") == {"sandbox"}
    no_project = _contract(config, "No app imports the project package")
    assert _named(no_project, "source_modules") == apps
    assert _named(no_project, "forbidden_modules") == {"meeple"}


def test_no_contract_ignores_an_import() -> None:
    """Pages and endpoints that compose domains live at the top: no exception is listed."""
    for contract in _contracts()["contracts"]:
        assert not contract.get("ignore_imports"), contract["name"]


def test_the_architecture_picture_draws_the_layers() -> None:
    """docs/architecture.md's picture names every app, read top to bottom and left to right in
    the order of the layers contract (apps of one layer in any order among themselves)."""
    text = (REPO / "docs/architecture.md").read_text()
    picture = text.split("```")[1]
    layers = _contract(_contracts(), "Django apps")["layers"]
    layer_of = {name.strip(): i for i, layer in enumerate(layers) for name in layer.split("|")}
    first_seen = {}
    for app in layer_of:
        found = re.search(rf"(?<![\w/.]){app}(?![\w/])", picture)
        assert found, f"{app} is not in the picture"
        first_seen[app] = found.start()
    drawn = sorted(layer_of, key=first_seen.__getitem__)
    order = [layer_of[app] for app in drawn]
    assert order == sorted(order), f"drawn {drawn}, layered {layers}"


def _app_modules(app: str) -> set[str]:
    """The modules and packages directly inside an app, but its migrations."""
    root = REPO / "platform" / app
    found = {p.stem for p in root.glob("*.py") if p.stem != "__init__"}
    found |= {p.name for p in root.iterdir() if (p / "__init__.py").exists()}
    return found - {"migrations"}


def test_every_app_has_its_inner_layers_naming_every_module() -> None:
    """Inside each app, a layers contract (tasks above services above models): a new module
    must take its place in it, or a hidden cycle could come back through it."""
    config = _contracts()
    inner = {
        c["containers"][0]: c
        for c in config["contracts"]
        if c["name"].startswith("Inside ") and c.get("type") == "layers"
    }
    for app in sorted(_platform_apps()):
        assert app in inner, f"{app} has no 'Inside {app}' layers contract"
        layered = {name.strip() for layer in inner[app]["layers"] for name in layer.split("|")}
        modules = _app_modules(app)
        assert layered == modules, (
            f"{app}: not in its layers: {modules - layered}; gone: {layered - modules}"
        )
