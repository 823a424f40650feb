"""What an engine is seen to do, written as a ruleset: ``tractor fingerprint --emit FILE``.

Two kinds of evidence go in. The readings the engine follows
(:func:`conformance.analysis.fingerprint.fingerprint`) become ``override CLAUSE choose
READING``. The findings of a conformance run (:mod:`conformance.analysis.attribution`):
each feature — a setting, a follow ladder, the score bands — whose other value
gives the engine's answers becomes a replacement of the clause that states it:
the clause's rules (under the reading the engine follows) with the new value.
Every override says what the engine is seen to do as its ``reason`` and the
cases that show it as its ``because`` (the one never repeats the other); a
finding's value is the one the engine follows among the values the suite
cannot tell apart (:func:`conformance.analysis.attribution.settle_rivals`). Clauses the
engine was never asked about (unobserved) are left as the ruleset has them.

A conformance run against the emitted file then fails only on the failures no
alternative expresses (the clusters and the unexplained). :func:`on_same_positions`
judges the run's positions again by the emitted file, with the answers the
engine gave, and :func:`summary` says what the file changes on them (and,
plainly, when it overrides nothing). A conform run against the file asks the
same random positions (:func:`conformance.generation.cases.draw_root`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from reference_impl.rules import Rules
from tractor_dsl import model as m
from tractor_dsl.render import quote, rule_text

from conformance.generation.features import features


def observe(command: str, ruleset: str, ops: list[str], timeout: float = 10.0, *, jobs: int | None = 1,
            scheduler: str | None = None, progress=None):
    """The seeded suite of ``ruleset`` (the operations ``ops`` only) run against the engine, with its
    findings (a :class:`~conformance.running.runner.RunResult`), analysed on the executor of ``jobs`` /
    ``scheduler``; ``progress``: a display with the interface of :class:`conformance.conform.Quiet`."""
    from contextlib import nullcontext

    from conformance.analysis.attribution import attribute
    from conformance.generation.cases import suite
    from conformance.running.runner import Runner
    with progress or nullcontext():
        if progress is not None:
            progress.preparing(f"preparing the seeded suite of {ruleset}")
        cases = suite(ruleset, ops)
        if progress is not None:
            progress.start(cases)
        result = Runner(command, timeout=timeout, progress=progress if getattr(progress, "mode", None) else None
                        ).run(cases, rulesets=[ruleset], ops=list(ops), source="fingerprint")
    with progress or nullcontext():
        attribute(result, jobs=jobs, scheduler=scheduler, progress=progress.preparing if progress else None)
    return result


def explained(final: Rules, verdict) -> bool:
    """Whether the findings (``final``: the reference with every finding applied) already give the engine's
    answer on each position the verdict rests on: the reading it names is then not the engine's, only what
    another difference looks like on those positions (a file overriding it would be no fixpoint). Each position
    is compared on the fields the clause decides there, as the verdict was."""
    from conformance.analysis.fingerprint import same
    from conformance.generation.decisions import answer
    asked = [e for e in verdict.evidence if "fields" in e]   # answered, on fields the engine answers
    return bool(asked) and all(same(answer(final, e["op"], e["input"]), e["engine"], set(e.get("fields", ())))
                               for e in asked)


def _clause_rules(clause: m.Clause, reading: str | None) -> list[m.Rule]:
    rules = list(clause.rules)
    for r in clause.readings:
        if r.name == reading:
            rules += list(r.rules)
    return rules


def emit_text(rules: Rules, name: str, findings: list, verdicts: list, engine: str) -> str:
    """The ruleset ``name`` extending ``rules``: every reading and feature the engine is seen to follow."""
    checked = rules.checked
    final = findings[-1].after if findings and findings[-1].after is not None else rules
    before, after = features(checked), features(final.checked)
    changed: dict[str, dict[str, str]] = {}      # clause -> feature -> new value text
    seen_as: dict[str, list[str]] = {}           # clause -> what the engine is seen to do (the reason)
    evidence: dict[str, list[str]] = {}          # clause -> the cases that show it (the because)
    for key, feat in after.items():
        if key in before and before[key].text == feat.text:
            continue
        clause = (before.get(key) or feat).clause
        changed.setdefault(clause, {})[key] = feat.text
        seen = next((f for f in findings if key in getattr(f, "keys", ()) and f.cases), None)  # its own finding
        if seen is not None:
            what = f"the engine answers as if {'; '.join(seen.engine)}"
            if what not in seen_as.get(clause, []):
                seen_as.setdefault(clause, []).append(what)
                evidence.setdefault(clause, []).append(
                    f"{seen.feature}: {len(seen.cases)} failing case(s) of the seeded suite, e.g. {seen.cases[0]}")
    followed = {v.clause: v for v in verdicts
                if not v.unobserved and v.positions and len(v.followed) == 1 and v.followed[0] != v.chosen
                and (v.clause in changed or not explained(final, v))}
    lines = [f"# Written by `tractor fingerprint --emit`: what {engine} is seen to do, as a ruleset",
             f"# extending {rules.name}. Each override's reason says what is seen, its because the evidence.",
             *([f"# The engine matched {rules.name} on every reading and alternative value the suite tries: this",
                "# file overrides nothing. Failures it has beyond them stay failures against this file."]
               if not changed and not followed else []), "",
             f"ruleset {name} extends {rules.name} {{",
             f"  title {quote(f'{rules.name} as {engine} plays it')}"]
    for clause_id in sorted(set(changed) | set(followed), key=lambda c: [x.id for x in checked.clauses].index(c)):
        clause = checked.clause(clause_id)
        v = followed.get(clause_id)
        reading = v.followed[0] if v else checked.choices.get(clause_id)
        reasons = list(evidence.get(clause_id, []))
        what = list(seen_as.get(clause_id, []))
        if v:
            reasons.insert(0, f"reading {v.followed[0]}: the engine agreed with it, not with {v.chosen}, "
                              + (f"on {v.agreeing} of the {v.positions} positions" if v.majority
                                 else f"on all {v.positions} position(s)") + " that tell the readings apart")
            what.insert(0, f"the engine follows the reading {v.followed[0]}")
        because = quote("; ".join(reasons) or "seen in the engine's answers")
        reason = quote("; ".join(what) or "the engine's answers differ from the spec's here")
        lines.append("")
        if clause_id not in changed:
            lines.append(f"  override {clause_id} choose {reading} because {because}")
            continue
        new = changed[clause_id]
        lines.append(f"  override {clause_id} {{")
        if clause.cites:
            lines.append(f"    cites {', '.join(clause.cites)}")
        lines += ["    status interpreted",   # read off the engine's answers: an interpretation, with its evidence
                  f"    says {quote('As the engine is seen to play it: ' + ', '.join(sorted(new)) + '.')}",
                  f"    reason {reason}"]   # what is seen; the evidence is the override's because
        lines += [f"    alternative {quote(f'{rules.name}: {key} = ' + (before[key].text if key in before else 'none'))}"
                  for key in sorted(new)]
        bands_done = False
        written: set[str] = set()
        for r in _clause_rules(clause, reading):
            if isinstance(r, m.Setting) and r.path in new:
                if final.checked.values.get(r.path) is not None:   # unset by the engine (no card removed): no line
                    lines.append(f"    set {r.path} = {_source(r.path, final.checked.values[r.path], new[r.path])}")
                written.add(r.path)
            elif isinstance(r, m.Follow) and f"follow {r.lead}" in new:
                lines.append(f"    follow {r.lead}: {new[f'follow {r.lead}']}")
                written.add(f"follow {r.lead}")
            elif isinstance(r, m.Band) and "score.bands" in new:
                if not bands_done:
                    lines += [f"    band {b}" for b in new["score.bands"].split("; ")]
                    bands_done = True
                written.add("score.bands")
            else:
                lines.append(f"    {rule_text(r)}")
        for key in sorted(set(new) - written):  # a feature the clause did not state (a derived ladder, ...)
            if key.startswith("follow "):
                lines.append(f"    {key}: {new[key]}")
            elif key == "score.bands":
                lines += [f"    band {b}" for b in new[key].split("; ")]
            elif final.checked.values.get(key) is not None:
                lines.append(f"    set {key} = {_source(key, final.checked.values[key], new[key])}")
        lines.append(f"  }} because {because}")
    lines.append("}")
    from tractor_dsl.formatter import format_text
    return format_text("\n".join(lines) + "\n", "<emitted>")   # the canonical layout of `tractor fmt`


def _source(key: str, value, text: str) -> str:
    """A setting's value as the rule language writes it: cards (``equipment.removed``, V05;
    ``trump.named_cards``, V10) as records ``{ rank: 3, suit: clubs }``, which the canonical text of a feature
    writes as pairs; anything else as that text."""
    from tractor_dsl.schema import PARAMS_BY_NAME
    from tractor_dsl.types import CardType, ListType, OptionalType
    param = PARAMS_BY_NAME.get(key)
    t = param.type if param is not None else None
    t = t.inner if isinstance(t, OptionalType) else t
    if isinstance(t, ListType) and isinstance(t.item, CardType) and value:
        return "[" + ", ".join(f"{{ rank: {rank}, suit: {suit} }}" for rank, suit in value) + "]"
    return text


@dataclass
class Compared:
    """A run's positions judged twice: by the ruleset run, and by the file emitted from it (the same positions,
    the engine's same answers: no engine is asked again)."""

    positions: int                                  # the cases the engine answered (passed or failed)
    before: list[str] = field(default_factory=list)  # failing against the ruleset run
    after: list[str] = field(default_factory=list)   # failing against the emitted file
    outside: list[str] = field(default_factory=list)  # positions the emitted file cannot hold (its rules refuse
    #                                                   them as input: a transcript with a failed throw where
    #                                                   throws are never judged), counted in neither list

    @property
    def refused(self) -> int:
        return len(self.outside)

    @property
    def fixed(self) -> int:
        return len(set(self.before) - set(self.after) - set(self.outside))

    @property
    def broken(self) -> int:
        return len(set(self.after) - set(self.before))


def on_same_positions(result, emitted: Rules) -> Compared:
    """The cases of ``result`` judged again by ``emitted``: each answer the engine gave (a passing case's is
    the expected one, on the fields the engine answers) against the emitted ruleset's answer there."""
    from conformance.generation.cases import make_case
    from conformance.protocol.engine import InputError
    from conformance.protocol import messages as protocol
    runner = getattr(result, "runner", None)
    fields = getattr(runner, "fields", None) or (protocol.declared_fields(result.handshake) if result.handshake
                                                 else {})
    out = Compared(0)
    for case, outcome in zip(result.cases, result.outcomes):
        if outcome is None or outcome.status not in ("pass", "fail"):
            continue
        out.positions += 1
        if outcome.status == "fail":
            out.before.append(case["id"])
        answer = case["expected"] if outcome.status == "pass" else outcome.answer
        try:
            expected = make_case(emitted.name, case["op"], case["input"], (), emitted)["expected"]
        except InputError:   # no answer of the file to compare: outside it, neither failing nor fixed
            out.outside.append(case["id"])
            continue
        if not isinstance(answer, dict) or not protocol.agrees(case["op"], expected, answer, fields.get(case["op"])):
            out.after.append(case["id"])   # an answer kept cut short (too long to keep) counts as failing
    return out


def overrides(text: str) -> int:
    """The overrides an emitted ruleset's text holds."""
    import re
    return len(re.findall(r"^  override ", text, re.M))


def summary(path: str, name: str, rules: Rules, text: str, result, compared: Compared, fixing: int = 0) -> list[str]:
    """What ``tractor fingerprint --emit`` says of the file it wrote: what it holds (said plainly when it
    overrides nothing; ``fixing``: the clusters whose rule it states, :func:`with_fixing_clusters`), the failures
    on the run's positions before and after, and what stays failing."""
    n = overrides(text)
    if n:
        lines = [f"wrote {path}: ruleset {name} extends {rules.name}, {n} override(s) from "
                 f"{len(result.findings)} finding(s)"
                 + (f", {fixing} cluster(s) whose rule fixes them" if fixing else "")
                 + " and the readings the engine follows"]
    else:
        lines = [f"wrote {path}: the engine matched {rules.name} on every reading and alternative value the suite "
                 f"tries; the emitted file only extends {rules.name}: it overrides nothing"]
    lines.append(f"on the same {compared.positions:,} positions of the seeded suite: {len(compared.before):,} "
                 f"failure(s) against {rules.name}, {len(compared.after):,} against {name}"
                 + (f" ({compared.fixed:,} fixed, {compared.broken:,} newly failing)" if compared.before else "")
                 + (f"; {compared.refused:,} position(s) {name} cannot hold (its rules refuse them as input: "
                    f"{compared.positions - compared.refused:,} compared)" if compared.refused else ""))
    if compared.after:
        left = set(compared.after)
        clustered = {c for cl in getattr(result, "clusters", ()) for c in cl.cases} & left
        found = {c for f in result.findings for c in f.cases} & left - clustered
        unexplained = left - clustered - found
        parts = [f"{len(clustered):,} in clusters beyond the alternatives" if clustered else "",
                 f"{len(found):,} in findings the file could not state" if found else "",
                 f"{len(unexplained):,} explained by nothing" if unexplained else ""]
        lines.append(f"{len(compared.after):,} failure(s) stay against {name}, which no reading or alternative value "
                     "the suite tries explains: " + ", ".join(p for p in parts if p))
    return lines


def readings_settled(verdicts, emitted: Rules) -> list[str]:
    """For each clause the readings table says the engine follows none of the readings of (a value of a setting,
    not a reading, may be what it follows: H28's unchecked throws make lead.failed_throw's readings all
    differ), on how many of that clause's positions the emitted file, with every setting it overrides, answers
    as the engine, compared on the fields the clause decides there: the table's "none of them" is then
    accounted for, or said to remain."""
    from conformance.analysis.fingerprint import same
    from conformance.generation.cases import make_case
    from conformance.protocol.engine import InputError
    from conformance.protocol import messages as protocol
    lines = []
    for v in verdicts:
        if v.followed or not v.positions or v.unobserved:
            continue
        asked = [e for e in v.evidence if "fields" in e]
        agree = 0
        for e in asked:
            try:
                expected = make_case(emitted.name, e["op"], e["input"], (), emitted)["expected"]
            except InputError:
                continue
            agree += same(protocol.normalize(e["op"], expected), e["engine"], set(e["fields"]))
        what = f"all {agree}" if agree == len(asked) else f"{agree} of the {len(asked)}"
        lines.append(f"{v.clause}: the engine follows none of its readings; {emitted.name}, with the settings it "
                     f"overrides, answers as the engine on {what} of its position(s)")
    return lines


def with_fixing_clusters(rules: Rules, findings: list, clusters: list) -> list:
    """``findings``, then, as findings applied on top of them, the clusters of ``rules``' ruleset whose rule fixes
    them (a change of one rule makes the engine agree on every case asked): what ``tractor fingerprint --emit``
    writes then states the rules the clusters name too (sunbin1998can/tractor-card-game-codex's kitty, H33, reached
    the run as a cluster of 57 cases its rule fixes, and was left out of the file). A cluster whose feature a
    finding already changes keeps the finding's value, and a rule that cannot be applied on top of the others is
    left out."""
    from conformance.analysis.attribution import _alternatives, _finding
    alt_of = {a.id: a for a in _alternatives(rules)}
    out = list(findings)
    after = out[-1].after if out and out[-1].after is not None else rules
    taken = {f.feature for f in out} | {k for f in out for k in f.keys}
    for c in clusters:
        rule = getattr(c, "rule", None)
        alt = alt_of.get(rule.alt) if rule is not None and rule.fixes and c.ruleset == rules.name else None
        if alt is None or alt.feature in taken or set(alt.changes) & taken:
            continue
        try:
            applied = alt.on(after)
        except (ValueError, KeyError):   # it contradicts what the findings set (a check of the file would refuse it)
            continue
        after = applied
        out.append(_finding(rules, [alt], list(c.cases), after))
        taken |= {alt.feature, *alt.changes}
    return out
