"""crdtool's own findings: problems the apiserver does not check but that break users (an
upgrade that drops a served version, a field that became required), each with a rule code and a
severity, kept apart from the apiserver's field errors so that no one mistakes one for the other."""

from __future__ import annotations

from crdtool.model.path import Path
from crdtool.model.record import FrozenRecord

#: The severities a finding may have, most severe first (a configuration may change them per code).
SEVERITIES = ("error", "warning", "info")


class Finding(FrozenRecord):
    """One finding at a field of the document: `code` names the rule (e.g. `served-version-removed`)."""

    __slots__ = ("code", "severity", "path", "message")

    code: str
    severity: str
    path: Path
    message: str

    def __init__(self, code: str, severity: str, path: Path, message: str) -> None:
        self.code = code
        self.severity = severity
        self.path = path
        self.message = message
