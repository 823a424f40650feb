"""Commands started by tests, and the processes they leave: every command in a session of its own, so that a
test that gives up on it (a timeout on a loaded machine) kills the whole group, never leaves it running."""
from __future__ import annotations

import os
import signal
import subprocess
import time

# How long a test waits for a command before giving up on it: a margin for a machine at 4x load, not a
# limit the test asserts on (no test passes or fails by how fast a command was).
PATIENCE = 900.0


def _stat(pid: int) -> tuple[str, int] | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read().decode(errors="replace")
    except OSError:
        return None
    rest = data[data.rfind(")") + 2:].split()
    return rest[0], int(rest[1])


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (a zombie is not)."""
    st = _stat(pid)
    return st is not None and st[0] not in ("Z", "X")


def descendants(root: int) -> set[int]:
    """Every live descendant of ``root`` (children, theirs, ...), from /proc."""
    parent = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(int(name))
            if st is not None and st[0] not in ("Z", "X"):
                parent[int(name)] = st[1]
    out, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, ppid in parent.items() if ppid in frontier} - out
        out |= frontier
    return out


def kill_group(proc: subprocess.Popen) -> None:
    """Kill a command started by :func:`start` with its process group, and reap it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:
        pass
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
        pass


def start(argv: list[str], **kwargs) -> subprocess.Popen:
    """``argv`` in a session of its own (its process group is the session)."""
    return subprocess.Popen(argv, start_new_session=True, **kwargs)


def run(argv: list[str], timeout: float = PATIENCE, input: str | None = None, **kwargs) -> subprocess.CompletedProcess:
    """``subprocess.run(argv, capture_output=True, text=True)`` whose timeout kills the command's whole process
    group before it raises."""
    kwargs.pop("capture_output", None)
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    kwargs.setdefault("text", True)
    kwargs.setdefault("stdin", subprocess.PIPE if input is not None else subprocess.DEVNULL)
    proc = start(argv, **kwargs)
    try:
        out, err = proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def wait_for(predicate, patience: float = PATIENCE, every: float = 0.05) -> bool:
    """Poll ``predicate`` until it holds (True) or the patience runs out (False)."""
    deadline = time.monotonic() + patience
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(every)
    return predicate()


def finish(proc: subprocess.Popen, timeout: float = PATIENCE, input=None):
    """``proc.communicate()``; on a timeout the command's whole process group is killed before it raises."""
    try:
        return proc.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        raise
