"""Per-decision logs through Docker (marked ``docker``, as the sandbox's Docker tests are). The
warm pool reads stderr from a FIFO of its own: exact, as in the process sandbox. A cold
container's stdout and stderr come multiplexed by the engine, which may deliver a line written
just before the answer just after it: then it shows at a later decision, never an earlier one
(arena/bot-protocol.md, "Logs")."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from decision_log_bots import CHATTY_BOT, chatty_text
from referee_helpers import seats_for

from arena.referee import TimeControl, run_match
from arena.replay import verify_replay
from sandbox.base import Limits
from sandbox.docker import DockerSandbox
from tests.sandbox.conftest import docker_or_fail

pytestmark = pytest.mark.docker
FAST = TimeControl(start_ms=20_000, move_ms=2000, bank_ms=5000)
LIMITS = Limits(cpu_seconds=60)


class Recording(DockerSandbox):
    """Keeps the bots it started: the test checks which path served them."""

    def start(self, code, *, labels, limits):  # type: ignore[no-untyped-def]
        bot = super().start(code, labels=labels, limits=limits)
        self.started.append(bot)
        return bot

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.started: list[Any] = []


@pytest.fixture
def pooled() -> Iterator[Recording]:
    docker_or_fail()
    sb = Recording(pool_size=2)
    assert sb.pool is not None and sb.pool.wait_full(LIMITS, 120), "the warm pool did not fill"
    yield sb
    sb.pool.shutdown()


def play(sb: DockerSandbox, game: str, make_bot) -> tuple[dict[str, Any], list[int], str]:
    bots = [make_bot("chatty", CHATTY_BOT)] + [make_bot("good")] * (seats_for(game) - 1)
    out = run_match(game, bots, seed=3, time=FAST, limits=LIMITS, sandbox=sb)
    assert out.status == "finished", out.error
    assert out.replay["sandbox"] == "docker" and verify_replay(out.replay) == []
    turns = [d["turn"] for d in out.replay["decisions"] if d["seat"] == 0]
    text = out.replay["logs"][0]
    assert text.startswith("pid=") and text.endswith("bye 👋\n")
    return out.replay, turns, text.split("\n", 1)[0] + "\n"


def printed(turns: list[int], pid_line: str) -> list[str]:
    """What each decision of the chatty bot wrote, in order, as the replay keeps it."""
    out = [chatty_text(t, n).replace("\x00", "\ufffd") for n, t in enumerate(turns, start=1)]
    out[0] = pid_line + "starting: Grüße ☃\n" + out[0]
    return out


def test_the_warm_pool_attributes_exactly(pooled, small_game, make_bot):
    replay, turns, pid_line = play(pooled, small_game, make_bot)
    assert all(b.pooled for b in pooled.started), "a seat was not served by the pool"
    text = replay["logs"][0]
    got = {turn: text[a:b] for turn, a, b in replay["log_marks"][0]}
    assert got == {t: s for t, s in zip(turns, printed(turns, pid_line), strict=True) if s}


def test_a_cold_container_attributes_late_never_early(small_game, make_bot):
    docker_or_fail()
    cold = Recording(pool_size=0)
    replay, turns, pid_line = play(cold, small_game, make_bot)
    assert cold.started and not any(b.pooled for b in cold.started)
    text = replay["logs"][0]
    ends = {turn: b for turn, _a, b in replay["log_marks"][0]}
    wrote = 0
    for turn, chunk in zip(turns, printed(turns, pid_line), strict=True):
        wrote += len(chunk)
        if turn in ends:
            assert ends[turn] <= wrote, f"turn {turn} was given text of a later decision"
    want = "".join(printed(turns, pid_line))
    assert text[: max(ends.values())] == want[: max(ends.values())]
    assert text == want + "bye 👋\n"
