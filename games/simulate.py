"""In-process play of built-in bots: for tests, benchmarks and bot-strength measurements.

The referee in ``arena/`` is the real match runner (processes, time limits, faults); this is
the same loop without any of that, so that thousands of seeded matches take seconds.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import JSON, Bot, Result
from games.registry import all_games, get_bot, get_game
from games.rng import derive_seed


def play(
    slug: str,
    bot_names: Sequence[str],
    seed: int = 0,
    options: dict[str, JSON] | None = None,
    max_decisions: int = 1_000_000,
) -> Result:
    """Play one match of built-in bots (one per seat, in seat order) and return its result."""
    game = get_game(slug)
    state = game.new_game(len(bot_names), seed, options)
    opts = game.check_options(options or {})
    bots: list[Bot] = [
        get_bot(slug, name)(seat, len(bot_names), opts, derive_seed(seed, "bot", seat))
        for seat, name in enumerate(bot_names)
    ]
    for _ in range(max_decisions):
        seat = state.current_seat()
        if seat is None:
            return state.result()
        legal = state.legal_actions()
        state.apply(legal[bots[seat].act(state.observation(seat), legal)])
    raise RuntimeError(f"{slug}: no end after {max_decisions} decisions (seed {seed})")


def win_share(
    slug: str,
    hero: str,
    villain: str,
    players: int,
    matches: int,
    seed: int = 0,
    options: dict[str, JSON] | None = None,
) -> tuple[float, float, float]:
    """Share of first places (ties count) of one ``hero`` against ``players - 1`` ``villain``
    bots, the hero's seat rotating; returns (share, low, high) with a 95% Wilson interval."""
    wins = 0
    for i in range(matches):
        hero_seat = i % players
        names = [hero if s == hero_seat else villain for s in range(players)]
        result = play(slug, names, seed=derive_seed(seed, i), options=options)
        wins += result.ranks[hero_seat] == 1
    return (wins / matches, *wilson(wins, matches))


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def shortest_game(max_decisions: int = 5000) -> tuple[str, int, int]:
    """The registered game whose match is shortest when every seat plays its first legal
    action (seed 1, the fewest seats from 2 up): ``(slug, players, decisions)``. Sandbox tests
    and benchmarks use it so that a match costs as little game time as possible."""
    best: tuple[str, int, int] | None = None
    for game in all_games():
        players = max(2, game.min_players)
        state = game.new_game(players, 1)
        n = 0
        while not state.is_over() and n < max_decisions:
            state.apply(state.legal_actions()[0])
            n += 1
        if best is None or n < best[2]:
            best = (game.slug, players, n)
    if best is None:
        raise RuntimeError("no game is registered")
    return best
