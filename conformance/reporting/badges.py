"""SVG badges of compliance, one per engine and ruleset, in the style of shields.io (drawn here, no service).

A badge has a grey label (the ruleset, then the engine) and a coloured
message (the compliance rate of :func:`conformance.reporting.matrix.rate`); green only when every judged
case passed, amber, orange then red as the rate falls (a failing case is never shown in a colour that reads as
good: 99.1 % is amber), grey when nothing was judged.
Text widths are estimated from per-character widths of Verdana 11 px, the
face shields uses, so the text fits whatever the viewer's fonts.
"""
from __future__ import annotations

from pathlib import Path

from conformance.reporting.escape import html_text as escape   # control characters too: an SVG is XML
from conformance.reporting.matrix import Matrix, percent, rate, slugs

# (lowest rate, colour), from the top: colours of shields.io, the greens kept for a rate of 100 % alone
COLOURS = ((1.0, "#4c1"), (0.95, "#dfb317"), (0.60, "#fe7d37"), (0.0, "#e05d44"))
NO_RATE = "#9f9f9f"
NARROW, WIDE = set("fijlrt.,:;!|()[] '"), set("mwMW%@")


def colour(r: float | None) -> str:
    if r is None:
        return NO_RATE
    return next(c for low, c in COLOURS if r >= low)


def text_width(s: str) -> float:
    """Verdana 11 px, roughly: 4 px for narrow characters, 10 for wide ones, 11 for ideographs, 7 else."""
    w = 0.0
    for ch in s:
        w += 11 if ord(ch) > 0x2E80 else 4 if ch in NARROW else 10 if ch in WIDE else 7
    return w


def badge_svg(label: str, message: str, fill: str) -> str:
    lw, mw = round(text_width(label)) + 10, round(text_width(message)) + 10
    w = lw + mw
    label_x, msg_x = lw / 2, lw + mw / 2
    title = escape(f"{label}: {message}")
    label, message = escape(label), escape(message)
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20" role="img" aria-label="{title}">
<title>{title}</title>
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="{w}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{mw}" height="20" fill="{fill}"/><rect width="{w}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="{label_x:g}" y="15" fill="#010101" fill-opacity=".3">{label}</text><text x="{label_x:g}" y="14">{label}</text>
<text x="{msg_x:g}" y="15" fill="#010101" fill-opacity=".3">{message}</text><text x="{msg_x:g}" y="14">{message}</text>
</g>
</svg>
"""


def write_badges(m: Matrix, directory: str | Path) -> list[Path]:
    """``ENGINE-RULESET.svg`` for every engine and ruleset of the matrix, and ``ENGINE.svg`` for the
    engine over every ruleset; the paths written."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for engine, s in zip(m.engines, slugs(m.engines)):
        for rs in m.rulesets:
            r = rate(m.per_ruleset[(rs, engine)])
            path = directory / f"{s}-{rs}.svg"
            path.write_text(badge_svg(f"{rs} · {engine}", percent(r), colour(r)), encoding="utf-8")
            written.append(path)
        r = rate(m.totals[engine])
        path = directory / f"{s}.svg"
        path.write_text(badge_svg(f"tractor · {engine}", percent(r), colour(r)), encoding="utf-8")
        written.append(path)
    return written
