"""The diff machinery impact reuses: the features of a ruleset and a ruleset with some of them changed.

The one place impact imports it from, so that its move out of the
interpreter (to ``conformance.features``) touches nothing else.
"""
try:
    from conformance.features import changed, feature_order, feature_value, features  # noqa: F401
except ImportError:  # before the move: still in the interpreter
    from reference_impl.variants import changed, feature_order, feature_value, features  # noqa: F401

__all__ = ["changed", "feature_order", "feature_value", "features"]
