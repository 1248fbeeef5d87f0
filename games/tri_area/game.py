"""The Tri*Area game object: player counts, options, factory."""

from __future__ import annotations

from games.base import JSON, Game, GameState, Option
from games.tri_area.state import TriAreaState


class TriAreaGame(Game):
    slug = "tri-area"
    name = "Tri*Area"
    min_players = 1
    max_players = 4
    summary = (
        "Urban developers bid plan cards in may-follow meetings for the right to build, then "
        "stack blocks to own areas and the tallest building over three rounds. Four seats; "
        "empty seats are played by a built-in policy."
    )
    options = (
        Option(
            "sold_blocks_penalised",
            False,
            "Round 3: also charge the 2-point end-of-round cost for blocks sold before the round "
            "(the text's 'each block you did not place'); default: only blocks left in front of "
            "you are charged.",
            kind=bool,
        ),
        Option(
            "extra_needs_top",
            False,
            "Additional construction needs an own block on TOP of a neighbouring building; "
            "default: an own block anywhere in a neighbouring building.",
            kind=bool,
        ),
    )

    def new_state(self, players: int, seed: int, options: dict[str, JSON]) -> GameState:
        return TriAreaState.new(players, seed, options)

    def state_class(self) -> type[GameState]:
        return TriAreaState


GAME = TriAreaGame()
TriAreaState.game = GAME
