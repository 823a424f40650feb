"""Comparing rulesets and illustrating them: questions, answers, distinguishing questions, examples.

Questions are the protocol's own operations and inputs (plus a few the
rulebook alone asks); they are searched with the builders of
:mod:`conformance.positions`, the same that make the seeded suite and the
Hypothesis strategies. ``tractor diff``, the comparison page and the
rulebooks' examples are built from here.
"""
from __future__ import annotations

from ..features import (TOPICS, Feature, changed, feature_order, feature_value, features, reading_changes,
                        topic_of, topic_title, value_text)
from .compare import Comparison, Difference, compare, distinguish, with_changes
from .examples import Example, clause_features, evaluate_recorded, examples_for_clause, is_executable
from .questions import IMPOSSIBLE, DOC_OPS, InvalidQuestion, Outcome, Question, ask, outcome_or_impossible, try_ask
from .render import answer_parts, pattern_zh, question_parts, question_text, shape_text
from .search import CURATED, PREFERRED, Space, candidates, families

__all__ = ["TOPICS", "Feature", "changed", "feature_order", "feature_value", "features", "reading_changes",
           "topic_of", "topic_title", "value_text", "Comparison", "Difference", "compare", "distinguish",
           "with_changes", "Example", "clause_features", "evaluate_recorded", "examples_for_clause",
           "is_executable", "IMPOSSIBLE", "DOC_OPS", "InvalidQuestion", "Outcome", "Question", "ask",
           "outcome_or_impossible", "try_ask", "answer_parts", "pattern_zh", "question_parts", "question_text",
           "shape_text", "CURATED", "PREFERRED", "Space", "candidates", "families"]
