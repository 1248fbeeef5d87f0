"""Settlement rules as pure functions of the board: area exclusivity, building occupancy,
tallest building, declarations. ``board[s]`` is the stack on square ``s``, seats bottom-up."""

from __future__ import annotations

from collections.abc import Sequence

from games.tri_area.board import AREA_POINTS, AREAS

Board = Sequence[Sequence[int]]


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def area_standings(board: Board, suit: str) -> list[tuple[int, tuple[int, ...], list[int]]]:
    """Groups of seats topping buildings in an area, best first: (count, heights, seats).

    A seat's key is the number of buildings it tops, then the heights of those buildings,
    tallest first, compared in turn (the text's "check the heights of the buildings").
    Seats topping nothing are not ranked.
    """
    tops: dict[int, list[int]] = {}
    for sq in AREAS[suit]:
        stack = board[sq]
        if stack:
            tops.setdefault(stack[-1], []).append(len(stack))
    keyed: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for seat, heights in tops.items():
        key = (len(heights), tuple(sorted(heights, reverse=True)))
        keyed.setdefault(key, []).append(seat)
    return [(k[0], k[1], sorted(keyed[k])) for k in sorted(keyed, reverse=True)]


def area_places(board: Board, suit: str) -> dict[int, int]:
    """Competition place (1, 2, ...) of each ranked seat in an area; unranked seats absent."""
    places: dict[int, int] = {}
    done = 0
    for _, _, seats in area_standings(board, suit):
        for seat in seats:
            places[seat] = done + 1
        done += len(seats)
    return places


def area_awards(board: Board, suit: str) -> dict[int, int]:
    """Area exclusivity points per seat. Ties share the points of the places they span, rounded
    up; when first place is shared, second place is not awarded."""
    first, second = AREA_POINTS[suit]
    groups = area_standings(board, suit)
    awards: dict[int, int] = {}
    if not groups:
        return awards
    top = groups[0][2]
    if len(top) > 1:
        each = _ceil_div(first + second, len(top))
        return {seat: each for seat in top}
    awards[top[0]] = first
    if len(groups) > 1:
        runners = groups[1][2]
        each = _ceil_div(second, len(runners))
        for seat in runners:
            awards[seat] = each
    return awards


def building_owner(stack: Sequence[int]) -> int | None:
    """The seat with most blocks in a building; a tie goes to the seat whose block is lowest."""
    if not stack:
        return None
    counts: dict[int, int] = {}
    for seat in stack:
        counts[seat] = counts.get(seat, 0) + 1
    most = max(counts.values())
    for seat in stack:  # bottom-up: the first tied seat met owns the lowest block
        if counts[seat] == most:
            return seat
    raise AssertionError("unreachable")


def tallest_awards(board: Board) -> tuple[list[int], dict[int, int]]:
    """The tallest buildings (squares) and the points per seat: 10 for a single tallest
    building's owner, 6 per building when two tie, 4 per building when three or more tie."""
    height = max(len(s) for s in board)
    if height == 0:
        return [], {}
    squares = [sq for sq, s in enumerate(board) if len(s) == height]
    each = 10 if len(squares) == 1 else 6 if len(squares) == 2 else 4
    awards: dict[int, int] = {}
    for sq in squares:
        owner = building_owner(board[sq])
        assert owner is not None
        awards[owner] = awards.get(owner, 0) + each
    return squares, awards


def best_five_outcome(score: int, outcome: dict[int, int]) -> tuple[int, int]:
    """For a 5 used in a declaration: the value (5, 0 or 10) that leaves its owner the highest
    score, given ``outcome[value]`` = points won (or lost) at that value. Converting costs 1 (to 0)
    or 2 (to 10) and is offered only when affordable; scores never go below 0.
    Returns (value, final score); ties prefer not paying."""
    best_value, best_score = 5, max(0, score + outcome[5])
    for value, cost in ((0, 1), (10, 2)):
        if score >= cost:
            final = max(0, score - cost + outcome[value])
            if final > best_score:
                best_value, best_score = value, final
    return best_value, best_score
