"""The ``Game`` object: static facts, options and the factory of Trishaw Frenzy matches."""

from __future__ import annotations

from games.base import JSON, Game, Option
from games.trishaw_frenzy.state import SLUG, TrishawState, new_state_dict


class TrishawFrenzy(Game):
    slug = SLUG
    name = "Trishaw Frenzy"
    min_players = 1
    max_players = 4
    summary = (
        "Race trishaws along a route card over a 3x3 map of shuffled, rotating tiles: arrows, "
        "portals and event cards; 3 rounds of 6/4/2/1 VP. 1 player = solo against the AI trishaw."
    )
    options = (
        Option("rounds", 3, "number of rounds (the rulebook plays 3)", int, minimum=1, maximum=5),
        Option(
            "rotate_carries_trishaws",
            True,
            "true: a trishaw on a tile rotated by an event turns with the tile (stays on its "
            "printed square); false: it keeps its board cell and the tile turns under it",
            bool,
        ),
    )

    def new_state(self, players: int, seed: int, options: dict[str, JSON]) -> TrishawState:
        return TrishawState(new_state_dict(players, seed, options))

    def state_class(self) -> type[TrishawState]:
        return TrishawState
