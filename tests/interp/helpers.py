"""Shared helpers for interpreter tests: build contexts and parse cards tersely."""
from reference_impl.cards import parse_cards
from reference_impl.rules import rules_for
from reference_impl.trump import context


def ctx(ruleset: str, level: str, trump: str | None):
    return context(rules_for(ruleset), level, trump)


def cards(text: str) -> list[int]:
    return parse_cards(text)
