"""Interpreter throughput (a benchmark, not a test): judgments per second.

    .venv/bin/python benchmarks/bench_interpreter.py [--quick]

Positions are random deals of the ruleset's pack: a lead (any shape the
random leader picks, throws included) and a follower's whole hand; plays to
judge are half sampled-legal, half random (mostly illegal).
"""
from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from reference_impl.cards import full_pack
from reference_impl.combos import classify
from reference_impl.following import judge_follow_combo
from reference_impl.rules import rules_for
from reference_impl.sampling import random_follow, random_lead
from reference_impl.trick import judge_trick
from reference_impl.trump import context


def positions(name: str, hand_size: int, n: int, seed: int = 7, structured: bool = False):
    rules = rules_for(name)
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        level = rng.choice(rules["level.ranks"])
        ctx = context(rules, level, rng.choice(["S", "H", "D", "C"]))
        pack = full_pack(rules.decks)
        rng.shuffle(pack)
        leader, follower = pack[:hand_size], pack[hand_size:2 * hand_size]
        lead = classify(ctx, random_lead(ctx, leader, rng, throw_chance=0.2))
        if lead.n > len(follower) or (structured and lead.n < 2):
            continue
        play = random_follow(ctx, lead, follower, rng) if rng.random() < 0.5 else rng.sample(follower, lead.n)
        out.append((ctx, lead, Counter(follower), play))
    return out


def rate(fn, items, seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while True:
        for item in items:
            fn(item)
        done += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    secs = 0.5 if args.quick else 2.0
    for name, size in (("r000", 25), ("r001", 39), ("r003", 39)):
        pos = positions(name, size, 400)
        follow = rate(lambda p: judge_follow_combo(p[0], p[1], p[2], p[3]), pos, secs)
        cls = rate(lambda p: classify(p[0], p[3]), pos, secs)
        print(f"{name} ({size}-card hands): follow legality {follow:,.0f}/s, classify {cls:,.0f}/s")
    for name in ("r001", "r003"):
        pos = positions(name, 39, 400, 9, structured=True)
        follow = rate(lambda p: judge_follow_combo(p[0], p[1], p[2], p[3]), pos, secs)
        print(f"{name} (39-card hands, leads of 2+ cards only): follow legality {follow:,.0f}/s")
    for name in ("r001", "r003"):
        small, large = positions(name, 10, 400, 11), positions(name, 39, 400, 11)
        r10 = rate(lambda p: judge_follow_combo(p[0], p[1], p[2], p[3]), small, secs)
        r39 = rate(lambda p: judge_follow_combo(p[0], p[1], p[2], p[3]), large, secs)
        print(f"{name}: follow legality 10-card hands {r10:,.0f}/s, 39-card hands {r39:,.0f}/s, "
              f"cost ratio 39/10 = {r10 / r39:.2f}")
    for name in ("r000", "r001", "r003"):
        rules = rules_for(name)
        rng = random.Random(3)
        tricks = []
        for ctx, lead, follower, _ in positions(name, 25 if rules.decks == 2 else 39, 200, 5):
            pack = full_pack(rules.decks)
            rng.shuffle(pack)
            plays = [list(lead.cards)] + [random_follow(ctx, lead, pack[k * 25:(k + 1) * 25], rng) for k in range(3)]
            tricks.append((ctx, plays))
        tr = rate(lambda t: judge_trick(t[0], t[1]), tricks, secs)
        print(f"{name}: trick winner {tr:,.0f}/s")
    try:
        from reference_impl.hand import play_hand
        for name in ("r000", "r001", "r003"):
            rules = rules_for(name)
            rng = random.Random(1)
            start_level = rules["level.start"]
            n, start = 0, time.perf_counter()
            while time.perf_counter() - start < secs * 2:
                play_hand(rules, rng, n + 2, {0: start_level, 1: start_level}, banker=n % 4)
                n += 1
            print(f"{name}: whole random hands {n / (time.perf_counter() - start):,.1f}/s")
    except ImportError as e:  # pragma: no cover
        print(f"whole hands: not available ({e})")


if __name__ == "__main__":
    main()
