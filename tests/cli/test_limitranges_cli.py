"""LimitRange through the CLI: a bad one is refused in the apiserver's words (exit 1), a good one is
fully validated, on create and on update (ValidateLimitRange of the new object)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file

from crdtool.cli import cli

GOOD = """\
apiVersion: v1
kind: LimitRange
metadata: {name: limits, namespace: team}
spec:
  limits:
  - type: Container
    max: {cpu: "2", memory: 1Gi}
    min: {cpu: 100m, memory: 64Mi}
    default: {cpu: 500m, memory: 256Mi}
    maxLimitRequestRatio: {cpu: "4"}
  - type: PersistentVolumeClaim
    max: {storage: 10Gi}
"""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_a_good_limit_range_is_fully_validated(tmp_path: Path) -> None:
    res = run("validate", "--format", "json", write_file(tmp_path, "lr.yaml", GOOD))
    assert res.exit_code == 0, res.output
    [result] = json.loads(res.output)["results"]
    assert result["checks"] == "validation"


def test_a_bad_limit_range_is_refused_in_the_apiservers_words(tmp_path: Path) -> None:
    # the defaulted defaultRequest (the default, 3) is checked too, as the apiserver checks it
    path = write_file(tmp_path, "lr.yaml", GOOD.replace("default: {cpu: 500m", "default: {cpu: 3000m")
                      .replace("- type: PersistentVolumeClaim\n    max: {storage: 10Gi}", "- type: Container"))
    res = run("validate", "--no-color", path)
    assert res.exit_code == 1, res.output
    assert (f'{path}:9:15: error: spec.limits[0].default[cpu]: Invalid value: "2": default value 3 is greater '
            "than max value 2") in res.output
    kubectl = run("validate", "--format", "kubectl", path)
    assert kubectl.output.startswith(
        'The LimitRange "limits" is invalid: \n'
        '* spec.limits[0].defaultRequest[cpu]: Invalid value: "3": default request value 3 is greater than max '
        "value 2\n"
        '* spec.limits[0].default[cpu]: Invalid value: "2": default value 3 is greater than max value 2\n'
        '* spec.limits[1].type: Duplicate value: "Container"\n')


def test_an_update_validates_the_new_limit_range(tmp_path: Path) -> None:
    live = write_file(tmp_path, "live.yaml", GOOD)
    new = write_file(tmp_path, "new.yaml",
                     GOOD.replace('maxLimitRequestRatio: {cpu: "4"}', "maxLimitRequestRatio: {cpu: 500m}"))
    res = run("validate", "--format", "json", "--old", live, new)
    assert res.exit_code == 1, res.output
    assert json.loads(res.output)["results"][0]["status"] == (
        'LimitRange "limits" is invalid: spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: "500m": '
        "ratio 500m is less than 1")
    assert run("validate", "--old", live, live).exit_code == 0
