"""The checks of one clause on its own, before any ruleset is resolved: its status, citations, readings
and rules (settings, follow ladders, score bands). Codes E1xx clauses, E2xx settings, E3xx follow
ladders, E4xx score tables (see :mod:`tractor_dsl.checker`)."""
from __future__ import annotations

from . import inventory, limits
from . import model as m
from .diagnostics import did_you_mean
from .patterns import can_form, fits_within, pattern_units, shape_unit, unit_cards
from .schema import BAND_SIDES, LEAD_UNITS, PARAMS, PARAMS_BY_NAME, STATUSES
from .types import TypeProblem

# Why a table of other than four players is refused (issue 32): said where a user writing one looks - the error
OUT_OF_SCOPE = ("; the rule language is for four players in two fixed partnerships, partners opposite: more "
                "players, partners found in play (找朋友, Finding Friends), one banker against three (一打三) and other "
                "table sizes are other games, out of scope (the house-rules section of the comparison page lists them)")


class ClauseChecks:
    """Mixed into the checker (:class:`tractor_dsl.checker._Checker`), which reports with
    ``self.error(code, message, span)`` and ``self.warn(...)``."""

    def check_clause(self, clause: m.Clause, rs: m.Ruleset) -> None:
        known = inventory.by_id()
        if clause.status is None:
            self.error("E101", f"clause '{clause.id}' has no status (stated, interpreted or conduct)", clause.span)
        elif clause.status not in STATUSES:
            self.error("E102", f"unknown status '{clause.status}'" + did_you_mean(clause.status, STATUSES),
                       clause.item_span("status"))
        if not clause.cites:
            self.error("E103", f"clause '{clause.id}' cites no source clause", clause.span)
        if not clause.says:
            self.error("E104", f"clause '{clause.id}' has no English statement ('says')", clause.span)
        seen_cites = set()
        # the span of each cite in order (a cite given twice has two spans; item_span finds the first)
        cite_spans = [span for name, span in clause.item_spans if name.startswith("cite:")]
        cite_spans += [clause.span] * (len(clause.cites) - len(cite_spans))
        for cite, span in zip(clause.cites, cite_spans):
            if cite in seen_cites:
                self.error("E105", f"'{cite}' is cited twice in clause '{clause.id}'", span)
            seen_cites.add(cite)
            if cite not in known:
                self.error("E107", f"unknown source clause '{cite}'" + did_you_mean(cite, known), span)
            elif rs.document in inventory.documents() and known[cite].document != rs.document:
                self.warn("W108", f"'{cite}' belongs to document {known[cite].document}, "
                                  f"not to this ruleset's document {rs.document}", span)
            elif known[cite].is_gap and clause.status == "stated":
                self.error("E110", f"'{cite}' is a gap in the source; a clause resolving it must be 'interpreted'",
                           span)
        has_rules = bool(clause.rules) or any(r.rules for r in clause.readings)
        if clause.status == "conduct" and has_rules:
            self.error("E111", f"conduct clause '{clause.id}' cannot hold rules: conduct is not machine-checkable",
                       clause.span)
        if clause.status == "interpreted":
            if not clause.reason:
                self.error("E112", f"interpreted clause '{clause.id}' must give its reason", clause.span)
            if len(clause.readings) < 2 and not clause.alternatives:
                self.error("E113", f"interpreted clause '{clause.id}' must name the alternatives considered "
                                   "(two or more readings, or 'alternative' lines)", clause.span)
        if clause.status == "stated" and clause.readings:
            self.error("E114", f"stated clause '{clause.id}' has readings; a clause with readings is 'interpreted'",
                       clause.readings[0].span)
        names = [r.name for r in clause.readings]
        for i, r in enumerate(clause.readings):
            if r.name in names[:i]:
                self.error("E115", f"reading '{r.name}' is declared twice in clause '{clause.id}'", r.span)
        if clause.readings and clause.choice is None:
            self.error("E116", f"clause '{clause.id}' declares readings but chooses none ('choose NAME')",
                       clause.span)
        if clause.choice is not None and clause.choice not in names:
            self.error("E117", f"clause '{clause.id}' chooses '{clause.choice}', which is not one of its readings"
                       + did_you_mean(clause.choice, names), clause.item_span("choose"))
        for rule in clause.rules + tuple(x for r in clause.readings for x in r.rules):
            self.check_rule(rule)

    def check_rule(self, rule: m.Rule) -> None:
        if isinstance(rule, m.Setting):
            param = PARAMS_BY_NAME.get(rule.path)
            if param is None or param.name in ("follow.ladders", "score.bands"):
                hint = did_you_mean(rule.path, [p.name for p in PARAMS])
                if param is not None:
                    hint = f"; use '{'follow' if 'follow' in rule.path else 'band'}' statements instead"
                self.error("E201", f"unknown setting '{rule.path}'{hint}", rule.span)
                return
            try:
                param.type.convert(rule.value)
            except TypeProblem as p:
                why = OUT_OF_SCOPE if rule.path == "equipment.players" else ""
                self.error("E202", f"{rule.path}: {p.message}{why}", p.span if p.span.line else rule.span)
        elif isinstance(rule, m.Follow):
            self.check_follow(rule)
        elif isinstance(rule, m.Band):
            if rule.side not in BAND_SIDES:
                self.error("E401", f"unknown side '{rule.side}' in band" + did_you_mean(rule.side, BAND_SIDES),
                           rule.span)
            if rule.low is not None and rule.high is not None and rule.low > rule.high:
                self.error("E402", f"band {rule.low}..{rule.high} is empty (low above high)", rule.span)
            if rule.levels < 0:
                self.error("E403", "a band gains zero or more levels; say which side gains", rule.span)
            if rule.step is not None and rule.high is not None:
                self.error("E404", "only the open-ended top band may have a step", rule.span)
            if rule.step is not None and rule.step <= 0:
                self.error("E405", "a band step must be positive", rule.span)

    def check_shape(self, shape: m.Shape) -> bool:
        if shape.unit == "tractor":
            if shape.element not in ("pair", "triple"):
                self.error("E301", f"a tractor is made of 'pair' or 'triple', not '{shape.element}'"
                           + did_you_mean(shape.element or "", ("pair", "triple")), shape.span)
                return False
            if shape.length is None or shape.length < 2:
                self.error("E302", "a tractor has at least 2 pairs or triples", shape.span)
                return False
            return True
        if shape.unit not in LEAD_UNITS:
            self.error("E303", f"unknown unit '{shape.unit}'" + did_you_mean(shape.unit, LEAD_UNITS + ("tractor",)),
                       shape.span)
            return False
        return True

    def check_follow(self, follow: m.Follow) -> None:
        if not self.check_shape(follow.lead):
            return
        lead_cards = unit_cards([shape_unit(follow.lead)])
        most = PARAMS_BY_NAME["equipment.hand_size"].type.high
        if lead_cards > most:
            self.error("E309", f"a lead of {lead_cards} cards is more than any hand holds (at most {most})",
                       follow.lead.span)
            return
        if len(follow.ladder) > limits.LADDER_ENTRIES:
            self.error("E310", f"the follow ladder for '{follow.lead}' has {len(follow.ladder)} entries; "
                               f"at most {limits.LADDER_ENTRIES}", follow.span)
            return
        good: list[tuple[m.Pattern, list]] = []
        for entry in follow.ladder:
            if not all(self.check_shape(t.shape) for t in entry.terms):
                continue
            if any(t.count < 1 for t in entry.terms):
                self.error("E304", "a count in a follow entry must be at least 1", entry.span)
                continue
            # count the cards before listing the units: a count may be huge
            cards = sum(t.count * unit_cards([shape_unit(t.shape)]) for t in entry.terms)
            if cards != lead_cards:
                self.error("E305", f"follow entry '{entry}' has {cards} cards but the lead "
                                   f"'{follow.lead}' has {lead_cards}", entry.span)
                continue
            units = pattern_units(entry)
            for earlier, earlier_units in good:
                if fits_within(earlier_units, units):
                    self.warn("W306", f"follow entry '{entry}' is shadowed by the earlier entry '{earlier}': "
                                      "whoever can play it can play that one", entry.span)
                    break
            good.append((entry, units))
        if good and not can_form(good[-1][1], [], {i: 1 for i in range(lead_cards)}):
            self.warn("W307", f"the follow ladder for '{follow.lead}' does not end with {lead_cards} singles: a "
                              "follower holding no pairs matches no entry", follow.span)
