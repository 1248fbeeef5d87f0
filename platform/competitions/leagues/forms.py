"""The organisers' form of a new league: every bot of a game, one round every N hours. The
service re-checks everything; the form gives field-level errors."""

from __future__ import annotations

from typing import Any

from catalog.models import Game
from django import forms
from foundation.fields import LocalDateTimeField
from foundation.params import id_param

from competitions.form_defaults import SEED_HELP, default_players, random_seed
from competitions.leagues.services import LEAGUE_MAX_EVERY_HOURS


class GameSelect(forms.Select):
    """The game list; each option carries its player range and default table size, which the
    league form's script copies to the players field when the game changes."""

    def create_option(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        option = super().create_option(*args, **kwargs)
        game = getattr(option["value"], "instance", None)
        if isinstance(game, Game):
            option["attrs"].update(
                {
                    "data-min": game.min_players,
                    "data-max": game.max_players,
                    "data-default": default_players(game),
                    "data-label": f"{game.name} is played by {game.players_label} players.",
                }
            )
        return option


#: What runs a league's rounds: one instruction, shown by the form and the league pages.
LEAGUE_SCHEDULE_HELP = (
    "Celery beat plays a round this often: in production the “celery -A meeple beat” process; "
    "on a local site, “manage.py serve” (or “demo --serve”) runs beat itself."
)


class LeagueForm(forms.Form):
    """A new league: every bot of the game, one round every N hours."""

    game = forms.ModelChoiceField(
        queryset=Game.objects.filter(is_active=True), empty_label=None, widget=GameSelect
    )
    name = forms.CharField(max_length=100)
    every_hours = forms.IntegerField(
        label="Every (hours)",
        min_value=1,
        max_value=LEAGUE_MAX_EVERY_HOURS,
        initial=24,
        help_text=LEAGUE_SCHEDULE_HELP,
    )
    starts_at = LocalDateTimeField(
        label="First round",
        required=False,
        help_text="In your time zone. The rounds fall at this time and every N hours after "
        "it (blank: now, the first round at once).",
    )
    rounds_per_season = forms.IntegerField(
        label="Rounds per season",
        required=False,
        min_value=1,
        max_value=1000,
        initial=30,
        help_text="When a season has played its rounds, the next one starts.",
    )
    players_per_match = forms.IntegerField(
        label="Players per match",
        required=False,
        min_value=1,
        help_text="Blank: two, or the nearest the game allows.",
    )
    seed = forms.IntegerField(
        required=False, min_value=0, max_value=(1 << 63) - 1, help_text=SEED_HELP
    )
    is_active = forms.BooleanField(
        label="Active", required=False, initial=True, help_text="Paused leagues play no rounds."
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The players field starts valid for the game selected (the first one shown, or the
        # one sent back); the page's script follows the game when it changes.
        games = self.fields["game"].queryset  # type: ignore[attr-defined]
        # id_param: "²".isdigit() holds, yet no database id is "²" (it was a 500).
        sent = id_param(str(self.data.get("game", ""))) if self.is_bound else None
        game = (games.filter(pk=sent).first() if sent is not None else None) or games.first()
        if game is not None:
            players = self.fields["players_per_match"]
            players.initial = default_players(game)
            players.help_text = f"{game.name} is played by {game.players_label} players."
            players.widget.attrs.update({"min": game.min_players, "max": game.max_players})

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        game, players = data.get("game"), data.get("players_per_match")
        if game is None:
            return data
        if players is None:
            data["players_per_match"] = default_players(game)
        elif not game.min_players <= players <= game.max_players:
            self.add_error(
                "players_per_match",
                f"{game.name} is played by {game.players_label} players, not {players}.",
            )
        return data

    def create_kwargs(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "game": data["game"],
            "name": data["name"],
            "every_hours": data["every_hours"],
            "rounds_per_season": data.get("rounds_per_season") or 30,
            "players_per_match": data["players_per_match"],
            "seed": random_seed() if data.get("seed") is None else data["seed"],
            "is_active": data["is_active"],
            "starts_at": data.get("starts_at"),
        }
