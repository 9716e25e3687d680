"""The shared pipeline: what the apiserver does with each document, as Results for report/."""

from crdtool.engine.results import Result

__all__ = ["Result"]
