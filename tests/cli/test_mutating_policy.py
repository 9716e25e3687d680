"""`crdtool validate` with a MutatingAdmissionPolicy: its JSONPatch or ApplyConfiguration mutation
applied to the custom resource before schema validation and the validating policies, which see the
mutated object."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
MAP = FIXTURES / "mutating-policy" / "map.yaml"
CRD = str(FIXTURES / "crontab" / "crd.yaml")
CRONTAB = str(FIXTURES / "crontab" / "my-crontab.yaml")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_the_label_a_mutating_policy_adds_is_stored_and_satisfies_the_validating_policy() -> None:
    res = run("validate", "--format", "json", "-c", CRD, "--admission", str(MAP), CRONTAB)
    assert res.exit_code == 0, res.output
    [result] = json.loads(res.output)["results"]
    assert result["object"]["metadata"]["labels"] == {"example.com/team": "batch"}


def test_without_the_mutating_policy_the_validating_policy_refuses(tmp_path: Path) -> None:
    only_validating = tmp_path / "vap.yaml"
    only_validating.write_text(MAP.read_text(encoding="utf-8").split("---\n", 3)[3], encoding="utf-8")
    res = run("validate", "--no-color", "-c", CRD, "--admission", str(only_validating), CRONTAB)
    assert res.exit_code == 1, res.output
    assert ("ValidatingAdmissionPolicy 'team-required' with binding 'team-required' denied request: "
            "a CronTab needs the example.com/team label") in res.output


def test_a_failing_mutation_refuses_with_the_dispatchers_text(tmp_path: Path) -> None:
    broken = tmp_path / "map.yaml"
    broken.write_text(MAP.read_text(encoding="utf-8").replace('path: "/metadata/labels/"', 'path: "/nowhere/"'),
                      encoding="utf-8")
    res = run("validate", "--no-color", "-c", CRD, "--admission", str(broken), CRONTAB)
    assert res.exit_code == 1, res.output
    assert ("policy 'team-label' with binding 'team-label-default' denied request: JSON Patch: add operation does "
            'not apply: doc is missing path: "/nowhere/example.com~1team": missing value') in res.output
    ignored = tmp_path / "ignore.yaml"
    ignored.write_text(broken.read_text(encoding="utf-8").replace("failurePolicy: Fail", "failurePolicy: Ignore"),
                       encoding="utf-8")
    res = run("validate", "--no-color", "-c", CRD, "--admission", str(ignored), CRONTAB)
    assert res.exit_code == 1, res.output  # the mutation is dropped: the validating policy refuses
    assert "team-required" in res.output and "team-label" not in res.output


TAGGED_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: tagged.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: tagged, singular: tagged, kind: Tagged}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
              args: {type: array, items: {type: string}}
"""
TAGGED = """\
apiVersion: example.com/v1
kind: Tagged
metadata: {name: t, namespace: default}
spec: {tags: [b, a]}
"""
APPLY = """\
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicy
metadata: {name: team-apply}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [tagged]}
  failurePolicy: Fail
  reinvocationPolicy: Never
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration:
      expression: >
        Object{metadata: Object.metadata{labels: {"example.com/team": "batch"}},
               spec: Object.spec{tags: ["c", "a"]}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: MutatingAdmissionPolicyBinding
metadata: {name: team-apply}
spec: {policyName: team-apply}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: team-required}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [tagged]}
  validations:
  - expression: "'example.com/team' in object.metadata.labels && object.spec.tags == ['b', 'c', 'a']"
    message: needs the team label and the merged tags
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: team-required}
spec: {policyName: team-required, validationActions: [Deny]}
"""


def _tagged(tmp_path: Path, policies: str) -> tuple[str, str, str]:
    paths = []
    for name, text in (("crd.yaml", TAGGED_CRD), ("map.yaml", policies), ("obj.yaml", TAGGED)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        paths.append(str(tmp_path / name))
    return paths[0], paths[1], paths[2]


def test_an_apply_configuration_sets_a_label_and_merges_a_set_seen_by_the_validating_policy(tmp_path: Path) -> None:
    crd, policies, obj = _tagged(tmp_path, APPLY)
    res = run("validate", "--format", "json", "-c", crd, "--admission", policies, obj)
    assert res.exit_code == 0, res.output
    [result] = json.loads(res.output)["results"]
    assert result["object"]["metadata"]["labels"] == {"example.com/team": "batch"}
    assert result["object"]["spec"]["tags"] == ["b", "c", "a"]  # smd's merge: b kept before the shared a
    without = APPLY.split("---\n", 2)[2]
    (tmp_path / "vap.yaml").write_text(without, encoding="utf-8")
    res = run("validate", "--no-color", "-c", crd, "--admission", str(tmp_path / "vap.yaml"), obj)
    assert res.exit_code == 1 and "needs the team label and the merged tags" in res.output


def test_an_apply_configuration_setting_an_atomic_list_is_refused(tmp_path: Path) -> None:
    crd, policies, obj = _tagged(tmp_path, APPLY.replace('spec: Object.spec{tags: ["c", "a"]}',
                                                         'spec: Object.spec{args: ["x"]}'))
    res = run("validate", "--no-color", "-c", crd, "--admission", policies, obj)
    assert res.exit_code == 1, res.output
    assert ("policy 'team-apply' with binding 'team-apply' denied request: error applying patch: invalid "
            "ApplyConfiguration: may not mutate atomic arrays, maps or structs: .spec.args") in res.output


def test_kubectl_prints_a_policy_denial_from_its_status_details(tmp_path: Path) -> None:
    """A ValidatingAdmissionPolicy's denial is Invalid (its default reason) with admission.NewForbidden's
    details: kubectl names the resource, not the kind, and prints the one cause, which has no field."""
    only_validating = tmp_path / "vap.yaml"
    only_validating.write_text("---\n".join(d for d in MAP.read_text().split("---\n")
                                            if "kind: MutatingAdmissionPolicy" not in d))
    res = run("validate", "--format", "kubectl", "-c", CRD, "--admission", str(only_validating), CRONTAB)
    assert res.exit_code == 1
    assert res.output == ('The crontabs "my-new-cron-object" is invalid: : ValidatingAdmissionPolicy '
                          "'team-required' with binding 'team-required' denied request: "
                          "a CronTab needs the example.com/team label\n")


def test_a_bad_mutating_policy_document_is_refused_with_the_apiservers_message(tmp_path: Path) -> None:
    bad = tmp_path / "map.yaml"
    bad.write_text(APPLY.split("---\n")[0].replace("operations: [CREATE]", "operations: [DELETE]")
                   .replace("  reinvocationPolicy: Never\n", ""), encoding="utf-8")
    res = run("validate", "--format", "kubectl", str(bad))
    assert res.exit_code == 1, res.output
    assert res.output == (
        'The MutatingAdmissionPolicy "team-apply" is invalid: \n'
        '* spec.matchConstraints.resourceRules.operations: Unsupported value: "DELETE": supported values: "*", '
        '"CONNECT", "CREATE", "UPDATE"\n'
        "* spec.reinvocationPolicy: Required value\n")
    res = run("validate", "--format", "json", str(tmp_path / "map.yaml"))
    assert json.loads(res.output)["results"][0]["checks"] == "validation"
