"""`crdtool validate` with a MutatingAdmissionPolicy: its JSONPatch mutation applied to the custom
resource before schema validation and the validating policies, which see the mutated object."""

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


def test_an_apply_configuration_is_said_not_applied(tmp_path: Path) -> None:
    apply = tmp_path / "apply.yaml"
    text = MAP.read_text(encoding="utf-8")
    start, end = text.index("  - patchType: JSONPatch"), text.index("---", text.index("  - patchType: JSONPatch"))
    apply.write_text(text[:start] + "  - patchType: ApplyConfiguration\n    applyConfiguration:\n"
                     "      expression: 'Object{metadata: Object.metadata{labels: {\"example.com/team\": \"x\"}}}'\n"
                     + text[end:], encoding="utf-8")
    res = run("validate", "--no-color", "-c", CRD, "--admission", str(apply), CRONTAB)
    assert res.exit_code == 1, res.output
    assert ("not checked: MutatingAdmissionPolicy 'team-label' with binding 'team-label-default': crdtool does not "
            "apply ApplyConfiguration mutations yet") in res.output


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
