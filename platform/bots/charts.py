"""A bot's rating over time as an inline SVG drawn on the server (no script: the site's CSP
allows none)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def rating_chart_svg(
    values: Sequence[float], *, width: int = 640, height: int = 180, label: str = "Elo"
) -> str:
    """A line chart of ``values`` (oldest first) with its range on the left axis; '' for
    fewer than two points. Every number is formatted here, so the markup is safe to embed."""
    if len(values) < 2:
        return ""
    pad_l, pad_r, pad_t, pad_b = 48, 10, 12, 22
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    step = w / (len(values) - 1)

    def y(v: float) -> float:
        return pad_t + h * (hi - v) / (hi - lo)

    points = " ".join(f"{pad_l + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    last_x, last_y = pad_l + (len(values) - 1) * step, y(values[-1])
    name = escape(label)
    return (
        f'<svg class="rating-chart" viewBox="0 0 {width} {height}" width="100%" '
        f'role="img" aria-label="{name} over the last {len(values)} rated matches" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<line x1="{pad_l}" y1="{pad_t}" x2="{pad_l}" y2="{pad_t + h}" stroke="#94a3b8"/>'
        f'<line x1="{pad_l}" y1="{pad_t + h}" x2="{pad_l + w}" y2="{pad_t + h}" stroke="#94a3b8"/>'
        f'<text x="{pad_l - 6}" y="{pad_t + 4}" text-anchor="end" font-size="11">{hi:.0f}</text>'
        f'<text x="{pad_l - 6}" y="{pad_t + h}" text-anchor="end" font-size="11">{lo:.0f}</text>'
        f'<text x="{pad_l}" y="{height - 4}" font-size="11">{len(values)} rated matches ago'
        f"</text>"
        f'<text x="{pad_l + w}" y="{height - 4}" text-anchor="end" font-size="11">now</text>'
        f'<polyline fill="none" stroke="#fb923c" stroke-width="2" points="{points}"/>'
        f'<circle cx="{last_x:.1f}" cy="{last_y:.1f}" r="3.5" fill="#fb923c"/>'
        f"<title>{name}: {values[0]:.0f} to {values[-1]:.0f}</title></svg>"
    )


#: The two versions' colours on the comparison chart (the site's accent, then a blue).
SERIES_COLOURS = ("#fb923c", "#2563eb")


def versions_chart_svg(
    series: Sequence[tuple[str, Sequence[tuple[int, float]]]],
    *,
    width: int = 640,
    height: int = 200,
) -> str:
    """Elo of the bot over each version's period, on one axis of "rated matches since the
    version's first" (so the versions are compared over the same number of matches). Each
    series is ``(label, [(match number, Elo), ...])``; '' when no series has two points."""
    drawn = [(label, pts) for label, pts in series if len(pts) >= 2]
    if not drawn:
        return ""
    pad_l, pad_r, pad_t, pad_b = 48, 10, 12, 22
    values = [e for _, pts in drawn for _, e in pts]
    lo, hi = min(values), max(values)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    last = max(n for _, pts in drawn for n, _ in pts) or 1
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    lines, legend = [], []
    for i, (label, pts) in enumerate(drawn):
        colour = SERIES_COLOURS[i % len(SERIES_COLOURS)]
        coords = " ".join(
            f"{pad_l + w * n / last:.1f},{pad_t + h * (hi - e) / (hi - lo):.1f}" for n, e in pts
        )
        lines.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{coords}">'
            f"<title>{escape(label)}: {pts[0][1]:.0f} to {pts[-1][1]:.0f}</title></polyline>"
        )
        legend.append(
            f'<text x="{pad_l + 8 + 150 * i}" y="{pad_t + 12}" font-size="12" fill="{colour}">'
            f"{escape(label)}</text>"
        )
    names = " and ".join(escape(label) for label, _ in drawn)
    return (
        f'<svg class="rating-chart" viewBox="0 0 {width} {height}" width="100%" role="img" '
        f'aria-label="Elo over the rated matches of {names}" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<line x1="{pad_l}" y1="{pad_t}" x2="{pad_l}" y2="{pad_t + h}" stroke="#94a3b8"/>'
        f'<line x1="{pad_l}" y1="{pad_t + h}" x2="{pad_l + w}" y2="{pad_t + h}" stroke="#94a3b8"/>'
        f'<text x="{pad_l - 6}" y="{pad_t + 4}" text-anchor="end" font-size="11">{hi:.0f}</text>'
        f'<text x="{pad_l - 6}" y="{pad_t + h}" text-anchor="end" font-size="11">{lo:.0f}</text>'
        f'<text x="{pad_l}" y="{height - 4}" font-size="11">its first rated match</text>'
        f'<text x="{pad_l + w}" y="{height - 4}" text-anchor="end" font-size="11">'
        f"{last} rated matches later</text>{''.join(lines)}{''.join(legend)}</svg>"
    )
