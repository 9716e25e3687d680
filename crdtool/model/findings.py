"""crdtool's own findings: problems the apiserver does not check but that break users (an
upgrade that drops a served version, a field that became required), each with a rule code and a
severity, kept apart from the apiserver's field errors so that no one mistakes one for the other."""

from __future__ import annotations

from dataclasses import dataclass

from crdtool.model.path import Path

#: The severities a finding may have, most severe first (a configuration may change them per code).
SEVERITIES = ("error", "warning", "info")


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding at a field of the document: `code` names the rule (e.g. `served-version-removed`)."""

    code: str
    severity: str
    path: Path
    message: str
