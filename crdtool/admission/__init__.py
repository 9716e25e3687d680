"""Admission: what kube-apiserver 1.36 runs between decoding an object and storing it.

`chain` is the seam: the request's attributes (`chain.Attributes`), a stage's answer
(`chain.Verdict`), the two kinds of stage (`chain.MutatingStage`, `chain.ValidatingStage`) and the
chain that runs them in the apiserver's plugin order (`chain.Chain`). Each admission plugin crdtool
reproduces is a module here that builds its stages from the inputs (`chain.PLUGINS`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

#: The group of the objects that configure admission: webhook configurations, policies and bindings.
CONFIGURATION_GROUP = "admissionregistration.k8s.io"


def configures_admission(documents: Iterable[Any]) -> bool:
    """Whether a document (crdtool.load.document.Document) is of the group that configures
    admission. Without one, no plugin crdtool reproduces has anything to do: a run asks this first,
    and imports nothing of admission when the answer is no."""
    prefix = CONFIGURATION_GROUP + "/"
    return any(isinstance(d.api_version, str) and d.api_version.startswith(prefix) for d in documents)
