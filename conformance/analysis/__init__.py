"""Analysing results: attribution of failures to findings, fingerprints and the rule files they emit, mutation, and the comparison of variants."""
