"""Replays: deterministic for the same seed and bots, re-simulated exactly by verify, and any
tampering caught. Also the referee's other guarantees: built-in parity with games.simulate,
the decision cap, system errors, bad input and interrupts."""

from __future__ import annotations

import copy
import json

import pytest
from referee_helpers import descendants, seats_for

from arena import seats as seats_module
from arena.botspec import BotSpecError
from arena.referee import TimeControl, run_match
from arena.replay import (
    FORMAT,
    ReplayError,
    load_replay,
    save_replay,
    verify_replay,
    without_timings,
)
from games import registry
from games.base import GameError
from games.simulate import play as simulate
from sandbox import get_sandbox
from sandbox.base import Sandbox, SandboxError

FAST = TimeControl(start_ms=3000, move_ms=500, bank_ms=1000)

# Chooses by the observation, so a replay depends on what the bot was shown.
PICKY = """
    import hashlib
    def on_act(msg):
        digest = hashlib.sha256(json.dumps(msg["observation"], sort_keys=True).encode()).digest()
        index = digest[0] % len(msg["legal_actions"])
        say({"action": msg["legal_actions"][index], "turn": msg["turn"], "log": str(index)})
"""


def comparable(replay: dict) -> dict:
    out = without_timings(replay)
    out.pop("logs")  # the bots print their pid: not part of the match
    return out


def test_same_seed_same_replay(small_game, make_bot):
    picky = make_bot("picky", PICKY)
    n = seats_for(small_game)
    bots = [picky] * (n - 1) + [f"builtin:{next(iter(registry.bots(small_game)))}"]
    a = run_match(small_game, bots, seed=5, time=FAST)
    b = run_match(small_game, bots, seed=5, time=FAST)
    assert a.status == b.status == "finished"
    assert comparable(a.replay) == comparable(b.replay)
    assert a.replay["match_id"] != b.replay["match_id"]
    c = run_match(small_game, bots, seed=6, time=FAST)
    assert comparable(c.replay) != comparable(a.replay)
    assert verify_replay(a.replay) == []


def test_replay_holds_what_the_format_promises(small_game, make_bot):
    out = run_match(
        small_game,
        [make_bot("picky", PICKY)] * seats_for(small_game),
        seed=2,
        time=FAST,
        match_id="m-1",
    )
    r = json.loads(json.dumps(out.replay))  # plain JSON
    assert r["format"] == FORMAT and r["version"] == 1 and r["match_id"] == "m-1"
    assert r["game"] == small_game and r["seed"] == 2 and r["players"] == seats_for(small_game)
    assert r["options"] == registry.get_game(small_game).check_options({})
    assert r["time"] == {"start_ms": 3000, "move_ms": 500, "bank_ms": 1000}
    for n, d in enumerate(r["decisions"]):
        assert d["turn"] == n and isinstance(d["events"], list) and d["ms"] >= 0
        assert d["log"] == str(d["index"])
    assert len(r["logs"]) == len(r["seats"])
    assert r["result"]["ranks"] == [s["rank"] for s in r["seats"]]
    assert out.to_json()["seats"][0].keys() >= {"bot", "score", "rank", "status", "faults"}


def test_builtin_match_agrees_with_games_simulate(games_now):
    for slug in games_now:
        game = registry.get_game(slug)
        names = list(registry.bots(slug))
        players = max(game.min_players, min(game.max_players, 3))
        seats = [names[s % len(names)] for s in range(players)]
        out = run_match(slug, [f"builtin:{n}" for n in seats], seed=9)
        assert out.status == "finished", out.error
        expected = simulate(slug, seats, seed=9)
        assert out.result["scores"] == expected.scores
        assert out.result["ranks"] == expected.ranks
        assert verify_replay(out.replay) == []


@pytest.fixture
def verified(small_game, make_bot):
    out = run_match(
        small_game, [make_bot("picky", PICKY)] * seats_for(small_game), seed=4, time=FAST
    )
    assert verify_replay(out.replay) == []
    return out.replay


@pytest.mark.parametrize(
    "tamper",
    [
        "index",
        "action",
        "events",
        "score",
        "rank",
        "seed",
        "drop_last",
        "seat",
        "retire",
    ],
)
def test_verify_catches_tampering(verified, tamper):
    r = copy.deepcopy(verified)
    d = r["decisions"]
    # pick a decision with a choice, so that changing it changes the match
    k = next(i for i, x in enumerate(d) if len(x["events"]) or x["index"] != 0)
    if tamper == "index":
        d[k]["index"] = d[k]["index"] + 1
    elif tamper == "action":
        d[k]["action"] = {"forged": True}
    elif tamper == "events":
        d[k]["events"] = d[k]["events"] + [{"type": "forged"}]
    elif tamper == "score":
        r["result"]["scores"][0] = r["result"]["scores"][0] + 1
    elif tamper == "rank":
        r["seats"][0]["rank"] = 99
    elif tamper == "seed":
        r["seed"] += 1
    elif tamper == "drop_last":
        d.pop()
    elif tamper == "seat":
        d[k]["seat"] = (d[k]["seat"] + 1) % r["players"]
    elif tamper == "retire":
        r["seats"][d[k]["seat"]]["retired_turn"] = 0  # claims a default it did not play
    assert verify_replay(r) != []


def test_save_load_and_bad_files(verified, tmp_path):
    path = tmp_path / "r.json"
    save_replay(verified, path)
    assert load_replay(path) == verified
    (tmp_path / "bad.json").write_text("{nope")
    with pytest.raises(ReplayError, match="not JSON"):
        load_replay(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text('{"a": 1}')
    with pytest.raises(ReplayError, match="not a replay"):
        load_replay(tmp_path / "other.json")
    with pytest.raises(ReplayError, match="cannot read"):
        load_replay(tmp_path / "missing.json")
    assert verify_replay({"format": FORMAT, "version": 1, "status": "finished"}) != []


def test_decision_cap_ends_every_match(small_game, make_bot):
    good = make_bot("good")
    out = run_match(small_game, [good] * seats_for(small_game), seed=1, max_decisions=3, time=FAST)
    assert out.status == "finished"
    assert len(out.replay["decisions"]) == 3
    assert out.result["reason"] == "decision_cap"
    assert out.result["ranks"] == [1] * seats_for(small_game)
    assert verify_replay(out.replay) == []


class _FailsOnSecond(Sandbox):
    """Starts the first bot normally, then fails like a missing Docker engine."""

    name = "flaky"

    def __init__(self) -> None:
        self.inner = get_sandbox("process")
        self.calls = 0

    def start(self, code, *, labels, limits):
        self.calls += 1
        if self.calls >= 2:
            raise SandboxError("engine gone (test)")
        return self.inner.start(code, labels=labels, limits=limits)


def test_sandbox_failure_is_a_system_error_not_a_fault(small_game, make_bot):
    good = make_bot("good")
    before = descendants()
    out = run_match(small_game, [good] * seats_for(small_game), sandbox=_FailsOnSecond(), time=FAST)
    assert out.status == "error" and "engine gone" in out.error
    assert all(s.faults == [] and s.rank is None for s in out.seats)
    assert out.replay["status"] == "error"
    assert "only finished" in verify_replay(out.replay)[0]
    assert descendants() - before == set()


def test_builtin_bot_bug_is_a_system_error(small_game, monkeypatch):
    name = next(iter(registry.bots(small_game)))
    real = registry.get_bot(small_game, name)

    class Broken(real):  # type: ignore[misc, valid-type]
        def act(self, observation, legal_actions):
            raise ZeroDivisionError("bug in a built-in bot")

    monkeypatch.setattr(registry, "get_bot", lambda slug, n: Broken)
    out = run_match(small_game, [f"builtin:{name}"] * seats_for(small_game))
    assert out.status == "error" and "bug in a built-in bot" in out.error


def test_interrupt_ends_every_process(small_game, make_bot, monkeypatch):
    real = seats_module.ProgramSeat.decide

    def decide(self, turn, observation, legal):
        if turn == 3:
            raise KeyboardInterrupt
        return real(self, turn, observation, legal)

    monkeypatch.setattr(seats_module.ProgramSeat, "decide", decide)
    before = descendants()
    with pytest.raises(KeyboardInterrupt):
        run_match(small_game, [make_bot("good")] * seats_for(small_game), time=FAST)
    assert descendants() - before == set()


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"game": "no-such-game"}, GameError, "unknown game"),
        ({"bots": ["builtin:nobody"]}, BotSpecError, "no built-in bot"),
        ({"bots": ["/no/such/bot.py"]}, BotSpecError, "no such file"),
        ({"options": {"no_such_option": 1}}, GameError, "unknown option"),
        ({"seed": "x"}, GameError, "seed"),
        ({"fault_limit": 0}, ValueError, "fault_limit"),
        ({"max_decisions": 0}, ValueError, "max_decisions"),
    ],
)
def test_bad_input_raises_before_anything_starts(small_game, kwargs, error, match):
    bots = kwargs.pop("bots", None)
    game = kwargs.pop("game", small_game)
    if bots is not None:
        bots = bots * seats_for(small_game)
    else:
        bots = ["builtin:random"] * seats_for(small_game)
    with pytest.raises(error, match=match):
        run_match(game, bots, **kwargs)


def test_wrong_player_count_is_a_clear_error(small_game):
    game = registry.get_game(small_game)
    with pytest.raises(GameError, match="players"):
        run_match(small_game, ["builtin:random"] * (game.max_players + 1))


def test_time_control_checks_its_values():
    with pytest.raises(ValueError, match="move_ms"):
        TimeControl(move_ms=-1)
    with pytest.raises(ValueError, match="both"):
        TimeControl(move_ms=0, bank_ms=0)
