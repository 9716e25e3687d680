"""Built-in objects through `crdtool validate` and `crdtool default` (issue 18's examples)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from files import write_file
from imported import imported_by

from crdtool.cli import cli

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: web
        image: nginx:1.27
        ports:
        - containerPort: 80
"""


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_an_unknown_field_is_a_strict_decoding_error_at_its_line(tmp_path: Path) -> None:
    path = write_file(tmp_path, "deploy.yaml", DEPLOYMENT.replace("ports:", "prots:"))
    res = run("validate", "--no-color", path)
    assert res.exit_code == 1, res.output
    assert f'{path}:18:9: error: strict decoding: unknown field "spec.template.spec.containers[0].prots"' \
        in res.output
    kubectl = run("validate", "--format", "kubectl", path)
    assert ('Error from server (BadRequest): error when creating "' + path + '": Deployment in version "v1" cannot '
            'be handled as a Deployment: strict decoding error: unknown field '
            '"spec.template.spec.containers[0].prots"') in kubectl.output


def test_warn_makes_unknown_fields_warnings(tmp_path: Path) -> None:
    path = write_file(tmp_path, "deploy.yaml", DEPLOYMENT.replace("ports:", "prots:"))
    res = run("validate", "--no-color", "--field-validation", "Warn", path)
    assert res.exit_code == 0, res.output
    assert 'warning: strict decoding: unknown field "spec.template.spec.containers[0].prots"' in res.output
    assert run("validate", "--field-validation", "Ignore", path).exit_code == 0


def test_a_string_replicas_is_encoding_json_type_error(tmp_path: Path) -> None:
    path = write_file(tmp_path, "deploy.yaml", DEPLOYMENT.replace("replicas: 2", 'replicas: "3"'))
    res = run("validate", "--format", "json", path)
    assert res.exit_code == 1
    result = json.loads(res.output)["results"][0]
    assert result["status"] == ('Deployment in version "v1" cannot be handled as a Deployment: json: cannot '
                                'unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32')
    assert result["checks"] == "validation"  # the apiserver answers at decoding: nothing left unchecked


def test_a_bad_quantity_is_its_parse_error(tmp_path: Path) -> None:
    text = DEPLOYMENT.replace("        ports:", "        resources:\n          limits:\n            cpu: 1 core\n"
                                             "        ports:")
    res = run("validate", "--format", "json", write_file(tmp_path, "deploy.yaml", text))
    status = json.loads(res.output)["results"][0]["status"]
    assert status == ('Deployment in version "v1" cannot be handled as a Deployment: quantities must match the '
                      "regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")


def test_a_service_name_must_be_a_dns_1035_label(tmp_path: Path) -> None:
    path = write_file(tmp_path, "svc.yaml",
                      "apiVersion: v1\nkind: Service\nmetadata:\n  name: 1web\nspec:\n  ports:\n  - port: 80\n")
    res = run("validate", "--format", "json", path)
    assert res.exit_code == 1
    result = json.loads(res.output)["results"][0]
    assert result["status"].startswith('Service "1web" is invalid: metadata.name: Invalid value: "1web": a DNS-1035 '
                                       "label must consist of lower case alphanumeric characters")


def test_default_shows_the_apiservers_defaults(tmp_path: Path) -> None:
    path = write_file(tmp_path, "deploy.yaml", DEPLOYMENT)
    res = run("default", "--no-color", path)
    assert res.exit_code == 0, res.output
    for line in ("+          protocol: TCP", "+        imagePullPolicy: IfNotPresent",
                 "+        terminationMessagePolicy: File", "+      dnsPolicy: ClusterFirst",
                 "+      schedulerName: default-scheduler", "+      maxUnavailable: 25%",
                 "+  revisionHistoryLimit: 10", "+  progressDeadlineSeconds: 600"):
        assert line in res.output
    stored = run("default", "-o", "json", path)
    obj = json.loads(stored.output)
    assert obj["spec"]["strategy"] == {"type": "RollingUpdate",
                                       "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": "25%"}}


def test_custom_resources_keep_the_validation_level(tmp_path: Path) -> None:
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "crontab"
    res = run("validate", "--format", "json", "-c", str(fixtures / "crd.yaml"), str(fixtures / "my-crontab.yaml"))
    assert json.loads(res.output)["results"][0]["checks"] == "validation"


def test_a_run_without_built_ins_imports_nothing_of_them() -> None:
    fixtures = Path(__file__).resolve().parents[2] / "fixtures" / "crontab"
    args = ["validate", "-q", "-c", str(fixtures / "crd.yaml"), str(fixtures / "my-crontab.yaml")]
    assert imported_by(args, ("crdtool.apis",)) == ("", [], 0)


def test_pod_container_port_zero_is_required(tmp_path: Path) -> None:
    """core's validateContainerPorts through the CLI: the apiserver's text at the port's line."""
    pod = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\nspec:\n  containers:\n  - name: web\n"
           "    image: nginx\n    ports:\n    - containerPort: 70000\n")
    result = CliRunner().invoke(cli, ["validate", write_file(tmp_path, "pod.yaml", pod)])
    assert result.exit_code == 1
    assert ("pod.yaml:10:7: error: spec.containers[0].ports[0].containerPort: Invalid value: 70000: "
            "must be between 1 and 65535, inclusive") in result.output


def test_secret_checks_say_validation(tmp_path: Path) -> None:
    """A kind whose validation is reproduced reports `checks: validation` in JSON."""
    secret = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ntype: kubernetes.io/tls\ndata: {}\n"
    result = CliRunner().invoke(cli, ["validate", "--format", "json", write_file(tmp_path, "s.yaml", secret)])
    assert result.exit_code == 1
    assert '"checks": "validation"' in result.output
    assert "data[tls.crt]: Required value" in result.output


CRONJOB = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: nightly
spec:
  schedule: "0 2 * * 8"
  timeZone: Europe/Paris
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: job
            image: busybox
"""


def test_a_workload_rule_is_reported_at_its_line_in_the_apiservers_words(tmp_path: Path) -> None:
    """apps and batch validation through the CLI: a selector that does not match the template's labels,
    a CronJob schedule robfig/cron refuses; the JSON output says the kind's validation ran."""
    path = write_file(tmp_path, "deploy.yaml",
                      DEPLOYMENT.replace("        app: web\n    spec:", "        app: api\n    spec:"))
    res = run("validate", "--no-color", path)
    assert res.exit_code == 1, res.output
    assert (f'{path}:12:7: error: spec.template.metadata.labels: Invalid value: {{"app":"api"}}: `selector` does '
            "not match template `labels`") in res.output
    cron = write_file(tmp_path, "cron.yaml", CRONJOB)
    res = run("validate", "--no-color", cron)
    assert res.exit_code == 1
    assert (f'{cron}:6:3: error: spec.schedule: Invalid value: "0 2 * * 8": end of range (8) above maximum (6): 8'
            in res.output)
    out = json.loads(run("validate", "--format", "json", write_file(tmp_path, "deploy.yaml", DEPLOYMENT)).output)
    assert out["results"][0]["checks"] == "validation" and out["results"][0]["valid"] is True


def test_an_update_changing_a_deployments_selector_is_refused(tmp_path: Path) -> None:
    live = write_file(tmp_path, "live.yaml", DEPLOYMENT)
    changed = write_file(tmp_path, "deploy.yaml", DEPLOYMENT.replace("app: web", "app: web2"))
    res = run("validate", "--no-color", "--old", live, changed)
    assert res.exit_code == 1
    assert (f'{changed}:7:3: error: spec.selector: Invalid value: {{"matchLabels":{{"app":"web2"}}}}: field is '
            "immutable") in res.output


LEASE = "apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: l\n  namespace: ns\n"


def test_a_partly_checked_built_in_object_is_said_so_in_every_summary(tmp_path: Path) -> None:
    """A kind whose own validation crdtool does not reproduce passes only as far as it was checked."""
    path = write_file(tmp_path, "lease.yaml", LEASE)
    said = "1 built-in object checked for decoding, defaults and metadata only"
    text = run("validate", "--no-color", path)
    assert text.exit_code == 0 and said in text.output.splitlines()[-1]
    assert said in run("validate", "--format", "github", path).output.splitlines()[-1]
    sarif = json.loads(run("validate", "--format", "sarif", path).output)
    notifications = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [n["level"] for n in notifications if said in n["message"]["text"]] == ["warning"]
    assert json.loads(run("validate", "--format", "json", path).output)["results"][0]["checks"] == (
        "decoding,defaulting,metadata")


def test_default_prints_quantities_in_their_canonical_form(tmp_path) -> None:
    """The apiserver stores Quantity.String(): `1000m` is `1`, `0.5Gi` is `512Mi`, a quoted `1e3` stays."""
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: i\n"
                   "    resources:\n      requests: {cpu: 1000m, memory: 0.5Gi}\n"
                   "      limits: {cpu: 1.5, memory: '1e3', ephemeral-storage: 1024Mi}\n")
    res = CliRunner().invoke(cli, ["default", "-o", "json", str(pod)])
    assert res.exit_code == 0, res.output
    resources = json.loads(res.output)["spec"]["containers"][0]["resources"]
    assert resources == {"requests": {"cpu": "1", "memory": "512Mi", "ephemeral-storage": "1Gi"},  # from limits
                         "limits": {"cpu": "1500m", "memory": "1e3", "ephemeral-storage": "1Gi"}}


def test_quantities_with_huge_exponents_or_many_digits_are_answered_at_once(tmp_path) -> None:
    """A quantity is never written out in full: `1e999999999` is one digit and an exponent (the
    apiserver 1.36 itself compares it to zero by writing out 10^999999999), 1e-999999999 is rounded up
    to the nano and then, defaulted, to the milli; 50,000 digits are read as they are."""
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: i\n"
                   f"    resources:\n      limits: {{cpu: '1e999999999', memory: '{'9' * 50_000}', "
                   "example.com/gpu: '1e-999999999'}\n")
    res = CliRunner().invoke(cli, ["validate", "--format", "json", str(pod)])
    assert res.exit_code == 1, res.output
    errors = json.loads(res.output)["results"][0]["errors"]
    assert {(e["field"], e["badValue"], e["detail"]) for e in errors} == {
        ("spec.containers[0].resources.limits[example.com/gpu]", "1e-3", "must be an integer"),
        ("spec.containers[0].resources.requests[example.com/gpu]", "1e-3", "must be an integer")}


def test_a_sum_of_quantities_too_long_to_write_is_refused_as_input(tmp_path) -> None:
    """Pod-level resources add the containers' requests: 1e999999999 + 1 has a billion digits, which the
    apiserver writes out and crdtool does not: exit code 2, said as input it will not process."""
    pod = tmp_path / "pod.yaml"
    pod.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  resources:\n"
                   "    requests: {cpu: '1'}\n    limits: {cpu: '2'}\n  containers:\n"
                   "  - {name: c, image: i, resources: {requests: {cpu: '1e999999999'}}}\n"
                   "  - {name: d, image: i, resources: {requests: {cpu: '1'}}}\n")
    res = CliRunner().invoke(cli, ["validate", str(pod)])
    assert res.exit_code == 2, res.output
    assert "crdtool: error: quantities 1E+999999999 and 1 are not added: their sum has more than 10,000,000 digits" \
        in res.output
    assert "internal error" not in res.output


def test_an_object_the_apiserver_cannot_decode_was_checked_as_far_as_the_apiserver_goes(tmp_path) -> None:
    """The apiserver answers at decoding, whatever the kind: nothing was left unchecked, so the object
    does not count as partly checked (Node has no validation of its own in crdtool)."""
    path = tmp_path / "node.yaml"
    path.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nspec: {podCIDR: 5}\n")
    res = CliRunner().invoke(cli, ["validate", "--format", "json", str(path)])
    (result,) = json.loads(res.stdout)["results"]
    assert (res.exit_code, result["checks"], result["valid"]) == (1, "validation", False)
    assert "only" not in CliRunner().invoke(cli, ["validate", "--no-color", str(path)]).output
