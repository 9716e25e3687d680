"""Reading inputs: files, folders and stdin into documents that remember where each node was."""

from crdtool.errors import InputError
from crdtool.load.document import Document
from crdtool.load.sources import load_inputs, read_source

__all__ = ["Document", "InputError", "load_inputs", "read_source"]
