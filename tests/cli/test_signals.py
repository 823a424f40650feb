"""No process outlives its command: SIGTERM to a parallel command ends its pool workers and the engine
processes it started (issue 20: `tractor fingerprint` left both running, reparented to PID 1)."""
from __future__ import annotations

import shlex
import signal
import sys
from pathlib import Path

import pytest

from tests import processes

LINUX = sys.platform.startswith("linux")
ENGINE = shlex.join([sys.executable, "-m", "tractor_cli.main", "engine"])


@pytest.mark.skipif(not LINUX, reason="finds a command's descendants through /proc, which only Linux has")
@pytest.mark.parametrize("argv", [
    ["fingerprint", "--engine", ENGINE, "--ruleset", "r001", "--jobs", "2"],
    ["play", "r003", "--games", "40", "--players", "heuristic", "--brief", "--jobs", "2"],
], ids=["fingerprint", "play"])
def test_sigterm_ends_every_process_the_command_started(tmp_path: Path, argv):
    proc = processes.start([sys.executable, "-m", "tractor_cli.main", *argv], cwd=tmp_path,
                           stdout=processes.subprocess.DEVNULL, stderr=processes.subprocess.PIPE, text=True)
    try:
        seen: set[int] = set()

        def busy() -> bool:   # its pool (two workers) is up, and for fingerprint the engine too
            seen.update(processes.descendants(proc.pid))
            return len(seen) >= 2 or proc.poll() is not None
        assert processes.wait_for(busy), "the command never started its workers"
        assert proc.poll() is None, "the command ended before it could be signalled"
        proc.send_signal(signal.SIGTERM)
        _, err = processes.finish(proc)
        assert proc.returncode == 128 + signal.SIGTERM, err[-2000:]
        assert "Traceback" not in err
        assert processes.wait_for(lambda: not [p for p in seen if processes.alive(p)], patience=60), \
            f"left running: {[p for p in seen if processes.alive(p)]}"
    finally:
        processes.kill_group(proc)
