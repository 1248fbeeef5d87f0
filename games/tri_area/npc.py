"""The built-in policy of non-player seats (NPCs), used when fewer than four play.

The published game fills empty seats with non-player seats; its rules for them are not in our
rulebook, so this policy is **[INVENTED]**: simple, deterministic (no randomness), documented in
RULES.md. It sees the NPC's own hand and the public state, nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Action
from games.tri_area.board import AREAS, BONUS, SUITS
from games.tri_area.cards import rank, suit

_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}


def _suit_counts(hand: Sequence[str]) -> dict[str, int]:
    counts = dict.fromkeys(SUITS, 0)
    for c in hand:
        counts[suit(c)] += 1
    return counts


def play_card(hand: Sequence[str]) -> str:
    """The lowest card of the suit held most (ties: suit order I, M, E, H)."""
    counts = _suit_counts(hand)
    longest = max(SUITS, key=lambda s: (counts[s], -_SUIT_ORDER[s]))
    return min((c for c in hand if suit(c) == longest), key=rank)


def declare_card(hand: Sequence[str]) -> str:
    """The lowest rank in hand (least to lose), ties to the longer suit, then suit order."""
    counts = _suit_counts(hand)
    return min(hand, key=lambda c: (rank(c), -counts[suit(c)], _SUIT_ORDER[suit(c)]))


def pick_square(board: Sequence[Sequence[int]], squares: Sequence[int]) -> int:
    """The empty square with the highest printed bonus, else the tallest building (ties: the
    lowest square number)."""
    empty = [s for s in squares if not board[s]]
    if empty:
        return max(empty, key=lambda s: (BONUS[s], -s))
    return max(squares, key=lambda s: (len(board[s]), -s))


def choose(
    phase: str,
    hand: Sequence[str],
    board: Sequence[Sequence[int]],
    legal: list[Action],
    adopted: str | None,
    built: int | None,
    adjacent: Sequence[int],
) -> Action:
    """The NPC's action in ``phase`` (one of ``legal``)."""
    if phase == "meeting":
        return {"type": "play", "card": play_card(hand)}
    if phase == "lead_declaration":
        return {"type": "declare", "card": declare_card(hand)}
    if phase == "sell":
        return {"type": "sell", "n": 0}
    if phase == "five":
        return {"type": "five", "as": 5}
    if phase == "build":
        builds = [a for a in legal if a["type"] == "build"]
        if not builds:
            return {"type": "decline"}
        assert adopted is not None
        square = pick_square(board, AREAS[adopted])
        count = max(a["count"] for a in builds if a["square"] == square)
        return {"type": "build", "square": square, "count": count}
    if phase == "extra":
        return {"type": "extra", "square": pick_square(board, adjacent)}
    raise AssertionError(f"NPC has no move in phase {phase!r}")
