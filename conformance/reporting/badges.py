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

from tractor_dsl.files import WriteError, target_problem, write_file

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


def badge_files(m: Matrix) -> list[tuple[str, str, str, str | None]]:
    """Each badge of the matrix: (file name, engine, label's ruleset or None for the engine's total).

    ``ENGINE_RULESET.svg`` for an engine and a ruleset, ``ENGINE.svg`` for the engine over every ruleset.
    The names are different by construction: the engines' slugs are different and hold no ``_``
    (:func:`~conformance.reporting.matrix.slug`), so a name holds ``_`` exactly when it names a ruleset, and
    its part before the first ``_`` is the engine (an engine whose version ends ``-r000`` cannot take another
    engine's r000 badge)."""
    out = []
    for engine, s in zip(m.engines, slugs(m.engines)):
        out += [(f"{s}_{rs}.svg", engine, rs) for rs in m.rulesets]
        out.append((f"{s}.svg", engine, None))
    return out


def write_badges(m: Matrix, directory: str | Path) -> list[Path]:
    """Every badge of :func:`badge_files` in ``directory``; the paths written. Each target is checked before
    any is written: a link or anything but a regular file in a badge's place refuses the whole set
    (:func:`tractor_dsl.files.target_problem`), so nothing is written through a link planted there."""
    directory = Path(directory)
    texts = {}
    for name, engine, rs in badge_files(m):
        counts = m.totals[engine] if rs is None else m.per_ruleset[(rs, engine)]
        r = rate(counts)
        texts[directory / name] = badge_svg(f"{rs or 'tractor'} · {engine}", percent(r), colour(r))
    for path in texts:
        problem = target_problem(path)
        if problem:
            raise WriteError(path, problem)
    return [write_file(path, text) for path, text in texts.items()]
