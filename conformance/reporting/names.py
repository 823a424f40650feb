"""Readable names of cases and links to the clauses they test, for the reports (issue 33).

A case's id (``r001:follow:d97115d38902``) names it exactly but says nothing to a reader; its *title* says
what it is: ``r001 · follow · follow.pair_from_triple · follow pair: rung 1 first (the play it requires)``
— the ruleset, the operation, the clause that decided the reference's answer (the last one the judgment
consulted) and what the position was built to decide, or, for a random position, a short account of it
(the lead and the play, the points, the level). The reports show the title beside the id, never instead.

A clause links to its text in the rulebook site: each rulebook page ``rulebooks/RULESET.html`` has an anchor
``clause-ID`` per clause (``docs/_ext/tractor_nodes.py``: ``clause_anchor``, docutils' ``make_id``), under a
base URL (``tractor conform --docs-url``; by default the site this checkout builds, ``docs/_build/html``).
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

SEP = " · "
DESCRIPTION_CHARS = 80
SITE = Path(__file__).resolve().parents[2] / "docs" / "_build" / "html"


def _cards(tokens) -> str:
    from conformance.protocol.inputs import glyphs
    return glyphs(list(tokens or [])) or "nothing"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def describe(op: str, inp: dict) -> str:
    """A short account of a random position (what a reader needs to tell it from the others)."""
    side = {True: "as banker", False: "as attackers"}
    if op == "classify":
        return f"cards {_cards(inp.get('cards'))}"
    if op == "lead":
        return f"leads {_cards(inp.get('cards'))} from a hand of {len(inp.get('hand') or [])}"
    if op == "follow":
        return (f"lead {_cards(inp.get('lead'))}, plays {_cards(inp.get('play'))} "
                f"from a hand of {len(inp.get('hand') or [])}")
    if op == "winner":
        plays, leader = inp.get("plays") or [], inp.get("leader")
        led = plays[leader] if isinstance(leader, int) and 0 <= leader < len(plays) else []
        return f"seat {leader} leads {_cards(led)}, {_plural(len(plays), 'play')}"
    if op == "kitty":
        return f"kitty of {_plural(len(inp.get('kitty') or []), 'card')}, last trick led by seat " \
               f"{(inp.get('last_trick') or {}).get('leader')}"
    if op == "result":
        return f"attackers take {inp.get('attackers_points')} points"
    if op == "advance":
        return f"level {inp.get('level')} gains {inp.get('gain')} {side.get(inp.get('as_banker'), '')}".strip()
    if op == "declare":
        return f"{_plural(len(inp.get('declarations') or []), 'declaration')} at level {inp.get('level')}"
    if op == "undeclared":
        return f"nobody declares at level {inp.get('level')}"
    if op == "hand":
        t = inp.get("transcript") or {}
        return f"a whole hand at level {t.get('level')}, {_plural(len(t.get('tricks') or []), 'trick')}"
    if op == "penalty":
        faults = ", ".join(str(f.get("fault")) for f in inp.get("faults") or [] if isinstance(f, dict))
        return f"{faults or 'no fault'}, attackers {inp.get('attackers_points')} points"
    if op == "deal":
        return f"a deal of {_plural(len(inp.get('hands') or []), 'hand')} at level {inp.get('level')}"
    return op


def deciding_clause(case: dict) -> str | None:
    """The clause that decided the reference's answer: the last the judgment consulted."""
    clauses = case.get("clauses") or []
    return clauses[-1] if clauses else None


def case_title(case: dict) -> str:
    """``ruleset · op · clause · description``: what the case is, for people (beside its id)."""
    decides = case.get("decides") or []
    try:
        what = decides[0] if decides else describe(case["op"], case.get("input") or {})
    except (TypeError, ValueError, KeyError, AttributeError):   # an odd input from a user's vector file
        what = case["op"]
    what = " ".join(str(what).split())
    if len(what) > DESCRIPTION_CHARS:
        what = what[:DESCRIPTION_CHARS - 1] + "…"
    parts = [case["ruleset"], case["op"], deciding_clause(case), what]
    return SEP.join(str(p) for p in parts if p)


def clause_anchor(clause_id: str) -> str:
    """The anchor of a clause in its rulebook page: ``clause-`` and the id as docutils' ``make_id`` writes it
    (lower case, every run of other characters one hyphen)."""
    text = unicodedata.normalize("NFKD", f"clause-{clause_id}").encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


def default_docs_url() -> str:
    """The rulebook site this checkout builds (``docs/_build/html``), as a URL."""
    return SITE.as_uri() + "/"


def clause_url(ruleset: str, clause_id: str, docs_url: str | None = None) -> str:
    """Where ``clause_id`` of ``ruleset`` is written in the rulebook site under ``docs_url``."""
    base = docs_url if docs_url is not None else default_docs_url()
    if base and not base.endswith("/"):
        base += "/"
    return f"{base}rulebooks/{ruleset}.html#{clause_anchor(clause_id)}"
