"""The fuzz tests run crdtool as `crdtool.cli.run_command` does: its recursion limit is set once, up front."""

import sys

from clirun import RECURSION_LIMIT

sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
