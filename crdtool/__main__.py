"""`python -m crdtool`."""

from crdtool.cli import main

main()
