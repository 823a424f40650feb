"""``tractor explain RULESET QUESTION ...``: one judgment, with the clauses that decided it.

Every operation of the engine protocol can be asked. The options are turned
into the protocol's input, judged by the reference engine
(:func:`conformance.protocol.engine.judge`), and the question and answer are told in
the words the rulebook and ``tractor diff`` use (:mod:`conformance.analysis.variants.render`),
in English or (``--zh``) Chinese, cards as glyphs.

Numbering: seats are 0–3, as in the protocol (seat n+1 plays after seat n; 0
and 2 are partners). The plays of a trick are counted from 1 in the order they
are played: play 1 is the lead. That is ``--plays``; the protocol's ``plays``
(``--input``, ``--case``, the reports) are by seat, ``plays[s]`` being seat
s's: ``--leader 2 --plays A B C D`` is ``"leader": 2, "plays": [C, D, A, B]``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reference_impl.cards import CardError, parse_cards

HELP = "judge one position (any operation of the engine protocol) and show the clauses that decided it"

QUESTIONS = ("classify", "lead", "follow", "winner", "kitty", "result", "advance", "declare", "undeclared", "hand",
             "penalty", "deal")  # conformance.protocol.messages.OPERATIONS, in its order (a test holds them equal)
USAGE = ("tractor explain RULESET QUESTION [CARDS] [--level RANK] [--trump SUIT] [options of the question] [--zh]\n"
         "       tractor explain --case ID [--report FILE] [--zh]\n"
         "QUESTION: " + " ".join(QUESTIONS) + " (tractor explain -h: the options of each)")
DEFAULT_REPORT = "reports/conform/report.json"   # where tractor conform writes its report by default
NUMBERING = "seats 0-3 as in the protocol; plays counted from 1 in the order played (play 1 is the lead)"
NUMBERING_ZH = "座位按协议编号0–3；出牌按出牌顺序从1数起（第1家为首家）"
STATUS_ZH = {"stated": "［原文规定］", "interpreted": "［解释］", "conduct": "［行为规范］"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ruleset", nargs="?", help="a bundled ruleset's name (e.g. r003) or a rule file "
                                               "(with --case: taken from the case's id unless given)")
    p.add_argument("question", nargs="?", choices=QUESTIONS,
                   help="what to judge (an operation of the engine protocol; with --case: the case's)")
    p.add_argument("cards", nargs="?", default="", help='classify, lead: the cards, quoted ("5H 5H 7H 7H")')
    p.add_argument("--level", default=None, help="the hand's level (default: the ruleset's start level)")
    p.add_argument("--trump", default="S", help="trump suit S/H/D/C or none (default S)")
    p.add_argument("--plays", nargs=4, metavar="PLAY",
                   help="winner, kitty (the last trick): the four plays IN THE ORDER PLAYED, play 1 (the lead) "
                        "first; the protocol's plays (--input, --case, reports) are BY SEAT instead")
    p.add_argument("--leader", type=int, default=0, choices=range(4), metavar="SEAT",
                   help="winner, kitty: the seat (0-3) that leads the trick; play k is by seat leader+k-1 (default 0)")
    p.add_argument("--others", nargs="*", default=[], help="lead: the other three hands, in playing order")
    p.add_argument("--lead", help="follow: the lead")
    p.add_argument("--hand", help="follow: the follower's whole hand")
    p.add_argument("--play", help="follow: the proposed play")
    p.add_argument("--kitty", help="kitty: the buried cards; undeclared: the kitty, first card turned first; "
                                   "deal: the kitty as dealt")
    p.add_argument("--hands", nargs=4, metavar="HAND", help="deal: the four hands as dealt, by seat (0 first)")
    p.add_argument("--banker-seat", type=int, default=0, choices=range(4), metavar="SEAT",
                   help="kitty, declare (a later hand): the banker's seat (default 0)")
    p.add_argument("--points", type=int, help="result, penalty: the attackers' points (for penalty: before penalties)")
    p.add_argument("--gain", type=int, help="advance: levels gained")
    p.add_argument("--banker", action="store_true", help="advance: the team gained as banker")
    p.add_argument("--declare", action="append", default=[], metavar="SEAT:CARDS",
                   help='declare: one declaration, e.g. "2:5H 5H"; repeat in the order made (the last is judged)')
    p.add_argument("--first-hand", action="store_true", help="declare, undeclared: the first hand of the game")
    p.add_argument("--kitty-taken", action="store_true", help="declare: the kitty was taken before the last one")
    p.add_argument("--attackers-level", metavar="RANK", help="undeclared: the attackers' level (default --level)")
    p.add_argument("--fault", action="append", default=[], metavar="KIND:OFFENDER[:COUNT][:late]",
                   help='penalty: one fault, e.g. "revoke:attackers:1" or "failed_throw:banker:2:late"; repeatable')
    p.add_argument("--transcript", metavar="FILE",
                   help="hand: the hand's transcript, as the protocol's JSON (the transcript object, or a request "
                        "or input holding one); - for stdin")
    p.add_argument("--input", metavar="JSON",
                   help="any question: the protocol's input object itself (JSON text, or @FILE), instead of options")
    p.add_argument("--case", metavar="ID",
                   help="a case of a conformance run by its id (r003:follow:0df4860e6781), as a report names it: "
                        "its input is read from the report (--report), else from the default suite")
    p.add_argument("--report", metavar="FILE",
                   help=f"--case: the conform report holding the case, report.json or its folder "
                        f"(default {DEFAULT_REPORT} when it exists)")
    p.add_argument("--zh", action="store_true", help="the question and the answer in Chinese")


def run(args) -> int:
    from conformance.protocol.engine import InputError, judge
    from conformance.analysis.variants.questions import Outcome, Question
    from conformance.analysis.variants.render import answer_parts, question_parts
    from reference_impl.rules import rules_for

    from . import ui
    lang = "zh" if args.zh else "en"
    found = None
    try:
        if args.case:
            rules, found = _case(args)
        elif args.ruleset is None or args.question is None:
            raise ValueError("give RULESET QUESTION (e.g. r003 follow --lead ...), or --case ID")
        else:
            rules = rules_for(args.ruleset)  # an unknown name: SpecError, with the names known
        inp = found["input"] if found else _input(args, rules)
        _check_kitty_size(args.question, inp, rules)
        result, clauses = judge(args.question, rules.name, inp)
    except (CardError, InputError, ValueError) as e:
        print(f"tractor explain: {e}", file=sys.stderr)
        return 2
    question = Question.of(args.question, inp)
    outcome = Outcome(args.question, result, tuple(clauses))
    out = ui.console()
    title = (rules.checked.title_zh or rules.checked.title) if args.zh else rules.checked.title
    out.print(ui.styled((f"{rules.name}{'：' if args.zh else ': '}{title}", "heading")), soft_wrap=True)
    if found:
        out.print(ui.styled(("案例：" if args.zh else "case: ", "heading"), f"{args.case} ",
                            (f"({found['where']})", "dim")), soft_wrap=True)
    if args.question in ("winner", "kitty"):
        ui.print_indented(out, NUMBERING_ZH if args.zh else NUMBERING, 0, "dim", label="编号：" if args.zh else "numbering: ")
    doc = rules.checked.document   # the Chinese in the words of the ruleset's source (spec/glossary.tsv)
    ui.print_indented(out, ui.parts_text(question_parts(question, lang, doc)), 0, label="问题：" if args.zh else "question: ")
    answer = ui.parts_text(answer_parts(outcome, lang, doc))
    if args.question in ("winner", "kitty"):
        trick = inp if args.question == "winner" else inp["last_trick"]
        n = (result["winner"] - trick["leader"]) % 4 + 1
        answer += f"（第{n}家）" if args.zh else f" (play {n})"
    verdict = result.get("legal")
    style = None if verdict is None else "legal" if verdict else "illegal"
    ui.print_indented(out, answer, 0, ui.STYLES.get(style or ""), label="答案：" if args.zh else "answer: ")
    out.print(ui.styled(("依据条款：" if args.zh else "decided by:", "heading")))
    for cid in clauses:
        clause = rules.checked.clause(cid)
        status = STATUS_ZH.get(clause.status, clause.status) if args.zh else f"[{clause.status}]"
        out.print(ui.styled("  ", (cid, "clause"), f" {status} ({', '.join(clause.cites)})"), soft_wrap=True)
        says = (clause.zh or clause.says) if args.zh else clause.says
        if says:
            ui.print_indented(out, says, 6)
    return 0


# --------------------------------------------------------------------------- a case of a conformance run

def _case(args):
    """The ruleset and the case ``--case`` names: its input from the report, else from the ruleset's default
    suite (where a bundled ruleset's cases are its test vectors). Sets ``args.question`` to the case's."""
    from conformance.generation.cases import suite
    from reference_impl.rules import rules_for
    parts = args.case.split(":")
    if len(parts) != 3 or parts[1] not in QUESTIONS:
        raise ValueError(f"--case {args.case}: expected RULESET:OPERATION:HASH, as a report names a case "
                         "(e.g. r003:follow:0df4860e6781)")
    name, op = parts[0], parts[1]
    if args.question is not None and args.question != op:
        raise ValueError(f"--case {args.case} is a {op} case, not {args.question}")
    args.question = op
    try:
        rules = rules_for(args.ruleset or name)
    except Exception as e:   # SpecError: an unknown ruleset (say how to give a user's file) or a broken file
        raise ValueError(f"{e}" + ("" if args.ruleset else f"; for a ruleset of your own, give its rule file: "
                                   f"tractor explain house.tractor --case {args.case}")) from None
    if rules.name != name:
        raise ValueError(f"--case {args.case} is a case of {name}, not of {rules.name}")
    looked = []
    report = Path(args.report) if args.report else Path(DEFAULT_REPORT)
    if report.is_dir():
        report = report / "report.json"
    if args.report or report.is_file():
        looked.append(str(report))
        for case in _report_cases(report):
            if case.get("id") == args.case and isinstance(case.get("input"), dict):
                return rules, {"input": case["input"], "where": f"from {report}"}
    looked.append(f"the default suite of {rules.name}")
    for case in suite(rules.name, [op]):
        if case["id"] == args.case:
            return rules, {"input": case["input"], "where": f"from the default suite of {rules.name}"}
    raise ValueError(f"no case {args.case} in {' or '.join(looked)} (a passing case is not kept in a report; "
                     "a run with another --seed or --count: give its --report)")


def _report_cases(path: Path) -> list:
    from conformance.protocol.jsonlines import read_json
    from tractor_dsl.limits import REPORT_BYTES
    data = read_json(path, REPORT_BYTES, f"--report {path}")   # a JsonFileError (a ValueError) names the problem
    cases = data.get("cases") if isinstance(data, dict) else None
    if not isinstance(cases, list):
        raise ValueError(f"--report: {path} is not a conform report (no cases)")
    return [c for c in cases if isinstance(c, dict)]


# --------------------------------------------------------------------------- options -> the protocol's input

def _cards(text: str | None, what: str) -> list[str]:
    if text is None:
        raise CardError(f"{what} is missing")
    return _tokens(text)


def _tokens(text: str) -> list[str]:
    from reference_impl.cards import text as card_text
    return [card_text(c) for c in parse_cards(text)]


def _setting(args, rules) -> dict:
    level = args.level or rules["level.start"]
    trump = None if args.trump in ("none", "NT", "") else args.trump
    if trump is not None and trump not in ("S", "H", "D", "C"):
        raise CardError(f"--trump {args.trump}: expected S, H, D, C or none")
    return {"level": level, "trump": trump}


def _trick(args) -> dict:
    if not args.plays:
        raise CardError(f"{args.question} needs --plays with four plays, in the order played (play 1 is the lead)")
    plays: list = [None] * 4
    for k, p in enumerate(args.plays):
        plays[(args.leader + k) % 4] = _tokens(p)
    return {"leader": args.leader, "plays": plays}


def _read_json(text: str, what: str):
    """The JSON of an option: its text, or a file's (``@FILE``, and always for ``--transcript``; ``-`` is
    stdin), read with the protocol's limits (:func:`conformance.protocol.jsonlines.read_json`: a request's
    size and depth, strict JSON); a problem is a ValueError naming the option and the file."""
    from conformance.protocol.jsonlines import loads_json, read_json
    from tractor_dsl.limits import LINE_BYTES
    if text.startswith("@") or what == "--transcript":
        path = text[1:] if text.startswith("@") else text
        return read_json(path, LINE_BYTES, f"{what} {'standard input' if path == '-' else path}")
    return loads_json(text, what, LINE_BYTES)


def _fault(text: str) -> dict:
    parts = text.split(":")
    if len(parts) < 2:
        raise ValueError(f"--fault {text}: expected KIND:OFFENDER[:COUNT][:late], e.g. revoke:attackers:1")
    fault = {"fault": parts[0], "offender": parts[1]}
    for extra in parts[2:]:
        if extra in ("late", "at_once"):
            fault["found"] = extra
        elif extra.isdigit():
            fault["minutes" if parts[0] == "lateness" else "count"] = int(extra)
        else:
            raise ValueError(f"--fault {text}: '{extra}' is neither a count nor late")
    return fault


def _declaration(text: str) -> dict:
    seat, sep, cards = text.partition(":")
    if not sep or seat.strip() not in ("0", "1", "2", "3"):
        raise ValueError(f"--declare {text}: expected SEAT:CARDS with a seat 0-3, e.g. \"2:5H 5H\"")
    return {"seat": int(seat), "cards": _tokens(cards)}


def _check_kitty_size(question: str, inp: dict, rules) -> None:
    """A kitty of another size than the ruleset's cannot occur in its hands: refuse it rather than judge it."""
    kitty = inp.get("kitty") if question in ("kitty", "undeclared") else None
    if isinstance(kitty, list) and len(kitty) != rules.kitty_size:
        raise ValueError(f"--kitty holds {len(kitty)} card(s), but a kitty of {rules.name} holds "
                         f"{rules.kitty_size} (equipment.kitty_size)")


def _input(args, rules) -> dict:
    """The protocol's input for the question asked, from the options (or ``--input``)."""
    q = args.question
    if args.input is not None:
        inp = _read_json(args.input, "--input")
        if not isinstance(inp, dict):
            raise ValueError("--input: expected a JSON object (the protocol's input)")
        return inp
    if q == "classify":
        return {**_setting(args, rules), "cards": _cards(args.cards or None, "the cards")}
    if q == "lead":
        if len(args.others) != 3:
            raise CardError("lead needs --others with the three other hands, in playing order")
        return {**_setting(args, rules), "cards": _cards(args.cards or None, "the cards"),
                "others": [_tokens(o) for o in args.others]}
    if q == "follow":
        return {**_setting(args, rules), "lead": _cards(args.lead, "--lead"), "hand": _cards(args.hand, "--hand"),
                "play": _cards(args.play, "--play")}
    if q == "winner":
        return {**_setting(args, rules), **_trick(args)}
    if q == "kitty":
        return {**_setting(args, rules), "banker": args.banker_seat, "last_trick": _trick(args),
                "kitty": _cards(args.kitty, "--kitty")}
    if q == "result":
        if args.points is None:
            raise CardError("--points is missing")
        return {"attackers_points": args.points}
    if q == "advance":
        if args.gain is None:
            raise CardError("--gain is missing")
        return {"level": args.level or rules["level.start"], "gain": args.gain, "as_banker": args.banker}
    if q == "declare":
        if not args.declare:
            raise CardError('declare needs --declare SEAT:CARDS (e.g. "2:5H 5H"), one per declaration, in order')
        inp = {"level": args.level or rules["level.start"], "first_hand": args.first_hand,
               "kitty_taken": args.kitty_taken, "declarations": [_declaration(d) for d in args.declare]}
        if not args.first_hand:
            inp["banker"] = args.banker_seat
        return inp
    if q == "undeclared":
        level = args.level or rules["level.start"]
        return {"level": level, "attackers_level": args.attackers_level or level,
                "kitty": _cards(args.kitty, "--kitty"), "first_hand": args.first_hand}
    if q == "hand":
        if not args.transcript:
            raise CardError("hand needs --transcript FILE (the protocol's transcript as JSON)")
        data = _read_json(args.transcript, "--transcript")
        while isinstance(data, dict) and "transcript" not in data and isinstance(data.get("input"), dict):
            data = data["input"]
        if isinstance(data, dict) and "transcript" in data:
            data = data["transcript"]
        return {"transcript": data}
    if q == "penalty":
        if not args.fault:
            raise CardError("penalty needs --fault KIND:OFFENDER[:COUNT][:late], one per fault, in order")
        if args.points is None:
            raise CardError("--points is missing (the attackers' points before penalties)")
        return {"faults": [_fault(f) for f in args.fault], "attackers_points": args.points}
    if q == "deal":
        if not args.hands or args.kitty is None:
            raise CardError("deal needs --hands with the four hands as dealt, by seat, and --kitty")
        return {"level": args.level or rules["level.start"], "hands": [_tokens(h) for h in args.hands],
                "kitty": _tokens(args.kitty)}
    raise CardError(f"unknown question {q}")  # pragma: no cover (argparse's choices)
