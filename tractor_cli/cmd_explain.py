"""``tractor explain RULESET QUESTION ...``: one judgment, with the clauses that decided it."""
from __future__ import annotations

import argparse
import textwrap

from reference_impl.cards import CardError, check_copies, format_cards, glyph, parse_cards

HELP = "judge one position and show the clauses that decided it"

QUESTIONS = ("classify", "lead", "follow", "winner", "kitty", "result", "advance")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("ruleset", help="ruleset name, e.g. r003")
    p.add_argument("question", choices=QUESTIONS, help="what to judge")
    p.add_argument("cards", nargs="?", default="", help='classify, lead: the cards, quoted ("5H 5H 7H 7H")')
    p.add_argument("--plays", nargs=4, metavar="PLAY", help="winner: the four plays in seat order, leader first")
    p.add_argument("--level", default=None, help="the hand's level (default: the ruleset's start level)")
    p.add_argument("--trump", default="S", help="trump suit S/H/D/C or none (default S)")
    p.add_argument("--others", nargs="*", default=[], help="lead: the other three hands, in playing order")
    p.add_argument("--lead", help="follow: the lead")
    p.add_argument("--hand", help="follow: the follower's whole hand")
    p.add_argument("--play", help="follow: the proposed play; kitty: the play that won the last trick")
    p.add_argument("--side", choices=("banker", "attackers"), default="attackers",
                   help="kitty: the side that won the last trick")
    p.add_argument("--kitty", help="kitty: the buried cards")
    p.add_argument("--points", type=int, help="result: attackers' final points")
    p.add_argument("--gain", type=int, help="advance: levels gained")
    p.add_argument("--banker", action="store_true", help="advance: the team gained as banker")


def _cards(text: str | None, what: str) -> list[int]:
    if text is None:
        raise CardError(f"{what} is missing")
    return parse_cards(text)


def run(args) -> int:
    from reference_impl.rules import rules_for
    from reference_impl.trump import context
    try:
        rules = rules_for(args.ruleset)
        level = args.level or rules["level.start"]
        ctx = context(rules, level, None if args.trump in ("none", "NT") else args.trump)
        judgment, question = _judge(args, rules, ctx)
    except CardError as e:
        print(f"tractor explain: {e}")
        return 2
    print(f"{rules.name}, level {ctx.level}, trump {ctx.suit_name(ctx.trump) if ctx.trump is not None else 'none'}")
    print(question)
    print(f"answer: {_answer(judgment)}" + (f"  ({judgment.reason})" if judgment.reason != "ok" else ""))
    if judgment.detail:
        print(f"why: {judgment.detail}")
    print("decided by:")
    for cid in judgment.clauses:
        clause = rules.checked.clause(cid)
        print(f"  {cid} [{clause.status}] ({', '.join(clause.cites)})")
        for line in textwrap.wrap(clause.says or "", 90):
            print(f"      {line}")
    return 0


def _answer(j) -> str:
    v = j.value
    if isinstance(v, bool):
        return "legal" if v else "illegal"
    return str(v)


def _show(cards: list[int]) -> str:
    return " ".join(glyph(c) for c in cards)


def _judge(args, rules, ctx):
    q = args.question
    decks = rules.decks
    if q == "classify":
        from reference_impl.combos import classify
        cards = parse_cards(args.cards)
        check_copies(cards, decks, "the cards")
        combo = classify(ctx, cards)
        from reference_impl.leading import judge_lead
        j = judge_lead(ctx, cards, [])
        j.value = combo.shape()
        return j, f"what is {_show(cards)}?"
    if q == "lead":
        from reference_impl.leading import judge_lead
        cards = parse_cards(args.cards)
        others = [parse_cards(o) for o in args.others]
        check_copies(cards + [c for o in others for c in o], decks, "the hands")
        j = judge_lead(ctx, cards, others)
        if "failure" in j.extra:
            f = j.extra["failure"]
            j.detail += f"; blocked {format_cards(f.blocked)}, penalty {f.penalty}, must play {format_cards(f.forced)}"
        return j, f"may {_show(cards)} be led?"
    if q == "follow":
        from reference_impl.following import judge_follow
        lead, hand, play = _cards(args.lead, "--lead"), _cards(args.hand, "--hand"), _cards(args.play, "--play")
        check_copies(lead + hand, decks, "the lead and the hand")
        return judge_follow(ctx, lead, hand, play), f"may {_show(play)} follow {_show(lead)} from {_show(hand)}?"
    if q == "winner":
        from reference_impl.trick import judge_trick
        if not args.plays:
            raise CardError("winner needs --plays with four plays, the leader's first")
        plays = [parse_cards(p) for p in args.plays]
        check_copies([c for p in plays for c in p], decks, "the four plays")
        j = judge_trick(ctx, plays)
        j.detail = f"play {j.value} ({_show(plays[j.value])}) wins; {j.extra['points']} points in the trick"
        return j, "who wins " + " | ".join(_show(p) for p in plays) + "?"
    if q == "kitty":
        from reference_impl.kitty import judge_kitty
        play, kitty = _cards(args.play, "--play"), _cards(args.kitty, "--kitty")
        check_copies(play + kitty, decks, "the winning play and the kitty")
        return judge_kitty(ctx, play, args.side, kitty), f"{args.side} win the last trick with {_show(play)}; kitty {_show(kitty)}"
    if q == "result":
        from reference_impl.scoring import judge_result
        if args.points is None:
            raise CardError("--points is missing")
        return judge_result(rules, args.points), f"the attackers end with {args.points} points"
    if q == "advance":
        from reference_impl.levels import advance
        if args.gain is None:
            raise CardError("--gain is missing")
        return advance(rules, ctx.level, args.gain, args.banker), f"a team at {ctx.level} gains {args.gain}"
    raise CardError(f"unknown question {q}")
