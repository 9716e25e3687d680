"""Silencing the C++ logging of the CEL and protobuf runtimes, where it warns about nothing that matters."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

__all__ = ["quiet_stderr"]


@contextlib.contextmanager
def quiet_stderr(active: bool = True) -> Iterator[None]:
    """Send what is written to file descriptor 2 to /dev/null for the duration (if `active`)."""
    if not active:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
