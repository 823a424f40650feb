"""The diff machinery impact reuses: the features of a ruleset and a ruleset with some of them changed.

One import, so that moving :mod:`reference_impl.variants` to another layer is
a one-line change here.
"""
from reference_impl.variants import changed, feature_order, feature_value, features  # noqa: F401

__all__ = ["changed", "feature_order", "feature_value", "features"]
