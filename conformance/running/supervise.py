"""No engine process left behind: sessions, a tag, a subreaper, and a kill that finds them all.

An engine is started in a session of its own (so its process group is the
session), with an environment variable :data:`TAG_VARIABLE` whose value is
unique to that start and which every process it forks inherits. To end it,
:func:`kill_tree`:

1. kills its process group, before the leader is reaped (so its id cannot
   have been reused, even when the leader has already exited);
2. on Linux, kills every process of its session and every process that
   carries its tag (forked children that moved to another group or session
   with ``setsid``), and reaps those that are the runner's own children, again
   until none is left (a process forking while it is killed is caught on the
   next round).

Where the platform allows it (Linux), :func:`become_subreaper` makes the
runner the child subreaper of everything it starts
(``prctl(PR_SET_CHILD_SUBREAPER)``): an engine's orphaned descendants are
re-parented to the runner instead of init, so that they are reaped rather
than left as zombies of init. Elsewhere the process group is killed and the
rest is left to the platform.
"""
from __future__ import annotations

import os
import secrets
import signal
import sys
import time
from itertools import count

TAG_VARIABLE = "TRACTOR_CONFORM_ENGINE"
PR_SET_CHILD_SUBREAPER = 36

_serial = count(1)
_subreaper: bool | None = None


def new_tag() -> str:
    """A value of :data:`TAG_VARIABLE` no other engine start shares."""
    return f"{os.getpid()}-{next(_serial)}-{secrets.token_hex(4)}"


def become_subreaper() -> bool:
    """Make this process the subreaper of its descendants (Linux); whether it is one."""
    global _subreaper
    if _subreaper is None:
        _subreaper = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes
                libc = ctypes.CDLL(None, use_errno=True)
                _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
            except (OSError, AttributeError):
                _subreaper = False
    return _subreaper


def _proc_ids() -> list[int]:
    try:
        return [int(n) for n in os.listdir("/proc") if n.isdigit()]
    except OSError:
        return []


def _stat(pid: int) -> tuple[str, int, int, int] | None:
    """(state, parent id, session id, process group) of a process, from /proc (None when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            data = f.read()
    except OSError:
        return None
    fields = data[data.rfind(b")") + 2:].split()  # after "pid (comm) "
    try:
        return fields[0].decode(), int(fields[1]), int(fields[3]), int(fields[2])
    except (IndexError, ValueError):
        return None


def _tagged(pid: int, tag: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            return tag in f.read().split(b"\0")
    except OSError:
        return False


def members(session: int, tag: str) -> list[int]:
    """Live processes (not zombies) of ``session`` or carrying ``tag``, on Linux; [] elsewhere.
    (The engine's leader starts both its session and its process group: their ids are its pid.)"""
    if not os.path.isdir("/proc"):
        return []
    me = os.getpid()
    needle = f"{TAG_VARIABLE}={tag}".encode()
    found = []
    for pid in _proc_ids():
        if pid == me:
            continue
        st = _stat(pid)
        if st is None or st[0] in ("Z", "X"):
            continue
        if st[2] == session or _tagged(pid, needle):
            found.append(pid)
    return found


def _reap(pids) -> None:
    """Collect the exit status of those of ``pids`` that are (by now) this process's children."""
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except (ChildProcessError, OSError):
            pass


def _session_zombies(session: int, leader: int) -> list[int]:
    """This process's zombie children from ``session`` (re-parented to it, a subreaper), but the leader."""
    me = os.getpid()
    out = []
    for pid in _proc_ids():
        st = _stat(pid)
        if pid != leader and st is not None and st[0] == "Z" and st[1] == me and st[2] == session:
            out.append(pid)
    return out


def kill_tree(leader: int, tag: str, rounds: int = 50) -> int:
    """Kill the engine started as ``leader`` (a session leader) and everything it started, and reap
    what was re-parented here; the number of processes found outside its process group. The
    leader itself is left for its :class:`subprocess.Popen` to reap."""
    try:
        os.killpg(leader, signal.SIGKILL)
    except OSError:  # no such group any more, or not ours
        pass
    if not os.path.isdir("/proc"):
        return 0
    seen: set[int] = set()
    outside: set[int] = set()   # not in the engine's process group: escaped the first kill
    for _ in range(rounds):
        rest = [p for p in members(leader, tag) if p != leader]
        if not rest:
            break
        for pid in rest:
            st = _stat(pid)
            if st is not None and st[3] != leader:
                outside.add(pid)
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        seen.update(rest)
        time.sleep(0.01)
        _reap(seen)
    if _subreaper:
        for _ in range(20):  # SIGKILL is not instant: wait a little for the last ones to die
            _reap(seen | set(_session_zombies(leader, leader)))
            if not [p for p in seen if _stat(p) is not None]:
                break
            time.sleep(0.01)
    return len(outside)


def end_children(spare=frozenset()) -> int:
    """Kill and reap every child this process still has (but those in ``spare``, engines still in use); the
    number killed. For a process whose children are all engines (``tractor conform`` once its engines are
    stopped): as their subreaper it has become the parent of whatever they left behind, even a process that
    left their session and cleared its environment."""
    if not _subreaper or not os.path.isdir("/proc"):
        return 0
    me = os.getpid()
    live = []
    for pid in _proc_ids():
        st = _stat(pid)
        if st is not None and st[1] == me and st[0] not in ("Z", "X") and pid not in spare:
            live.append(pid)
    for pid in live:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        left = [pid for pid in _proc_ids() if (st := _stat(pid)) is not None and st[1] == me and pid not in spare]
        _reap(left)
        if not [pid for pid in left if _stat(pid) is not None]:
            break
        time.sleep(0.01)
    return len(live)


def kill_child_groups() -> int:
    """Kill every live child of this process with its process group (an engine leads a session of its own,
    so its group holds what it forked); the number of children. Needs no subreaper: for a worker or a
    command ending on a signal, whose engines are its direct children."""
    if not os.path.isdir("/proc"):
        return 0
    me = os.getpid()
    live = [pid for pid in _proc_ids() if (st := _stat(pid)) is not None and st[1] == me and st[0] not in ("Z", "X")]
    for pid in live:
        for kill in (os.killpg, os.kill):
            try:
                kill(pid, signal.SIGKILL)
            except OSError:
                pass
    _reap(live)
    return len(live)


def end_started(grace: float = 5.0) -> None:
    """On a signal: end every child of this process. A child in this process's group (a pool worker) gets
    SIGTERM and ``grace`` seconds to end its own engines; a child leading a group of its own (an engine) is
    killed with that group; what is left then is killed."""
    if not os.path.isdir("/proc"):
        return
    me, group = os.getpid(), os.getpgrp()
    live = [pid for pid in _proc_ids() if (st := _stat(pid)) is not None and st[1] == me and st[0] not in ("Z", "X")]
    for pid in live:
        try:
            if os.getpgid(pid) == group:
                os.kill(pid, signal.SIGTERM)
            else:
                os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        _reap(live)
        if not [pid for pid in live if (st := _stat(pid)) is not None and st[0] not in ("Z", "X")]:
            return
        time.sleep(0.02)
    kill_child_groups()


def stray(tag: str) -> list[int]:
    """Live processes still carrying ``tag`` (for tests and reports)."""
    if not os.path.isdir("/proc"):
        return []
    needle = f"{TAG_VARIABLE}={tag}".encode()
    out = []
    for pid in _proc_ids():
        st = _stat(pid)
        if st is not None and st[0] not in ("Z", "X") and _tagged(pid, needle):
            out.append(pid)
    return out
