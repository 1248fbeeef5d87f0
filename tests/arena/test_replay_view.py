"""``arena replay view``: the offline viewer file (arena/viewer/offline.py). It is one valid
HTML page that fetches nothing, whose embedded steps are exactly the site's step JSON, and
that carries the replay's own logs for the logs panel."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from arena.cli import main
from arena.referee import run_match
from arena.replay import save_replay
from arena.viewer import ASSETS, steps
from arena.viewer.notable import notable_decisions
from arena.viewer.offline import _sha256, logs_of, viewer_page
from arena.viewer.packing import PART_STEPS, unpack_steps
from tests.viewer_replays import FAULT_AT, SLOW_AT, decision_steps, logged_replay

CSP = "Content-Security-Policy"
VOID = {"meta", "link", "input", "br", "hr", "img", "source", "wbr", "area", "col", "embed"}
# SVG's self-closed elements (<circle/>) are void in SVG's syntax inside HTML.


class Elements(HTMLParser):
    """The page's elements, checked to nest properly (every non-void element closed, in order)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.problems: list[str] = []
        self.blocks: dict[str, tuple[dict[str, str | None], str]] = {}
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.open.append(tag)
        if tag == "script":
            self._in = dict(attrs).get("id") or "(inline)"
            self.blocks[self._in] = (dict(attrs), "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.open[-1:] or 'nothing'}")
            return
        self.open.pop()
        if tag == "script":
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            attrs, text = self.blocks[self._in]
            self.blocks[self._in] = (attrs, text + data)


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return logged_replay(tmp_path_factory.mktemp("bot"))


@pytest.fixture(scope="module")
def page(replay: dict[str, Any]) -> str:
    return viewer_page(replay)


@pytest.fixture(scope="module")
def parsed(page: str) -> Elements:
    found = Elements()
    found.feed(page)
    found.close()
    return found


def test_the_page_is_one_well_formed_html_document(page: str, parsed: Elements) -> None:
    assert page.startswith('<!doctype html>\n<html lang="en">')
    assert parsed.problems == [] and parsed.open == []
    ids = [a["id"] for _, a in parsed.tags if a.get("id")]
    assert len(ids) == len(set(ids)), "duplicate ids"
    assert {"replay", "replay-seats", "replay-steps", "replay-logs"} <= set(ids)
    # the viewer's script and stylesheet are the shared files, inlined as they are
    assert parsed.blocks["(inline)"][1] == (ASSETS / "replay.js").read_text()
    assert (ASSETS / "replay.css").read_text() in page


def test_the_page_fetches_nothing(page: str, parsed: Elements) -> None:
    for tag, attrs in parsed.tags:
        for name in ("src", "href", "action", "data", "poster"):
            value = attrs.get(name) or ""
            assert not re.match(r"\s*(https?:)?//", value), (tag, name, value)
            assert not (tag == "link" and name == "href" and value and value != "data:,")
    assert not re.search(r"url\(\s*['\"]?(https?:)?//|@import", page, re.I)
    script = parsed.blocks["(inline)"][1]
    assert "http" not in script and "XMLHttpRequest" not in script
    # and the browser is told so: no source at all but the inline script and style themselves
    csp = next(
        a["content"] for t, a in parsed.tags if a.get("http-equiv") == "Content-Security-Policy"
    )
    style = re.search(r"<style>(.*?)</style>", page, re.S)
    assert style is not None
    assert csp.startswith("default-src 'none'; ")
    assert f"script-src '{_sha256(script)}'" in csp and f"style-src '{_sha256(style[1])}'" in csp
    assert "connect-src" not in csp  # default-src 'none' covers fetch too


def test_embedded_steps_are_the_sites_step_json(replay: dict[str, Any], parsed: Elements) -> None:
    attrs, text = parsed.blocks["replay-steps"]
    assert attrs["type"] == "application/json"
    packed = json.loads(text)
    total = len(replay["decisions"])
    assert packed["total"] == total + 1 and packed["part_steps"] == PART_STEPS
    assert len(packed["parts"]) == 2  # 83 steps: a whole part and the rest
    rows = unpack_steps(packed)
    assert len(rows) == total + 1
    for n, (one, views) in enumerate(rows):
        # what the site's /matches/<id>/steps/<n>.json serves: steps.step, as JSON
        assert one == json.loads(json.dumps(steps.step(replay, n))), n
        if n % 9 == 0 or n == total:  # the seat views: re-simulating each is quadratic
            for k in range(len(replay["seats"])):
                site_view = json.loads(json.dumps(steps.step(replay, n, k)["seat_view"]))
                assert views[k] == site_view, (n, k)
    assert rows[1][0]["svg"].startswith("<svg") and rows[1][0]["state_text"]


def test_steps_are_packed_as_they_come(replay: dict[str, Any]) -> None:
    told: list[int] = []
    page = viewer_page(replay, progress=told.append)
    assert told == list(range(1, len(replay["decisions"]) + 2))
    # no part holds more than PART_STEPS steps, so the writer never holds the whole match
    packed = json.loads(page.split('id="replay-steps">', 1)[1].split("</script>", 1)[0])
    sizes = [len(unpack_steps({"parts": [p]})) for p in packed["parts"]]
    assert sizes == [PART_STEPS, len(replay["decisions"]) + 1 - PART_STEPS]


@pytest.mark.parametrize(
    ("game", "bots"),
    [
        ("trnd", ["builtin:greedy", "builtin:random", "builtin:random"]),
        ("trishaw-frenzy", ["builtin:racer", "builtin:random"]),
        ("manhattan-traffiq", ["builtin:greedy", "builtin:random"]),
    ],
)
def test_one_pass_gives_every_games_steps(game: str, bots: list[str]) -> None:
    replay = run_match(game, bots, seed=2).replay
    found = list(steps.all_steps(replay))
    total = len(replay["decisions"])
    assert [one for one, _ in found] == [steps.step(replay, n) for n in range(total + 1)]
    for n in sorted({0, 1, total // 3, total // 2, total - 1, total}):
        assert found[n][1] == [steps.step(replay, n, k)["seat_view"] for k in range(len(bots))]


def test_the_replays_logs_feed_the_panel(replay: dict[str, Any], parsed: Elements) -> None:
    shown = json.loads(parsed.blocks["replay-logs"][1])
    assert shown == {"seats": {"0": {"text": replay["logs"][0], "marks": replay["log_marks"][0]}}}
    assert logs_of({"logs": ["", ""], "log_marks": [[], []]}) == {}
    # an older replay: the whole text, no marks
    assert logs_of({"logs": ["hello\n", ""]}) == {"0": {"text": "hello\n", "marks": []}}
    seats = json.loads(parsed.blocks["replay-seats"][1])
    assert seats["names"] == {"0": "chatty", "1": "builtin:builder"}
    assert seats["faults"]["0"] == replay["seats"][0]["faults"]


def test_no_logs_no_log_block(replay: dict[str, Any]) -> None:
    bare = {k: v for k, v in replay.items() if k not in ("logs", "log_marks")}
    page = viewer_page(bare)
    assert 'id="replay-logs"' not in page
    assert 'data-field="logs" hidden' in page  # the panel stays hidden: nothing to show


def test_notable_decisions_faults_and_the_slowest(replay: dict[str, Any], page: str) -> None:
    mine = decision_steps(replay, 0)
    found = notable_decisions(replay, 0)
    fault = replay["seats"][0]["faults"][0]
    assert found["faults"] == [
        {
            "step": mine[FAULT_AT - 1],
            "turn": fault["turn"],
            "kind": "illegal_action",
            "detail": fault["detail"],
            "ms": replay["decisions"][mine[FAULT_AT - 1] - 1]["ms"],
        }
    ]
    assert found["more_faults"] == 0
    assert found["slowest"][0]["step"] == mine[SLOW_AT - 1]  # it slept a second there
    ms = [r["ms"] for r in found["slowest"]]
    assert len(ms) == 5 and ms == sorted(ms, reverse=True)
    assert notable_decisions(replay, 0, limit=0) == {"faults": [], "more_faults": 1, "slowest": []}
    # in the page, for the program seat only, each a link to its step
    assert f'href="#step={mine[SLOW_AT - 1]}"' in page and 'data-notable-seat="0"' in page
    assert 'data-notable-seat="1"' not in page


def test_cli_writes_the_file_and_opens_it(
    replay: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    source = tmp_path / "game.json"
    save_replay(replay, source)
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url) or True)
    assert main(["replay", "view", str(source)]) == 0
    written = tmp_path / "game.html"
    assert written.read_text() == viewer_page(json.loads(source.read_text()))
    assert opened == []
    assert capsys.readouterr().out.startswith(f"{written}: {len(replay['decisions'])} decisions")
    out = tmp_path / "elsewhere" / "v.html"
    out.parent.mkdir()
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)  # with its progress bar: the same
    assert main(["replay", "view", str(source), "-o", str(out), "--open"]) == 0
    assert out.read_text() == written.read_text() and opened == [out.resolve().as_uri()]


def test_cli_errors_are_one_line(tmp_path: Path, capsys: Any) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something-else"}')
    assert main(["replay", "view", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("arena: error: not a replay") and err.count("\n") == 1
    assert main(["replay", "view", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    broken = json.loads(json.dumps(run_match("tri-area", ["builtin:random"] * 2, seed=1).replay))
    broken["decisions"][3]["action"] = {"type": "no-such-move"}
    path = tmp_path / "broken.json"
    save_replay(broken, path)
    assert main(["replay", "view", str(path)]) == 2
    assert "cannot be re-simulated" in capsys.readouterr().err
    assert not path.with_suffix(".html").exists()
    assert main(["replay", "view", str(path), "-o", str(path)]) == 2
    assert "is the replay itself" in capsys.readouterr().err
