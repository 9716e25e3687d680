"""The fuzz tests' budget: a few hundred examples in the regular run, deterministic.

CRDTOOL_FUZZ_SCALE=20 runs twenty times as many examples (a longer local run of the same tests);
`benchmarks/fuzz.py` is the long run proper.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

#: Seconds one command may take on a loaded machine before it counts as a hang.
TIMEOUT = 30.0
_SCALE = float(os.environ.get("CRDTOOL_FUZZ_SCALE", "1"))


def fuzz_settings(examples: int) -> settings:
    """Derandomized (the same examples every run), no example database, no shrinking (a hang would
    make shrinking take minutes: a failure reports the command, the mutations and the input instead)."""
    return settings(max_examples=max(1, round(examples * _SCALE)), derandomize=True, database=None, deadline=None,
                    phases=(Phase.explicit, Phase.generate), suppress_health_check=list(HealthCheck))
