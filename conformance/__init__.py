"""The conformance suite, one subpackage per role, importing one way: protocol → running → generation → analysis → reporting.

* :mod:`conformance.protocol` — messages, JSON lines, schemas and the reference engine behind them;
* :mod:`conformance.running` — an engine's process, supervision, interrupts, the runner, expectations, the executor;
* :mod:`conformance.generation` — positions, decision points, alternatives, seeded cases, the generated stage;
* :mod:`conformance.analysis` — attribution, findings, fingerprints, emitted rule files, mutation, variants;
* :mod:`conformance.reporting` — report files, the HTML report, badges, the matrix.

The test vectors (``conformance/vectors/``) are data; :mod:`conformance.pytest_plugin` is pytest's entry point.
"""
