"""One execution path for heavy jobs: deterministic chunks through a ``concurrent.futures`` executor.

A job cuts its work into *chunks* whose content depends only on the job's
input (never on the number of workers), hands each chunk to a top-level
function, and reads the results back **in chunk order**. So a job's result for
a seed is the same on one core, on every core, or on a cluster.

The executor is any :class:`concurrent.futures.Executor`:

* by default a local process pool, one process per core (``jobs``);
* ``jobs=1``: no pool at all, the chunks run in this process;
* ``scheduler="tcp://HOST:PORT"``: a Dask distributed cluster, through
  :meth:`dask.distributed.Client.get_executor` (Dask's implementation of
  the same interface).

Wiring a job to it takes a few lines::

    from conformance.running.parallel import add_arguments, cut, map_chunks

    add_arguments(parser)                       # --jobs N, --scheduler ADDRESS
    chunks = cut(range(n_cases), size=200)      # deterministic: depends on n_cases only
    for result in map_chunks(run_chunk, chunks, jobs=args.jobs, scheduler=args.scheduler,
                             extra=(ruleset, seed)):
        ...                                     # results arrive in chunk order

where ``run_chunk(chunk, ruleset, seed)`` is a module-level function (it is
pickled to the workers) that must compute each item from the item and the
seed alone. This module imports nothing from the project but its neighbour
:mod:`conformance.running.supervise`, which a worker ending on a signal uses to
take its engine processes with it.

No worker outlives its command: a local worker asks the kernel to send it
SIGTERM when its parent dies (``PR_SET_PDEATHSIG``, Linux), ends its own
children (engines) with their process groups on SIGTERM, and a pool left by
an exception or a signal is terminated rather than waited for.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

if TYPE_CHECKING:  # concurrent.futures is imported when a job runs, not when a command line is parsed
    from concurrent.futures import Executor

__all__ = ["cut", "executor", "map_chunks", "add_arguments", "default_jobs", "describe"]


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def cut(items: Sequence | range, size: int) -> list:
    """``items`` in consecutive chunks of ``size`` (the last may be shorter); slices of the original type."""
    if size < 1:
        raise ValueError(f"chunk size must be at least 1, not {size}")
    return [items[i:i + size] for i in range(0, len(items), size)]


def _inline() -> "Executor":
    """An executor that runs each chunk here, at once: ``jobs=1``, and the reference for every other one."""
    from concurrent.futures import Executor, Future

    class Inline(Executor):
        def submit(self, fn, /, *args, **kwargs):
            f: Future = Future()
            try:
                f.set_result(fn(*args, **kwargs))
            except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
                f.set_exception(e)
            return f
    return Inline()


@contextmanager
def executor(jobs: int | None = None, scheduler: str | None = None, connect_timeout: float = 20) -> Iterator[Executor]:
    """The executor for ``jobs`` local processes (default: every core) or a Dask ``scheduler`` address
    (given up after ``connect_timeout`` seconds)."""
    if scheduler:
        try:
            from dask.distributed import Client
        except ImportError as e:
            raise RuntimeError(CLUSTER_EXTRA) from e
        try:
            client = Client(scheduler, timeout=f"{connect_timeout}s")
        except OSError as e:
            raise RuntimeError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
        try:
            yield client.get_executor(pure=False)
        finally:
            client.close()
        return
    jobs = default_jobs() if jobs is None or jobs <= 0 else jobs
    if jobs == 1:
        yield _inline()
        return
    from concurrent.futures import ProcessPoolExecutor
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start, initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:   # an error or a signal: the workers are ended, not waited for
        _terminate(pool)
        raise
    else:
        pool.shutdown(cancel_futures=True)


PR_SET_PDEATHSIG = 1


def _worker_start(parent: int) -> None:
    """In each local worker, first: die with the parent, and take the worker's engines along on SIGTERM."""
    import signal
    import sys
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent:   # the parent died before the worker could ask
        os._exit(1)
    signal.signal(signal.SIGTERM, _worker_end)
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the command handles ^C and ends the pool itself


def _worker_end(signum, frame) -> None:
    from conformance.running.supervise import kill_child_groups
    kill_child_groups()
    os._exit(128 + signum)


def _terminate(pool) -> None:
    """End a local pool's workers now (SIGTERM: each takes its engines along), then reap them."""
    procs = list(getattr(pool, "_processes", {}).values())   # the executor keeps no public list of them
    for proc in procs:
        try:
            proc.terminate()
        except (OSError, ValueError):
            pass
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        try:
            proc.join(5)
            if proc.is_alive():
                proc.kill()
        except (OSError, ValueError, AssertionError):
            pass


def map_chunks(fn: Callable, chunks: Iterable, *, jobs: int | None = None, scheduler: str | None = None,
               extra: tuple = (), pool: Executor | None = None,
               progress: Callable[[int, int], Any] | None = None) -> list:
    """``[fn(chunk, *extra) for chunk in chunks]``, computed on the executor, in chunk order.

    ``pool`` reuses an executor the caller opened (:func:`executor`);
    ``progress(done, total)`` is called as chunks finish (in any order).
    """
    chunks = list(chunks)
    if pool is None:
        with executor(jobs, scheduler) as ex:
            return map_chunks(fn, chunks, extra=extra, pool=ex, progress=progress)
    from concurrent.futures import as_completed
    futures = [pool.submit(fn, chunk, *extra) for chunk in chunks]
    if progress is not None:
        done = 0
        for _ in as_completed(futures):
            done += 1
            progress(done, len(futures))
    return [f.result() for f in futures]


WORDS = {"run.inline": "1 process (inline)", "run.local": "{n} local processes", "run.dask": "Dask cluster at {at}"}


def describe(jobs: int | None = None, scheduler: str | None = None, words: dict[str, str] = WORDS) -> str:
    """Where work runs (``words``: these texts in another language, labels.TEXTS)."""
    if scheduler:
        return words["run.dask"].format(at=scheduler)
    jobs = default_jobs() if jobs is None or jobs <= 0 else jobs
    return words["run.inline"] if jobs == 1 else words["run.local"].format(n=jobs)


JOBS_PER_CORE = 4   # more local workers than this per core only queue: --jobs is capped there


def max_jobs() -> int:
    """The most local worker processes that can help: :data:`JOBS_PER_CORE` per core."""
    return default_jobs() * JOBS_PER_CORE


def jobs_value(text: str) -> int:
    """``--jobs``'s value: a whole number from 1 to :func:`max_jobs` (argparse type)."""
    import argparse
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= n <= max_jobs():
        raise argparse.ArgumentTypeError(f"must be from 1 to {max_jobs()} ({JOBS_PER_CORE} per core), not {n}")
    return n


CLUSTER_EXTRA = "--scheduler needs Dask's distributed scheduler: pip install 'tractor-rulebook[cluster]'"


def missing_cluster(scheduler: str | None) -> str | None:
    """Why ``--scheduler`` cannot be used (None when it can): the cluster extra is not installed."""
    from importlib.util import find_spec
    return CLUSTER_EXTRA if scheduler and find_spec("distributed") is None else None


SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")   # Dask's networked comms; inproc:// lives in one process only


def scheduler_problem(address: str) -> str | None:
    """Why ``address`` is no Dask scheduler address (None when it is one): ``[SCHEME://]HOST:PORT`` with a
    port from 1 to 65535 (Dask takes ``foo`` for ``tcp://foo`` and only fails when it connects)."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in SCHEMES:
        return f"{address!r}: unknown scheme {scheme}:// (expected {', '.join(s + '://' for s in SCHEMES)})"
    host, colon, port = rest.rpartition(":")
    if not colon or not port:
        return f"{address!r} names no port: give HOST:PORT, e.g. tcp://10.0.0.5:8786"
    if not host.strip("[]"):
        return f"{address!r} names no host: give HOST:PORT, e.g. tcp://10.0.0.5:8786"
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        return f"{address!r}: the port must be a number from 1 to 65535, not {port!r}"
    return None


def scheduler_value(text: str) -> str:
    """``--scheduler``'s value, checked before the command starts (argparse type; :func:`scheduler_problem`)."""
    import argparse
    problem = scheduler_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text


def add_arguments(parser) -> None:
    """``--jobs N`` and ``--scheduler ADDRESS`` on an argparse parser."""
    parser.add_argument("--jobs", "-j", type=jobs_value, default=None, metavar="N",
                        help=f"worker processes on this machine, 1 to {max_jobs()} (default: every core, "
                             f"{default_jobs()} here; 1 runs in this process)")
    parser.add_argument("--scheduler", type=scheduler_value, default=None, metavar="ADDRESS",
                        help="run the same chunks on a Dask distributed cluster, e.g. tcp://10.0.0.5:8786")
