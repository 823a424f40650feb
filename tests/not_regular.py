"""Paths that are not regular files, for the tests of every writer (tractor_dsl/files.py and the commands that
write through it): each must be refused, never written through nor replaced."""
from __future__ import annotations

import os
from pathlib import Path


def not_regular_files(folder: Path, suffix: str = "") -> tuple[Path, list[tuple[Path, str]]]:
    """Make in ``folder`` every kind of path that is not a regular file, each named with ``suffix`` (``.html``
    where a command expects one): a link to a file outside, a named pipe, a link to a device, a link to
    ``/proc/self/fd/1`` (the writer's own stdout), a folder, and ``/dev/null`` itself. Returns the file the
    first link points to (its text is ``"not yours\\n"``: a test checks it is unchanged) and the paths, each
    with the words its refusal uses."""
    outside = folder / "outside.txt"
    outside.write_text("not yours\n")
    link = folder / f"link{suffix}"
    link.symlink_to(outside)
    pipe = folder / f"pipe{suffix}"
    os.mkfifo(pipe)
    device = folder / f"null{suffix}"
    device.symlink_to("/dev/null")
    stdout = folder / f"stdout{suffix}"
    stdout.symlink_to("/proc/self/fd/1")
    inner = folder / f"folder{suffix}"
    inner.mkdir()
    return outside, [(link, "symbolic link"), (pipe, "named pipe"), (device, "symbolic link"),
                     (stdout, "symbolic link"), (inner, "folder"), (Path("/dev/null"), "character device")]
