"""Shared fixtures of the conformance tests: engine commands and small case sets."""
import shlex
import sys
from pathlib import Path

import pytest
from tests import processes

ENGINES = Path(__file__).parent / "engines"
REPO = Path(__file__).resolve().parents[2]


def faux(name: str, *args) -> str:
    """The command of a broken test engine (tests/conformance/engines/<name>.py)."""
    return shlex.join([sys.executable, str(ENGINES / f"{name}.py"), *map(str, args)])


REFERENCE = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine"])


@pytest.fixture(scope="session")
def small_cases():
    """About fifty r001 cases, five per operation."""
    from conformance.generation.cases import generate
    return generate("r001", seed=7, counts=5, decisions=False)


def cli(*argv, **kw):
    """Run ``tractor ...`` as a subprocess (so signals and exit codes are real)."""
    return processes.run([sys.executable, "-m", "tractor_cli.main", *argv], capture_output=True, text=True,
                          cwd=kw.pop("cwd", REPO), timeout=kw.pop("timeout", processes.PATIENCE), **kw)
