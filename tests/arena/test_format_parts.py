"""Every registered format describes itself in full (``arena.formats.parts``): a new format is
one module of ``arena/formats/`` plus its test, and this file fails when it lacks a part."""

from __future__ import annotations

import dataclasses

import pytest

from arena.formats import FORMATS, FormatOptions, StandingRow, new_standings, tiebreak_names
from arena.formats.parts import (
    COMMON_OPTIONS,
    EXTRA_OPTIONS,
    OPTION_BOUNDS,
    RANKING_FIELDS,
    RESULTS_SECTIONS,
    Column,
)

OPTION_FIELDS = {f.name for f in dataclasses.fields(FormatOptions)}
ROW_FIELDS = {f.name for f in dataclasses.fields(StandingRow)}

# The parts and what each must be.
PARTS = {
    "name": str,
    "label": str,
    "summary": str,
    "takes": dict,
    "ranked_by": tuple,
    "order_note": str,
    "columns": tuple,
    "results_section": str,
    "spaced": bool,
    "can_cut": bool,
}


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("part", PARTS)
def test_each_format_has_each_part(name: str, part: str) -> None:
    fmt = FORMATS[name]
    value = getattr(fmt, part, None)
    assert isinstance(value, PARTS[part]), f"format {name!r} lacks its {part!r}"
    if PARTS[part] in (str, tuple):
        assert value, f"format {name!r} has an empty {part!r}"


@pytest.mark.parametrize("name", FORMATS)
def test_each_part_is_well_formed(name: str) -> None:
    fmt = FORMATS[name]
    assert fmt.name == name
    assert set(COMMON_OPTIONS) | set(EXTRA_OPTIONS) == OPTION_FIELDS
    assert set(fmt.takes) <= set(EXTRA_OPTIONS), "it takes only FormatOptions fields"
    assert all(isinstance(h, str) and h for h in fmt.takes.values())
    assert fmt.ranked_by and set(fmt.ranked_by) <= set(RANKING_FIELDS) <= ROW_FIELDS
    assert fmt.ranked_by[-1] == "seed", "the seeding breaks the last tie"
    assert "points" in fmt.ranked_by and tiebreak_names(name) == tuple(
        f for f in fmt.ranked_by if f != "points"
    )
    assert fmt.order_note.startswith("Ordered by") and fmt.order_note.endswith(".")
    assert fmt.results_section in RESULTS_SECTIONS
    assert all(isinstance(c, Column) and c.title for c in fmt.columns)
    row = new_standings(["a", "b"])["a"]
    assert all(c.value(row) is not None for c in fmt.columns)


def test_the_bounded_options_are_format_options() -> None:
    assert set(OPTION_BOUNDS) <= OPTION_FIELDS
    assert all(1 <= least <= most for least, most in OPTION_BOUNDS.values())


def test_formats_are_ranked_by_what_they_say() -> None:
    rows = new_standings(["a", "b", "c"])
    rows["a"].points, rows["b"].points, rows["c"].points = 1.0, 2.0, 2.0
    rows["b"].buchholz, rows["c"].buchholz = 0.5, 1.5
    rows["c"].eliminated, rows["c"].eliminated_in = True, 0
    rows["a"].eliminated, rows["a"].eliminated_in = True, 1
    assert [r.bot for r in FORMATS["swiss"].ranking(rows)] == ["c", "b", "a"]
    assert [r.bot for r in FORMATS["round-robin"].ranking(rows)] == ["c", "b", "a"]
    assert [r.bot for r in FORMATS["knockout"].ranking(rows)] == ["b", "a", "c"]
