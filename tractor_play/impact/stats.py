"""95 % confidence intervals: Wilson score for proportions, the normal approximation for means."""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054

PROPORTION_INTERVAL = "Wilson score interval, 95 %"
MEAN_INTERVAL = "normal approximation (mean ± 1.96 s/√n), 95 %"


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None
    n: int
    kind: str                    # "proportion" or "mean"
    count: int | None = None     # successes, for a proportion

    def to_dict(self) -> dict:
        out = {"value": self.value, "low": self.low, "high": self.high, "n": self.n, "kind": self.kind}
        if self.count is not None:
            out["count"] = self.count
        return out

    @classmethod
    def from_dict(cls, d: dict) -> "Estimate":
        return cls(d["value"], d["low"], d["high"], d["n"], d["kind"], d.get("count"))


def wilson(successes: int, n: int) -> Estimate:
    """The share ``successes / n`` with its Wilson score interval (sound near 0 and 1, and for small n)."""
    if n == 0:
        return Estimate(None, None, None, 0, "proportion", 0)
    p = successes / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half), n, "proportion", successes)


class Moments:
    """Count, sum and sum of squares: mergeable across chunks, in chunk order."""

    __slots__ = ("n", "total", "squares")

    def __init__(self, n: int = 0, total: float = 0.0, squares: float = 0.0):
        self.n, self.total, self.squares = n, total, squares

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        self.squares += x * x

    def merge(self, other: "Moments") -> None:
        self.n += other.n
        self.total += other.total
        self.squares += other.squares

    def estimate(self) -> Estimate:
        if self.n == 0:
            return Estimate(None, None, None, 0, "mean")
        mean = self.total / self.n
        if self.n == 1:
            return Estimate(mean, None, None, 1, "mean")
        var = max(0.0, (self.squares - self.n * mean * mean) / (self.n - 1))
        half = Z95 * math.sqrt(var / self.n)
        return Estimate(mean, mean - half, mean + half, self.n, "mean")

    def __getstate__(self):
        return (self.n, self.total, self.squares)

    def __setstate__(self, state):
        self.n, self.total, self.squares = state
