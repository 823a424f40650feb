"""Whole hands with players, the legal-play generator, and scaling over workers (a benchmark, not a test).

    .venv/bin/python benchmarks/bench_players.py [--quick] [--only hands,scaling,legal,margin]

* **hands** — whole hands with four heuristic players, per ruleset, in hands
  per second of CPU time of one process (one core), and wall-clock;
* **scaling** — the same hands in deterministic chunks through
  :func:`parallel.map_chunks` on 1 and on 2 worker processes (wall-clock);
* **legal** — in 39-card hands, the cost of :func:`reference_impl.legal.legal_plays`
  against judging one play: building the follows (the structure that holds
  every legal follow), enumerating every follow where there are at most 1000,
  and building the leads (every unit a hand can lead);
* **margin** — the heuristic team against the random team over many hands
  (seats swapped every other hand): how often the heuristic team holds or
  takes the bank, with its 95 % Wilson interval.

Timings on a machine other processes share are noisy: CPU-time figures are
the steadier ones.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from tractor_play.impact.stats import wilson  # noqa: E402
from conformance.running.parallel import cut, map_chunks  # noqa: E402
from tractor_play.players import HeuristicPlayer, RandomPlayer, make_players  # noqa: E402
from reference_impl.hand import play_hand, team_of  # noqa: E402
from reference_impl.rules import rules_for  # noqa: E402


def play_chunk(indices, name: str, kind: str = "heuristic") -> int:
    rules = rules_for(name)
    start = rules["level.start"]
    for i in indices:
        play_hand(rules, random.Random(i), 2, {0: start, 1: start}, banker=i % 4, players=make_players(kind, i))
    return len(indices)


def bench_hands(names, seconds: float) -> None:
    for name in names:
        play_chunk(range(3), name)
        n, cpu, wall = 0, time.process_time(), time.perf_counter()
        while time.process_time() - cpu < seconds:
            n += play_chunk(range(n, n + 5), name)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"hands  {name}: {n / cpu:7.1f} hands/s per core (CPU time), {n / wall:7.1f} wall-clock; {n} hands")


def bench_scaling(name: str, hands: int) -> None:
    chunks = cut(range(hands), 10)
    walls = {}
    for jobs in (1, 2):
        map_chunks(play_chunk, chunks[:2], jobs=jobs, extra=(name,))  # start the pool, warm the caches
        t = time.perf_counter()
        done = sum(map_chunks(play_chunk, chunks, jobs=jobs, extra=(name,)))
        walls[jobs] = time.perf_counter() - t
        print(f"scaling {name}: {jobs} worker(s): {done / walls[jobs]:7.1f} hands/s ({walls[jobs]:.2f} s)")
    print(f"scaling {name}: 2 workers / 1 worker = {walls[1] / walls[2]:.2f}x")


def bench_legal(name: str, n: int) -> None:
    from bench_interpreter import positions
    from reference_impl.following import judge_follow_combo
    from reference_impl.leading import judge_lead
    from reference_impl.legal import legal_plays

    rng = random.Random(17)
    # the play judged is a legal one: its judgment goes through the whole obligation
    pos = [(ctx, lead, hand, legal_plays(ctx, hand, lead).sample(rng)) for ctx, lead, hand, _ in
           positions(name, 39, n, seed=13)]

    def per_item(fn, items, repeat=3):
        best = float("inf")
        for _ in range(repeat):
            t = time.perf_counter()
            for it in items:
                fn(it)
            best = min(best, time.perf_counter() - t)
        return best / len(items)

    judge = per_item(lambda p: judge_follow_combo(p[0], p[1], p[2], p[3]), pos)
    build = per_item(lambda p: legal_plays(p[0], p[2], p[1]), pos)
    small = [p for p in pos if legal_plays(p[0], p[2], p[1]).count(limit=1001) <= 1000]
    enum = per_item(lambda p: sum(1 for _ in legal_plays(p[0], p[2], p[1])), small, 1)
    judge_small = per_item(lambda p: judge_follow_combo(p[0], p[1], p[2], p[3]), small)
    counts = [legal_plays(p[0], p[2], p[1]).count(limit=1001) for p in pos]
    print(f"legal  {name} (39-card hands, {len(pos)} positions): judging one legal follow {1e6 * judge:6.1f} µs; "
          f"legal_plays (every follow, as a structure) {1e6 * build:6.1f} µs = {build / judge:.2f}x")
    print(f"legal  {name}: enumerating every follow, where there are at most 1000 ({len(small)} of {len(pos)} "
          f"positions; median {statistics.median(counts)} plays): {1e6 * enum:7.1f} µs = "
          f"{enum / judge_small:.2f}x one judgment")
    leads = [(ctx, list(hand.elements())) for ctx, _, hand, _ in pos]
    lead_judge = per_item(lambda p: judge_lead(p[0], p[1][:1], []), leads)
    lead_build = per_item(lambda p: legal_plays(p[0], p[1]).units, leads)
    print(f"legal  {name}: judging one lead {1e6 * lead_judge:6.1f} µs; every unit a 39-card hand can lead "
          f"{1e6 * lead_build:6.1f} µs = {lead_build / lead_judge:.2f}x")


def bench_margin(name: str, hands: int) -> None:
    rules = rules_for(name)
    start = rules["level.start"]
    wins = 0
    edge = 0
    for i in range(hands):
        team = i % 2
        players = [HeuristicPlayer(f"{i}:{s}") if s % 2 == team else RandomPlayer(f"{i}:{s}") for s in range(4)]
        h = play_hand(rules, random.Random(i // 2), 2, {0: start, 1: start}, banker=(i // 2) % 4, players=players)
        holds = team_of(h.banker) if h.next_banker_side == "banker" else 1 - team_of(h.banker)
        wins += holds == team
        edge += h.levels_gained if holds == team else -h.levels_gained
    e = wilson(wins, hands)
    print(f"margin {name}: heuristic team holds or takes the bank in {100 * e.value:.1f} % of {hands} hands "
          f"[{100 * e.low:.1f} %, {100 * e.high:.1f} %]; net levels per hand {edge / hands:+.2f}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--only", default="hands,scaling,legal,margin")
    args = p.parse_args(argv)
    only = set(args.only.split(","))
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if "hands" in only:
        bench_hands(["r000", "r001", "r003"], 2 if args.quick else 8)
    if "scaling" in only:
        bench_scaling("r003", 100 if args.quick else 400)
    if "legal" in only:
        for name in ("r001", "r003"):
            bench_legal(name, 100 if args.quick else 400)
    if "margin" in only:
        for name in ("r000", "r003"):
            bench_margin(name, 200 if args.quick else 2000)
    return 0


if __name__ == "__main__":
    sys.exit(main())
