"""Comparing rulesets and illustrating them: questions, answers, distinguishing questions, examples.

Questions are the protocol's own operations and inputs (plus a few the
rulebook alone asks); they are searched with the builders of
:mod:`conformance.generation.positions`, the same that make the seeded suite and the
Hypothesis strategies. ``tractor diff``, the comparison page and the
rulebooks' examples are built from here.
"""
from __future__ import annotations

from conformance.generation.features import (TOPICS, Feature, changed, feature_order, feature_value, features, reading_changes,
                        topic_of, topic_title, value_text)
from conformance.analysis.variants.compare import Comparison, Difference, compare, distinguish, with_changes
from conformance.analysis.variants.examples import Example, clause_features, evaluate_recorded, examples_for_clause, is_executable
from conformance.analysis.variants.questions import IMPOSSIBLE, DOC_OPS, InvalidQuestion, Outcome, Question, ask, outcome_or_impossible, try_ask
from conformance.analysis.variants.render import answer_parts, answer_text, outcome_dict, pattern_zh, question_parts, question_text, shape_text
from conformance.analysis.variants.search import CURATED, PREFERRED, Space, candidates, families

__all__ = ["TOPICS", "Feature", "changed", "feature_order", "feature_value", "features", "reading_changes",
           "topic_of", "topic_title", "value_text", "Comparison", "Difference", "compare", "distinguish",
           "with_changes", "Example", "clause_features", "evaluate_recorded", "examples_for_clause",
           "is_executable", "IMPOSSIBLE", "DOC_OPS", "InvalidQuestion", "Outcome", "Question", "ask",
           "outcome_or_impossible", "try_ask", "answer_parts", "answer_text", "outcome_dict", "pattern_zh", "question_parts", "question_text",
           "shape_text", "CURATED", "PREFERRED", "Space", "candidates", "families"]
