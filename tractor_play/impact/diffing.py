"""The diff machinery impact reuses: the features of a ruleset and a ruleset with some of them changed
(:mod:`conformance.generation.features`), imported here only, for the rest of impact."""
from conformance.generation.features import changed, feature_order, feature_value, features  # noqa: F401

__all__ = ["changed", "feature_order", "feature_value", "features"]
