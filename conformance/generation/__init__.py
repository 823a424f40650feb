"""Generating cases: positions, decision points, the spec's alternatives and their equivalence, seeded cases, strategies and the generated stage."""
