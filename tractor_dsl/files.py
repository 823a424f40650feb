"""Writing files: the one way every tool of the project writes a file.

A file is written whole or not at all, as ``install`` and ``rsync`` do: the
data goes to a temporary file beside the target (same folder, so the rename
stays on one file system; created with ``O_EXCL`` under a unique name, never
through a link), is flushed to disk, and is renamed over the target. If
anything fails on the way — a full disk, ``ulimit -f`` (Python ignores
SIGXFSZ, so the write fails with EFBIG), a signal — the temporary file is
removed and the target is left as it was.

The target must be a regular file or not exist. A symbolic link (whatever it
points to), a folder, a named pipe, a device or a socket is refused with
:class:`WriteError` naming the path and what it is: the tool never writes
through a link it did not create, nor replaces what is not a regular file.
An existing target keeps its permission bits; a new one gets those a plain
``open`` gives (0666 less the umask), or 0600 when ``private``.

:class:`WriteError` is an :class:`OSError` whose ``strerror`` is a sentence
for the user; ``tractor`` reports it as one line and exit 2.

This module lives in the lowest layer (the rule language's package) because
every layer writes files — the checked-library cache of ``reference_impl``
as well as the reports of ``conformance`` and the command line — and the
layers import only downwards.
"""
from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from pathlib import Path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
TEMP_SUFFIX = ".tmp"


class WriteError(OSError):
    """A file that could not be written, or may not be: ``strerror`` says why, ``filename`` names it."""

    def __init__(self, path, why: str, code: int = errno.EPERM):
        super().__init__(code, why, str(path))

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


def kind(st: os.stat_result) -> str:
    """What a file is, in words (for a refusal)."""
    mode = st.st_mode
    for test, words in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISREG, "a regular file")):
        if test(mode):
            return words
    return "not a regular file"


def target_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` may not be written (None when it may): it exists and is not a regular file. A symbolic
    link is refused whatever it points to (the tool does not write through links); so are folders, named
    pipes, devices and sockets, which a rename would replace."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        return e.strerror or str(e)
    if stat.S_ISLNK(st.st_mode):
        try:
            to = os.readlink(path)
        except OSError:
            to = "?"
        return f"it is a symbolic link (to {to}); the tool does not write through links"
    if not stat.S_ISREG(st.st_mode):
        return f"it is {kind(st)}, not a regular file"
    return None


def _umask() -> int:
    """The process's umask (read without changing it where /proc tells it)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _remove(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _why(e: OSError) -> str:
    if e.errno == errno.EFBIG:
        return "the file is larger than this process may write (ulimit -f)"
    if e.errno == errno.ENOSPC:
        return "no space left on the device"
    return e.strerror or str(e)


def _utf8(text: str) -> bytes:
    """Text as UTF-8; a lone surrogate (from an engine's undecodable bytes) as U+FFFD, so every file is valid."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return re.sub("[\ud800-\udfff]", "\ufffd", text).encode("utf-8")


class Staged:
    """The data of one target written to its temporary file, not yet renamed onto the target: :meth:`commit`
    renames it, :meth:`discard` removes it. Used alone by :func:`write_file`, and as a set where several files
    must appear together (a run's reports).

    With ``sync=False`` the temporary is written but not yet flushed to disk and stays open: :meth:`sync`
    flushes it (:meth:`commit` does, first, if it was not): a set of files is written whole, then flushed one
    after the other, then renamed (:func:`write_files`), so that the disk's flushes follow one another instead
    of each waiting for the next file's write. No target is ever renamed onto before its data is on disk."""

    def __init__(self, path: str | os.PathLike, data: str | bytes, private: bool = False, make_parents: bool = True,
                 sync: bool = True):
        self.path = Path(path)
        self._fd: int | None = None
        problem = target_problem(self.path)
        if problem:
            raise WriteError(self.path, problem)
        raw = _utf8(data) if isinstance(data, str) else bytes(data)
        folder = self.path.parent
        try:
            if make_parents:
                folder.mkdir(mode=0o700 if private else 0o777, parents=True, exist_ok=True)
            if private:
                mode = 0o600
            else:
                try:
                    mode = stat.S_IMODE(os.stat(self.path).st_mode)   # an existing file keeps its mode
                except FileNotFoundError:
                    mode = 0o666 & ~_umask()
            while True:
                self.temp = folder / f".{self.path.name[:200]}.{secrets.token_hex(6)}{TEMP_SUFFIX}"
                try:
                    fd = os.open(self.temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
                    break
                except FileExistsError:
                    continue
        except OSError as e:
            raise WriteError(self.path, _why(e), e.errno or errno.EIO) from e
        self._fd = fd
        try:
            os.fchmod(fd, mode)
            view = memoryview(raw)
            while view:
                view = view[os.write(fd, view):]
        except BaseException as e:
            self.discard()
            if isinstance(e, OSError):
                raise WriteError(self.path, _why(e), e.errno or errno.EIO) from e
            raise
        if sync:
            self.sync()

    def sync(self) -> None:
        """Flush the temporary file to disk and close it (once); on a failure it is removed."""
        if self._fd is None:
            return
        try:
            os.fsync(self._fd)
        except BaseException as e:
            self.discard()
            if isinstance(e, OSError):
                raise WriteError(self.path, _why(e), e.errno or errno.EIO) from e
            raise
        os.close(self._fd)
        self._fd = None

    def commit(self) -> Path:
        """Rename the temporary file onto the target (checked again: a link planted meanwhile is refused), its
        data flushed to disk first."""
        self.sync()
        try:
            problem = target_problem(self.path)
            if problem:
                raise WriteError(self.path, problem)
            os.replace(self.temp, self.path)
        except BaseException as e:
            _remove(self.temp)
            if isinstance(e, OSError) and not isinstance(e, WriteError):
                raise WriteError(self.path, _why(e), e.errno or errno.EIO) from e
            raise
        return self.path

    def discard(self) -> None:
        if self._fd is not None:
            try:
                os.close(self._fd)
            except OSError:
                pass
            self._fd = None
        _remove(self.temp)


def write_file(path: str | os.PathLike, data: str | bytes, private: bool = False) -> Path:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` whole or not at all; the path written. Raises
    :class:`WriteError` (an OSError) when it may not or could not be written, with the target untouched."""
    return Staged(path, data, private=private).commit()


def write_files(files: dict) -> list[Path]:
    """Write several files as one set: every one to its temporary first, then every temporary flushed to disk,
    then each renamed onto its place, only when all were written and flushed. If a write or a flush fails (a
    full disk), no temporary is left and no target was touched; a rename that fails part way (the folder
    changed under the run) leaves the targets renamed before it replaced."""
    staged: list[Staged] = []
    try:
        for path, data in files.items():
            staged.append(Staged(path, data, sync=False))
        for s in staged:
            s.sync()
        return [s.commit() for s in staged]
    except BaseException:
        for s in staged:
            s.discard()
        raise
