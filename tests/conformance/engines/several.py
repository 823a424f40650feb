"""Several narrow bugs at once: ``several.py tie_last joker_suit ...`` answers like the reference engine but
where one of the named wrapper engines would answer otherwise (the first of them that does, in the order
given). For the zoo of engines with several deviations (benchmarks/zoo.py, the cluster tests).

A name that is a JSON object (``'{"kitty.capturers": "attackers"}'``) is a deviation inside the rule language:
the engine answers under its ruleset with those settings changed (``altered.py``), and the narrow bugs apply
on top of that answer, as in an engine with both.

``spin=SECONDS`` among the names makes it compute that long (a busy loop, not a sleep) before every answer:
an engine slower than the reference, still bound by its processor.

``sigint_after=N`` makes it send SIGINT to the command that started it when it is asked its (N+1)th request:
a signal at a known point of the run (after N cases, while the failures are analysed), as a Ctrl-C there."""
import importlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import _faux  # noqa: E402


class _Captured(Exception):
    pass


def tamper_of(name: str, args: tuple = ()):
    """The ``tamper`` hook of the wrapper engine ``name``, which serves as soon as it is imported: it is
    imported afresh with ``args`` as its command line (``altered.py`` reads its changes there), and its
    ``serve`` call is caught instead of run. benchmarks/bench_verdicts.py takes the hooks from here too."""
    got = []

    def capture(tamper=None, on_handshake=None, on_start=None):
        got.append(tamper)
        raise _Captured

    real, _faux.serve, argv = _faux.serve, capture, sys.argv
    sys.argv = [f"{name}.py", *args]
    try:
        sys.modules.pop(name, None)
        module = importlib.import_module(name)
        got.append(module.tamper if hasattr(module, "tamper") else   # altered.py: settings as JSON
                   module.tamper_for(json.loads(args[0]) if args else {}))
    except _Captured:
        pass
    finally:
        _faux.serve, sys.argv = real, argv
    return got[0]


def main(names: list[str]) -> int:
    import json
    import signal
    import altered
    settings = {}
    for n in names:
        if n.startswith("{"):
            settings.update(json.loads(n))
    names = [n for n in names if not n.startswith("{")]
    inside = altered.tamper_for(settings) if settings else None
    spin = sum(float(n[len("spin="):]) for n in names if n.startswith("spin="))
    after = next((int(n[len("sigint_after="):]) for n in names if n.startswith("sigint_after=")), None)
    hooks = [tamper_of(n) for n in names if not n.startswith(("spin=", "sigint_after="))]
    asked = [0]

    def tamper(msg, ans):
        asked[0] += 1
        if after is not None and asked[0] == after + 1:
            os.kill(os.getppid(), signal.SIGINT)
        until = time.process_time() + spin
        while spin and time.process_time() < until:
            pass
        changed = inside(msg, ans) if inside is not None else None
        if changed is not None:
            ans = json.loads(changed)
        for hook in hooks:
            data = hook(msg, ans)
            if data is not None:
                return data
        return changed
    return _faux.serve(tamper)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
