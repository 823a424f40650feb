"""An engine that plays its ruleset with settings changed: ``altered.py '{"trump.fixed_ranks": []}'`` answers
every request as the reference would under the ruleset with those settings (checked values, as
:func:`conformance.generation.features.changed` takes them), where that answer differs. A deviation inside
the rule language, planted without a rule file (benchmarks/zoo.py, the naming tests). ``several.py`` takes
the same JSON among its names (:func:`tamper_for`), to mix such a deviation with narrow bugs beyond the
language."""
import json
import sys
from functools import lru_cache

from _faux import serve
from conformance.protocol import messages as protocol
from conformance.protocol.engine_io import HANDLERS


def _value(key, value):
    return tuple(tuple(v) if isinstance(v, list) else v for v in value) if isinstance(value, list) else value


def tamper_for(changes: dict):
    """The ``tamper`` hook of an engine answering under the ruleset with ``changes`` (JSON values)."""
    changes = {k: _value(k, v) for k, v in changes.items()}

    @lru_cache(maxsize=8)
    def rules(name):
        from reference_impl.rules import rules_for
        from conformance.generation.features import changed
        return changed(rules_for(name), changes)

    def tamper(msg, ans):
        op = msg.get("op")
        if "result" not in ans or op not in HANDLERS:
            return None
        try:
            result, clauses = HANDLERS[op](rules(msg.get("ruleset")), msg["input"])
        except Exception:  # noqa: BLE001 — an impossible position under the change: the reference's answer
            return None
        result["clauses"] = list(clauses)
        return protocol.encode({"seq": msg["seq"], "result": result})
    return tamper


if __name__ == "__main__":
    sys.exit(serve(tamper_for(json.loads(sys.argv[1]) if len(sys.argv) > 1 else {})))
