"""The admission chain: mutating plugins in order, one reinvocation round when asked, validating
plugins until the first refusal (k8s.io/apiserver pkg/admission chain.go, reinvocation.go)."""

from __future__ import annotations

from crdtool.admission.chain import Attributes, Chain, Resource, Status, Verdict


class _Mutating:
    def __init__(self, name: str, calls: list[str], reinvoke: bool = False, refuse: bool = False) -> None:
        self.name, self.calls, self.reinvoke, self.refuse = name, calls, reinvoke, refuse

    def admit(self, attributes: Attributes) -> Verdict:
        self.calls.append(f"{self.name}{'*' if attributes.reinvocation.is_reinvoke else ''}")
        if self.reinvoke and not attributes.reinvocation.is_reinvoke:
            attributes.reinvocation.request()
        return Verdict(status=Status("no", "", 400) if self.refuse else None, warnings=[self.name])


class _Validating:
    def __init__(self, name: str, calls: list[str], refuse: bool = False) -> None:
        self.name, self.calls, self.refuse = name, calls, refuse

    def validate(self, attributes: Attributes) -> Verdict:
        self.calls.append(self.name)
        return Verdict(status=Status(self.name, "Forbidden", 403) if self.refuse else None)


def _attributes() -> Attributes:
    return Attributes(operation="CREATE", object={}, old_object=None, resource=Resource("g", "v1", "K", "ks"),
                      name="n", namespace="ns")


def test_a_second_round_when_a_plugin_asks_for_it() -> None:
    calls: list[str] = []
    chain = Chain(mutating=[_Mutating("a", calls), _Mutating("b", calls, reinvoke=True)])
    verdict = chain.admit(_attributes())
    assert calls == ["a", "b", "a*", "b*"]
    assert verdict.warnings == ["a", "b", "a", "b"] and verdict.status is None


def test_the_first_refusal_ends_each_phase() -> None:
    calls: list[str] = []
    chain = Chain(mutating=[_Mutating("a", calls, refuse=True, reinvoke=True), _Mutating("b", calls)],
                  validating=[_Validating("x", calls, refuse=True), _Validating("y", calls)])
    assert chain.admit(_attributes()).status == Status("no", "", 400)
    assert chain.validate(_attributes()).status == Status("x", "Forbidden", 403)
    assert calls == ["a", "x"]
