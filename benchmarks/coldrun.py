"""One measured run of a crdtool command, shared by the scripts here: with an empty cache folder of
its own, so that it does the work itself, as a first run does, and the user's cache is neither read
nor filled. (A build without the cache ignores the folder: old builds can be measured alike.)"""

from __future__ import annotations

import os
import subprocess
import tempfile
from typing import Any


def run_cold(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess:
    """`subprocess.run(cmd, **kwargs)` with CRDTOOL_CACHE_DIR an empty folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="crdtool-bench-cache-") as cache:
        env = dict(kwargs.pop("env", None) or os.environ, CRDTOOL_CACHE_DIR=cache)
        return subprocess.run(cmd, env=env, **kwargs)
