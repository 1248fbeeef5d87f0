"""The TRND game object: player counts, options and the factory."""

from __future__ import annotations

from typing import ClassVar

from games.base import JSON, Game, GameError, Option
from games.trnd.cards import DEAL
from games.trnd.state import TrndState


class TrndGame(Game):
    slug: ClassVar[str] = "trnd"
    name: ClassVar[str] = "TRND"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 5
    summary: ClassVar[str] = (
        "Take from the market, discard to the pile, and clear out holding a single kind of chair: "
        "the square of your hand size in points, rounds until the target."
    )
    options: ClassVar[tuple[Option, ...]] = (
        Option(
            "target_score",
            0,
            "Points that end the game. 0 = the rulebook's target (100 / 81 / 64 for 3 / 4 / 5 "
            "players); a larger value raises it (the rulebook only allows raising).",
            minimum=0,
            maximum=100_000,
        ),
        Option(
            "max_rounds",
            60,
            "Safety cap: the game also ends after this many rounds (reason 'round_limit'), "
            "ranked by the normal rules. Random play almost never reaches the target.",
            minimum=1,
            maximum=1000,
        ),
        Option(
            "scoring",
            "square",
            "Clear-out points: 'square' of the cards in hand (section 5, our reading) or "
            "'linear', the number of cards (section 1).",
            kind=str,
            choices=("square", "linear"),
        ),
    )

    def new_state(self, players: int, seed: int, options: dict[str, JSON]) -> TrndState:
        table = DEAL[players][1]
        target = options["target_score"] or table
        if target < table:
            raise GameError(
                f"trnd: target_score may only raise the rulebook's target ({table} for {players} "
                f"players), got {target}; use 0 for the default"
            )
        return TrndState.new(
            players, seed, target, options["max_rounds"], options["scoring"] == "square"
        )

    def state_class(self) -> type[TrndState]:
        return TrndState


GAME = TrndGame()
TrndState.game = GAME
