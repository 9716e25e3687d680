"""The shared vocabulary: field paths, field errors and their apiserver renderings."""

from crdtool.model.errors import OMIT, ErrorType, FieldError, aggregate_message
from crdtool.model.path import Path

__all__ = ["OMIT", "ErrorType", "FieldError", "Path", "aggregate_message"]
