"""The organisers' form of a new tournament (for one chosen game, with that game's options as
fields; a new league's is ``competitions.leagues.forms``). The services re-check everything;
these give field-level errors."""

from __future__ import annotations

from typing import Any

from bots.models import BotVersion, VersionStatus
from catalog.models import Game
from django import forms

from arena.formats import (
    FORMAT_CHOICES,
    FORMAT_NAMES,
    FORMATS,
    OPTION_BOUNDS,
    FormatError,
    check_format,
    cut_refusal,
    option_help,
    total_matches,
)
from arena.schedule import MAX_MATCHES as SCHEDULE_MAX_MATCHES
from competitions.form_defaults import SEED_HELP, default_players, random_seed
from competitions.models import EntryPolicy
from competitions.tournaments.services import MAX_TOURNAMENT_MATCHES, options_of
from competitions.tournaments.settings_form import TournamentSettingsForm
from games.base import GameError, Option
from games.registry import get_game

#: Prefix of the fields that hold game options (``opt_target_score``...).
OPTION_PREFIX = "opt_"


def option_field(option: Option) -> forms.Field:
    """A form field for one documented game option, with its default and bounds."""
    label = option.name.replace("_", " ").capitalize()
    common: dict[str, Any] = {"label": label, "initial": option.default}
    help_text = f"{option.help} Default: {_shown(option.default)}."
    if option.choices:
        return forms.TypedChoiceField(
            choices=[(c, _shown(c)) for c in option.choices],
            coerce=lambda v, o=option: _coerce_choice(o, v),
            help_text=help_text,
            **common,
        )
    if option.kind is bool:
        # A yes/no select rather than a checkbox, so that the default is visible and explicit.
        return forms.TypedChoiceField(
            choices=[("true", "yes"), ("false", "no")],
            coerce=lambda v: v == "true",
            help_text=help_text,
            **{**common, "initial": "true" if option.default else "false"},
        )
    if option.kind is int:
        bounds = _bounds(option)
        return forms.IntegerField(
            min_value=option.minimum,
            max_value=option.maximum,
            help_text=f"{help_text}{bounds}",
            **common,
        )
    if option.kind is float:
        return forms.FloatField(
            min_value=option.minimum,
            max_value=option.maximum,
            help_text=f"{help_text}{_bounds(option)}",
            **common,
        )
    return forms.CharField(help_text=help_text, **common)


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _bounds(option: Option) -> str:
    if option.minimum is not None and option.maximum is not None:
        return f" From {option.minimum} to {option.maximum}."
    if option.minimum is not None:
        return f" At least {option.minimum}."
    if option.maximum is not None:
        return f" At most {option.maximum}."
    return ""


def _coerce_choice(option: Option, raw: str) -> Any:
    for choice in option.choices or ():
        if str(choice) == raw:
            return choice
    raise forms.ValidationError(f"Not a choice for {option.name}: {raw!r}.")


class TournamentForm(TournamentSettingsForm):
    """A draft tournament of one game; entrants are that game's bot versions (none needed
    when users enter their own)."""

    name = forms.CharField(max_length=100)
    entrants = forms.ModelMultipleChoiceField(
        queryset=BotVersion.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"invalid_choice": "Version %(value)s is not a bot of this game."},
    )
    format = forms.ChoiceField(
        choices=FORMAT_CHOICES,
        required=False,
        initial=FORMAT_NAMES[0],
        help_text=" ".join(f"{f.label}: {f.summary}." for f in FORMATS.values())
        + " See docs/formats.md.",
    )
    rounds = forms.IntegerField(
        required=False,
        min_value=OPTION_BOUNDS["rounds"][0],
        max_value=OPTION_BOUNDS["rounds"][1],
        help_text=option_help("rounds"),
    )
    advance = forms.IntegerField(
        required=False,
        min_value=OPTION_BOUNDS["advance"][0],
        max_value=OPTION_BOUNDS["advance"][1],
        initial=1,
        help_text=option_help("advance"),
    )
    players_per_match = forms.IntegerField()  # bounded by the game in __init__
    games_per_pairing = forms.IntegerField(
        label="Games per pairing",
        min_value=OPTION_BOUNDS["games_per_table"][0],
        max_value=OPTION_BOUNDS["games_per_table"][1],
        initial=1,
        help_text="How many matches each group of entrants plays; seats rotate between them.",
    )
    seed = forms.IntegerField(
        required=False, min_value=0, max_value=(1 << 63) - 1, help_text=SEED_HELP
    )
    max_matches = forms.IntegerField(
        label="Max matches",
        required=False,
        min_value=1,
        max_value=MAX_TOURNAMENT_MATCHES,
        help_text="Blank: the whole round robin. A cut still spreads games evenly.",
    )

    def __init__(self, *args: Any, game: Game, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game = game
        self.engine = get_game(game.slug)
        versions = self.fields["entrants"]
        versions.queryset = (  # type: ignore[attr-defined]
            BotVersion.objects.filter(bot__game=game)
            .exclude(status=VersionStatus.PERSON)
            .select_related("bot", "bot__owner")
            .order_by("bot__name", "bot__owner__username", "bot_id", "-number")
        )
        self.latest_ids = _latest_version_ids(versions.queryset)  # type: ignore[attr-defined]
        versions.initial = sorted(self.latest_ids)
        self.fields["players_per_match"] = forms.IntegerField(
            label="Players per match",
            initial=default_players(game),
            validators=[_in_range(game)],
            help_text=f"{game.name} is played by {game.players_label} players.",
            widget=forms.NumberInput(attrs={"min": game.min_players, "max": game.max_players}),
        )
        for option in self.engine.options:
            self.fields[OPTION_PREFIX + option.name] = option_field(option)

    # -- what the template lists

    def option_fields(self) -> list[forms.BoundField]:
        return [self[name] for name in self.fields if name.startswith(OPTION_PREFIX)]

    def entrant_rows(self) -> list[tuple[BotVersion, bool, bool]]:
        """(version, checked, is latest) for each bot version of the game."""
        if self.is_bound:
            chosen = {str(v) for v in self.data.getlist("entrants")}  # type: ignore[attr-defined]
        else:
            chosen = {str(v) for v in self.latest_ids}
        return [
            (v, str(v.pk) in chosen, v.pk in self.latest_ids)
            for v in self.fields["entrants"].queryset  # type: ignore[attr-defined]
        ]

    # -- checks

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        options = {
            name.removeprefix(OPTION_PREFIX): data[name]
            for name in self.fields
            if name.startswith(OPTION_PREFIX) and name in data
        }
        if len(options) == len(self.engine.options):
            try:
                data["options"] = self.engine.check_options(options)
            except GameError as exc:
                self.add_error(None, str(exc))
        entrants = data.get("entrants")
        players = data.get("players_per_match")
        per_pairing = data.get("games_per_pairing")
        if entrants is None or players is None or per_pairing is None:
            return data
        if len(entrants) < players:
            if (data.get("entry_policy") or EntryPolicy.ORGANISER) == EntryPolicy.ORGANISER:
                self.add_error(
                    "entrants",
                    f"Choose at least {players} entrants for {players}-player matches "
                    f"(you chose {len(entrants)}), or let users enter.",
                )
            return data  # users enter: the field is checked again at the start
        fmt = data.get("format") or FORMAT_NAMES[0]
        opts = options_of(
            fmt,
            players=players,
            rounds=data.get("rounds"),
            games_per_table=per_pairing,
            advance=data.get("advance") or 1,
        )
        if data.get("max_matches") and not FORMATS[fmt].can_cut:
            self.add_error("max_matches", cut_refusal())
            return data
        try:
            check_format(fmt, len(entrants), opts)
            full = total_matches(fmt, len(entrants), opts)
        except FormatError as exc:
            raise forms.ValidationError(str(exc)) from exc
        cut = min(full, data.get("max_matches") or full)
        if full > SCHEDULE_MAX_MATCHES or cut > MAX_TOURNAMENT_MATCHES:
            raise forms.ValidationError(
                f"This tournament is {full} matches; a tournament may play at most "
                f"{MAX_TOURNAMENT_MATCHES}. Choose fewer entrants, rounds or games per pairing, "
                "or set max matches."
            )
        return data

    def create_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of ``services.create_tournament`` (after ``is_valid``)."""
        data = self.cleaned_data
        return {
            "game": self.game,
            "name": data["name"],
            "entrants": list(data["entrants"]),
            "format": data.get("format") or FORMAT_NAMES[0],
            "rounds": data.get("rounds"),
            "advance": data.get("advance") or 1,
            "players_per_match": data["players_per_match"],
            "games_per_pairing": data["games_per_pairing"],
            "seed": random_seed() if data.get("seed") is None else data["seed"],
            "options": data["options"],
            "max_matches": data.get("max_matches"),
            **self.settings_kwargs(),
        }


def _latest_version_ids(versions: Any) -> set[int]:
    latest: dict[int, tuple[int, int]] = {}
    for pk, bot_id, number in versions.values_list("pk", "bot_id", "number"):
        if bot_id not in latest or number > latest[bot_id][1]:
            latest[bot_id] = (pk, number)
    return {pk for pk, _ in latest.values()}


def _in_range(game: Game) -> Any:
    def check(value: int) -> None:
        if not game.min_players <= value <= game.max_players:
            raise forms.ValidationError(
                f"{game.name} is played by {game.players_label} players, not {value}."
            )

    return check
