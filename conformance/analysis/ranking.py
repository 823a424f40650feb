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
