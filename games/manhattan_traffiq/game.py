"""The Manhattan TraffIQ game: static facts, options and the state factory."""

from __future__ import annotations

from games.base import JSON, Game, Option
from games.manhattan_traffiq.state import TraffiqState


class ManhattanTraffiq(Game):
    slug = "manhattan-traffiq"
    name = "Manhattan TraffIQ"
    min_players = 2
    max_players = 4
    summary = (
        "Grow a colour-matched map of Manhattan, put taxis and trucks on new crossings, "
        "and drive rivals off the roads; most vehicles on the streets wins."
    )
    options = (
        Option(
            "scoring",
            "vehicles",
            "How the final standing is counted: 'vehicles' (the rulebook: most vehicles on "
            "the streets; ties broken by points) or 'points' (the reviews' reading: truck 2, "
            "taxi 1; ties broken by the number of vehicles).",
            kind=str,
            choices=("points", "vehicles"),
        ),
        Option(
            "immediate_win",
            True,
            "A player who has all their vehicles on the map wins at once.",
            kind=bool,
        ),
        Option(
            "max_turns",
            300,
            "Safety cap on the number of turns (the game ends with reason 'turn_limit').",
            minimum=4,
            maximum=100_000,
        ),
    )

    def new_state(self, players: int, seed: int, options: dict[str, JSON]) -> TraffiqState:
        return TraffiqState.new(players, seed, options)

    def state_class(self) -> type[TraffiqState]:
        return TraffiqState


GAME = ManhattanTraffiq()
TraffiqState.game = GAME
