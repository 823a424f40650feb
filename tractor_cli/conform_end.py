"""How a conform run ends, with one engine or several: the processes the engines left, the analysis of the
failures (findings and the expectations that select by finding), and the exit status."""
from __future__ import annotations

import sys


def end_children(results) -> None:
    """Kill what the engines left behind outside their sessions, and say so in the (first) report."""
    from conformance.running import supervise
    left = supervise.end_children()
    if left and results:
        results[0].events.append({"kind": "strays_killed", "message": f"{left} process(es) the engines left "
                                  "behind, outside their sessions, were killed at the end of the run"})


def analyse(results, interrupts) -> None:
    """Group each finished run's failures into findings, charge each failure to its clause, and apply the
    expectations that select by finding. The analysis never costs the report: a failure of it is an event."""
    from conformance.analysis.attribution import attribute
    from conformance.running.expectations import apply_finding_expectations
    for r in results:
        if r.interrupted or interrupts.status is not None:
            continue
        try:
            attribute(r)
            apply_finding_expectations(r)
        except Exception as e:  # noqa: BLE001 — any bug of the analysis is reported, not raised
            r.events.append({"kind": "attribution_failed", "message": f"{e.__class__.__name__}: {e}"})


def exit_status(results, interrupts, problem: str | None) -> int:
    """2 when the reports could not be written (said on stderr), the signal's status when one stopped the
    run, 130 when it was interrupted, 1 when any engine failed or had no case judged (never a silent green:
    said on stderr), else 0."""
    if problem:
        print(f"tractor conform: {problem}", file=sys.stderr)
        return 2
    if interrupts.status is not None:
        return interrupts.status
    if any(r.interrupted for r in results):
        return 130
    for r in results:
        if getattr(r, "nothing_judged", False):
            why = next((e["message"] for e in r.events if e["kind"] == "nothing_judged"), "no case was judged")
            print(f"tractor conform: {' '.join(r.command)}: {why}", file=sys.stderr)
    return 1 if any(r.failed or getattr(r, "nothing_judged", False) for r in results) else 0
