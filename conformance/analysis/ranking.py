"""How alternatives are ranked against the passes they break (issue 31, item 3), in a module of its own so
that the findings (:mod:`conformance.analysis.attribution`) and the clusters' naming and splitting
(:mod:`conformance.analysis.naming`, :mod:`conformance.analysis.clusters`) judge a rule alike without importing
one another."""
from __future__ import annotations

BROKEN_SHARE = 0.6   # passes an alternative may break per failure it explains beyond the first two


def outweighs(explained: int, broken: int) -> bool:
    """Whether an alternative explaining ``explained`` failures and breaking ``broken`` cases is still the
    engine's reading: one passing case does not veto a rule that explains hundreds (issue 31, item 3), yet a
    rule explaining two failures and breaking one pass is a coincidence."""
    return broken == 0 and explained > 0 or broken <= BROKEN_SHARE * (explained - 2)


PRIMARY_WEIGHT = 3   # a pass whose primary field (legal, winner, points ...) an alternative changes, counted so many
#                      times against an alternative that explains failures differing in other fields only


def cost(broken: int, primary_broken: int, secondary_only: bool) -> int:
    """The passes an alternative breaks, as they weigh against the failures it explains: when those failures
    differ from the spec in other fields than the primary one only (a reason, a forced play), each pass whose
    primary field it changes counts :data:`PRIMARY_WEIGHT` times, as the engine answers that field as the spec
    does where the alternative would not (an engine naming the pair it misses before the tractor is not one
    whose follow ladder asks for the pair first, which would refuse plays the engine allows)."""
    return broken + (PRIMARY_WEIGHT - 1) * primary_broken if secondary_only else broken


def secondary_only(op: str, fields_differing, fields=None) -> bool:
    """Whether failures differing in ``fields_differing`` differ in other fields than the operation's primary
    one only (of those the engine is asked for: ``fields``)."""
    from conformance.generation.decisions import PRIMARY
    from conformance.protocol import messages as protocol
    compared = fields or protocol.COMPARED[op]
    return PRIMARY[op] in compared and PRIMARY[op] not in fields_differing
