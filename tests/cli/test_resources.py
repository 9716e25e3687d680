"""`crdtool validate`, `prune` and `default` end to end (click's CliRunner, one real process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from crdtool.cli import cli

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
CRD = str(FIXTURES / "crontab-validated" / "crd.yaml")
INVALID = str(FIXTURES / "crontab-validated" / "invalid.yaml")
NEEDS_DEFAULTS = str(FIXTURES / "crontab-validated" / "needs-defaults.yaml")
PLAIN_CRD = str(FIXTURES / "crontab" / "crd.yaml")
PLAIN_CR = str(FIXTURES / "crontab" / "my-crontab.yaml")


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(cli, list(args), input=stdin)


def test_a_valid_object_is_accepted() -> None:
    res = run("validate", "--no-color", "-c", PLAIN_CRD, PLAIN_CR)
    assert res.exit_code == 0, res.output
    assert "1 object would be accepted" in res.output


def test_schema_errors_with_positions_and_kubectl_text() -> None:
    res = run("validate", "--no-color", "-c", CRD, INVALID)
    assert res.exit_code == 1
    assert (f"{INVALID}:7:3: error: spec.cronSpec: Invalid value: \"* * * *\": spec.cronSpec in body should "
            "match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'") in res.output
    assert f"{INVALID}:9:3: error: spec.replicas: Invalid value: 15: spec.replicas in body should be less " \
           "than or equal to 10" in res.output
    kubectl = run("validate", "--format", "kubectl", "-c", CRD, INVALID)
    assert kubectl.stderr == (
        'The CronTab "my-new-cron-object" is invalid: \n'
        "* spec.cronSpec: Invalid value: \"* * * *\": spec.cronSpec in body should match "
        "'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'\n"
        "* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10\n")


def test_field_validation_decides_how_unknown_fields_are_reported() -> None:
    strict = run("validate", "--format", "kubectl", "-c", CRD, NEEDS_DEFAULTS)
    assert strict.exit_code == 1
    assert strict.stderr == (
        f'Error from server (BadRequest): error when creating "{NEEDS_DEFAULTS}": CronTab in version "v1" cannot '
        'be handled as a CronTab: strict decoding error: unknown field "spec.imagePullPolicy"\n')
    warn = run("validate", "--format", "kubectl", "--field-validation", "Warn", "-c", CRD, NEEDS_DEFAULTS)
    assert warn.exit_code == 0 and warn.stderr == 'Warning: unknown field "spec.imagePullPolicy"\n'
    assert warn.stdout == "crontab.stable.example.com/my-new-cron-object created (server dry run)\n"
    ignore = run("validate", "--no-color", "--field-validation", "Ignore", "-c", CRD, NEEDS_DEFAULTS)
    assert ignore.exit_code == 0 and "imagePullPolicy" not in ignore.output


def test_json_output_has_the_defaulted_pruned_object() -> None:
    res = run("validate", "--format", "json", "--field-validation", "Warn", "-c", CRD, NEEDS_DEFAULTS)
    out = json.loads(res.stdout)["results"][0]
    assert out["object"]["spec"] == {"image": "my-awesome-cron-image", "cronSpec": "5 0 * * *", "replicas": 1}
    assert out["pruned"] == ["spec.imagePullPolicy"]
    assert out["fieldValidationWarnings"] == ['unknown field "spec.imagePullPolicy"']
    assert out["strictDecodingErrors"] == [] and out["namespace"] == "default"


def test_crds_among_the_inputs_and_unknown_kinds(tmp_path) -> None:
    res = run("validate", "--no-color", str(FIXTURES / "crontab-validated"))
    assert res.exit_code == 1 and "1 CustomResourceDefinition would be accepted" in res.output
    assert "2 of 2 objects would be rejected" in res.output
    alone = run("validate", "--no-color", INVALID)
    assert alone.exit_code == 1
    assert "no CustomResourceDefinition for stable.example.com/v1, Kind=CronTab" in alone.output
    skipped = run("validate", "--no-color", "--skip-unknown-kinds", "-v", INVALID)
    assert skipped.exit_code == 2 and "skipped stable.example.com/v1, Kind=CronTab" not in skipped.output
    assert "nothing to validate: no custom resource or CustomResourceDefinition in" in skipped.output
    assert "(1 object of a kind no CRD defines skipped); pass --allow-empty" in skipped.output
    skipped = run("validate", "--no-color", "--skip-unknown-kinds", "--allow-empty", "-v", INVALID)
    assert skipped.exit_code == 0 and "skipped stable.example.com/v1, Kind=CronTab" in skipped.output
    assert "no object found; 1 object of a kind no CRD defines skipped" in skipped.output
    deployment = tmp_path / "deploy.yaml"
    deployment.write_text("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n"
                          "    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n"
                          "    spec:\n      containers: [{name: web, image: nginx}]\n")
    builtin = run("validate", "--no-color", "-v", "-c", CRD, str(deployment))  # built-in objects are checked
    assert builtin.exit_code == 0 and f"ok {deployment}: Deployment web" in builtin.output
    assert "1 object would be accepted" in builtin.output


def test_an_invalid_crd_is_reported_and_its_objects_not_validated(tmp_path) -> None:
    crd = tmp_path / "crd.yaml"
    crd.write_text(Path(CRD).read_text().replace("scope: Namespaced", "scope: Namespace"))
    res = run("validate", "--no-color", str(crd), INVALID)
    assert res.exit_code == 1
    assert 'spec.scope: Unsupported value: "Namespace"' in res.output
    assert "would be rejected, so its objects cannot be validated" in res.output


def test_an_update_over_a_stored_object(tmp_path) -> None:
    old = tmp_path / "old.yaml"
    old.write_text(Path(INVALID).read_text().replace("replicas: 15", "replicas: 2")
                   .replace('"* * * *"', '"* * * * *"'))
    new = tmp_path / "new.yaml"
    new.write_text(old.read_text().replace("name: my-new-cron-object", "name: my-new-cron-object\n  uid: x")
                   .replace("replicas: 2", "replicas: 3"))
    ok = run("validate", "--format", "json", "-c", CRD, "--old", str(old), str(old))
    assert ok.exit_code == 0, ok.output
    changed = run("validate", "--format", "kubectl", "-c", CRD, "--old", str(old), str(new))
    assert changed.exit_code == 1
    assert 'metadata.uid: Invalid value: "x": field is immutable' in changed.stderr


def test_namespace_flag_sets_and_checks_the_namespace(tmp_path) -> None:
    res = run("validate", "--format", "json", "-n", "team-a", "-c", PLAIN_CRD, PLAIN_CR)
    assert json.loads(res.stdout)["results"][0]["namespace"] == "team-a"
    other = tmp_path / "cr.yaml"
    other.write_text(Path(PLAIN_CR).read_text().replace("metadata:\n", "metadata:\n  namespace: b\n"))
    res = run("validate", "--format", "kubectl", "-n", "a", "-c", PLAIN_CRD, str(other))
    assert res.exit_code == 1
    assert res.stderr.endswith("the namespace of the provided object does not match the namespace sent on "
                               "the request\n")


def test_prune_and_default_show_diffs_and_objects() -> None:
    pruned = run("prune", "--no-color", "-c", CRD, NEEDS_DEFAULTS)
    assert pruned.exit_code == 0
    assert "-  imagePullPolicy: Always" in pruned.output and "+  " not in pruned.output
    defaulted = run("default", "--no-color", "-c", CRD, NEEDS_DEFAULTS)
    assert "+  cronSpec: 5 0 * * *" in defaulted.output and "+  replicas: 1" in defaulted.output
    as_json = run("prune", "-c", CRD, NEEDS_DEFAULTS, "--output", "json")
    assert json.loads(as_json.stdout)["spec"] == {"image": "my-awesome-cron-image"}


def test_default_prints_objects_as_stored_and_prune_as_decoded() -> None:
    stored = run("default", "-c", CRD, NEEDS_DEFAULTS, "--output", "yaml")
    assert stored.exit_code == 0, stored.output
    assert stored.stdout.endswith("spec:\n  image: my-awesome-cron-image\n  cronSpec: 5 0 * * *\n  replicas: 1\n")
    assert "imagePullPolicy" not in stored.stdout  # pruned before defaulting, as the apiserver does
    as_json = json.loads(run("default", "-c", CRD, NEEDS_DEFAULTS, "-o", "json").stdout)
    assert as_json["spec"] == {"image": "my-awesome-cron-image", "cronSpec": "5 0 * * *", "replicas": 1}
    decoded = run("prune", "-c", CRD, NEEDS_DEFAULTS, "--output", "yaml")
    assert "imagePullPolicy" not in decoded.stdout and "replicas" not in decoded.stdout
    for op, words in (("default", "as the apiserver would store them"), ("prune", "as the apiserver decodes them")):
        assert words in " ".join(run(op, "--help").output.split())
    # the diff still shows only what defaulting adds to the file: removing the unknown field is prune's
    diff = run("default", "--no-color", "-c", CRD, NEEDS_DEFAULTS).output
    assert "+  cronSpec: 5 0 * * *" in diff and "-  imagePullPolicy" not in diff


def _diff_u(old: str, new: str, name: str) -> list[str]:
    """What `diff -u` shows between two texts (without line breaks), as difflib writes it."""
    import difflib

    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{name}", f"b/{name}", lineterm="")
    return list(lines)


def test_the_diff_is_the_files_change_that_write_makes(tmp_path) -> None:
    text = ("# CronTabs\n---\n# the first\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n"
            "  name: a  # named\nspec:\n  image: x\n  junk: 1  # not in the schema\n---\n"
            "# the second\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: b}\n"
            "spec: {image: y, junk: 2}\n")
    f = tmp_path / "crs.yaml"
    f.write_text(text)
    for op in ("prune", "default"):
        shown = run(op, "--no-color", "-c", CRD, str(f))
        assert shown.exit_code == 0, shown.output
        name = str(f).lstrip("/")
        assert shown.output.splitlines()[:2] == [f"--- a/{name}", f"+++ b/{name}"]
        assert run(op, "-c", CRD, str(f), "--write").stderr == f"rewrote {f}\n"
        assert shown.output.splitlines() == _diff_u(text, f.read_text(), name)
        text = f.read_text()
    assert "@@ -6,4 +6,3 @@" in run("prune", "--no-color", "-c", CRD, NEEDS_DEFAULTS).output  # the file's lines
    assert text == ("# CronTabs\n---\n# the first\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n"
                    "  name: a  # named\nspec:\n  image: x\n  cronSpec: 5 0 * * *\n  replicas: 1\n---\n"
                    "# the second\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: b}\n"
                    "spec: {image: y, cronSpec: 5 0 * * *, replicas: 1}\n")
    assert run("default", "--no-color", "-c", CRD, str(f)).output == f"{f}: no change\n"


def test_the_diff_of_a_large_file_shows_exactly_the_lines_write_changes(tmp_path) -> None:
    """Many alike documents (each line repeated hundreds of times): the diff is the change --write
    makes, line for line, however often its neighbours repeat elsewhere in the file."""
    doc = ("---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c{i}\nspec:\n"
           "  image: x  # given\n  junk: 1\n  replicas: 1\n")
    text = "".join(doc.format(i=i) for i in range(400))
    f = tmp_path / "many.yaml"
    f.write_text(text)
    shown = run("prune", "--no-color", "-c", CRD, str(f), "--write")
    assert shown.exit_code == 0, shown.output
    lines = shown.output.splitlines()
    assert [line for line in lines if line.startswith(("-", "+")) and line[:3] not in ("---", "+++")] == [
        "-  junk: 1"] * 400
    assert f.read_text() == text.replace("  junk: 1\n", "")
    hunks = [line for line in lines if line.startswith("@@")]
    assert hunks[:2] == ["@@ -5,7 +5,6 @@", "@@ -14,7 +13,6 @@"] and len(hunks) == 400
    shown = run("default", "--no-color", "-c", CRD, str(f), "--write")
    added = [line for line in shown.output.splitlines() if line.startswith(("-", "+")) and line[:3] not in (
        "---", "+++")]
    assert added == ["+  cronSpec: 5 0 * * *"] * 400


def test_write_keeps_line_endings_encoding_and_the_missing_final_line_break(tmp_path) -> None:
    original = Path(NEEDS_DEFAULTS).read_bytes()
    unknown, defaults = b"  imagePullPolicy: Always\n", b"  cronSpec: 5 0 * * *\n  replicas: 1\n"
    done = original.replace(unknown, defaults)
    cases = {  # file: (as written, after default --write and prune --write)
        "crlf.yaml": (original.replace(b"\n", b"\r\n"), done.replace(b"\n", b"\r\n")),
        "bom.yaml": (b"\xef\xbb\xbf" + original, b"\xef\xbb\xbf" + done),
        "open.yaml": (original.rstrip(b"\n"), done.rstrip(b"\n")),
        "mixed.yaml": (original.replace(b"\n", b"\r\n", 3),  # new lines end as the first line does
                       original.replace(b"\n", b"\r\n", 3).replace(unknown, defaults.replace(b"\n", b"\r\n"))),
    }
    for name, (raw, expected) in cases.items():
        f = tmp_path / name
        f.write_bytes(raw)
        os.chmod(f, 0o600)
        if name == "crlf.yaml":  # the diff keeps the CRs, as `diff -u` does: `patch` applies it to the file
            import difflib

            shown = run("prune", "-c", CRD, str(f)).stdout_bytes.decode()
            old, new = raw.decode(), raw.decode().replace("  imagePullPolicy: Always\r\n", "")
            diff_u = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                          f"a{f}", f"b{f}", lineterm="")
            assert shown == "".join(line if line.endswith("\n") else line + "\n" for line in diff_u)
            assert "-  imagePullPolicy: Always\r\n" in shown
        for op in ("default", "prune"):
            res = run(op, "-c", CRD, str(f), "--write")
            assert res.exit_code == 0 and res.stderr == f"rewrote {f}\n", res.output
        assert f.read_bytes() == expected, name
        assert os.stat(f).st_mode & 0o777 == 0o600


def test_write_keeps_comments_and_leaves_unchanged_files_alone(tmp_path) -> None:
    changed = tmp_path / "cr.yaml"
    changed.write_text(Path(NEEDS_DEFAULTS).read_text())
    untouched = tmp_path / "plain.yaml"
    untouched.write_text(Path(PLAIN_CR).read_text().replace("stable.example.com/v1", "stable.example.com/v1"))
    os.utime(untouched, (1_000_000, 1_000_000))
    res = run("prune", "-c", CRD, str(changed), str(untouched), "--write")
    assert res.exit_code == 0, res.output
    text = changed.read_text()
    assert "imagePullPolicy" not in text
    assert "# A CronTab that leaves cronSpec" in text and "# the only field given" in text
    assert os.stat(untouched).st_mtime == 1_000_000
    assert run("prune", "-c", CRD, str(changed), "--write").stderr == ""  # nothing left to prune


def test_write_failure_leaves_the_file_intact(tmp_path, monkeypatch) -> None:
    from crdtool.load import rewrite as rewrite_module

    target = tmp_path / "cr.yaml"
    target.write_text(Path(NEEDS_DEFAULTS).read_text())

    def full_disk(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(rewrite_module.os, "fsync", full_disk)
    res = run("default", "-c", CRD, str(target), "--write")
    assert res.exit_code == 2
    assert f"{target}: error: cannot rewrite the file (left as it was): No space left on device" in res.stderr
    assert target.read_text() == Path(NEEDS_DEFAULTS).read_text()
    assert [p.name for p in tmp_path.iterdir()] == ["cr.yaml"]


def test_hostile_objects_get_a_finding_or_exit_2(tmp_path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec:\n  image: "
                    + "[" * 12000 + "]" * 12000 + "\n")
    res = run("validate", "-c", CRD, str(deep))
    assert res.exit_code == 2 and "nesting deeper than 10000 levels" in res.stderr
    nested = tmp_path / "nested.yaml"  # 9,000 levels: readable, and validated without a recursion error
    nested.write_text("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec:\n  image: "
                      + "[" * 9000 + "]" * 9000 + "\n")
    res = run("validate", "--format", "json", "-c", CRD, str(nested))
    assert res.exit_code == 1, res.output
    assert json.loads(res.stdout)["results"][0]["errors"][0]["field"] == "spec.image"
    long_list = tmp_path / "long.yaml"
    long_list.write_text("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec:\n"
                         "  image: x\n  junk: [" + ", ".join(["1"] * 100_000) + "]\n")
    res = run("validate", "--format", "json", "-c", CRD, str(long_list))
    assert res.exit_code == 1 and json.loads(res.stdout)["results"][0]["pruned"] == ["spec.junk"]
    for content, message in [("- a\n- b\n", "must be a mapping"), ("42\n", "must be a mapping"),
                             ("metadata: {name: x}\n", "Object 'Kind' is missing in '{\"metadata\":{\"name\":\"x\"}}'"),
                             ("kind: CronTab\n", "the object has no apiVersion")]:
        bad = tmp_path / "bad.yaml"
        bad.write_text(content)
        res = run("validate", "-c", CRD, str(bad))
        assert res.exit_code in (1, 2) and message in res.output + res.stderr, (content, res.output)
        assert "Traceback" not in res.output + res.stderr


def test_prune_and_default_say_why_a_document_was_not_processed_once(tmp_path) -> None:
    kindless = tmp_path / "kindless.yaml"
    kindless.write_text("a: 1\n")
    for op in ("prune", "default"):
        res = run(op, "--no-color", "-c", CRD, str(kindless))
        assert res.exit_code == 1
        assert f"{kindless}#0: error: unable to decode \"{kindless}\": Object 'Kind' is missing in '{{\"a\":1}}'\n" \
            in res.output, res.output


def test_a_real_process() -> None:
    proc = subprocess.run([sys.executable, "-m", "crdtool", "validate", "--format", "kubectl", "-c", CRD, INVALID],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    assert proc.stderr.startswith('The CronTab "my-new-cron-object" is invalid: \n* spec.cronSpec')


def test_builtin_kinds_are_known_by_the_136_discovery(tmp_path) -> None:
    manifest = tmp_path / "nm.yaml"
    manifest.write_text("apiVersion: v1\nkind: configmap\nmetadata: {name: b, namespace: team}\n---\n"
                        "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: d}\n---\n"
                        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: ok}\n"
                        "spec: {selector: {matchLabels: {a: b}}, template: {metadata: {labels: {a: b}},"
                        " spec: {containers: [{name: c, image: nginx}]}}}\n")
    res = run("validate", "--no-color", str(manifest))
    assert res.exit_code == 1
    assert f'{manifest}:1:1: error: no matches for kind "configmap" in version "v1"' in res.output
    assert "error[kind-not-served]: apiVersion: no configmap in v1; did you mean v1 ConfigMap?" in res.output
    assert ("error[kind-not-served]: apiVersion: Deployment is not served in extensions/v1beta1 since Kubernetes "
            "1.16: use apps/v1") in res.output
    assert "2 of 3 objects would be rejected" in res.output  # the served Deployment is checked, and accepted
    res = run("validate", "--format", "kubectl", str(manifest))
    assert res.stderr.splitlines()[:2] == [
        f'error: resource mapping not found for name: "b" namespace: "team" from "{manifest}": no matches for kind '
        '"configmap" in version "v1"', "ensure CRDs are installed first"]


HUGE = "1" * 5000  # beyond Python's 4,300-digit int conversion, and beyond float64


def test_a_yaml_number_beyond_float64_is_the_string_go_yaml_makes_of_it(tmp_path) -> None:
    """go-yaml resolves a plain scalar that strconv cannot read as int64, uint64 or float64 to a string."""
    for literal in (HUGE, "1e400"):
        cr = tmp_path / "cr.yaml"
        cr.write_text(f"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {{name: x}}\n"
                      f"spec:\n  replicas: {literal}\n")
        res = run("validate", "--no-color", "-c", CRD, str(cr))
        assert res.exit_code == 1 and "Traceback" not in res.output
        assert (f'{cr}:5:3: error: spec.replicas: Invalid value: "string": spec.replicas in body must be of type '
                f'integer: "string"') in res.output


def test_a_json_number_beyond_float64_is_refused_with_gos_text(tmp_path) -> None:
    """kubectl decodes a JSON input with Go's JSON reader, which cannot hold the number in a float64."""
    for literal in (HUGE, "-1e400"):
        cr = tmp_path / "cr.json"
        cr.write_text('{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},\n'
                      f' "spec": {{"replicas": {literal}}}}}\n')
        res = run("validate", "-c", CRD, str(cr))
        assert res.exit_code == 2 and "Traceback" not in res.output
        assert (f"{cr}:2:23: error: json: cannot unmarshal number {literal} into Go value of type float64"
                in res.stderr)


def test_a_json_number_within_float64_is_read_as_the_apiserver_reads_it(tmp_path) -> None:
    cr = tmp_path / "cr.json"
    cr.write_text('{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"}, '
                  '"spec": {"replicas": 1' + "0" * 300 + ', "image": 1e-400}}')
    res = run("validate", "--format", "json", "-c", CRD, str(cr))
    assert res.exit_code == 1, res.output
    errors = {e["field"]: e["error"] for e in json.loads(res.stdout)["results"][0]["errors"]}
    assert errors["spec.replicas"].startswith("spec.replicas: Invalid value: 1e+300: spec.replicas in body should be")
    assert errors["spec.image"] == ('spec.image: Invalid value: "integer": spec.image in body must be of type '
                                    'string: "integer"')


def test_a_crd_and_a_cr_concatenated_without_separator_point_at_the_repeated_key() -> None:
    crd = Path(PLAIN_CRD).read_text()
    res = run("validate", "--no-color", "-c", PLAIN_CRD, "-", stdin=crd + Path(PLAIN_CR).read_text())
    first_repeat = len(crd.splitlines()) + 1
    assert res.exit_code == 1
    assert f"<stdin>:{first_repeat}:1: error: strict decoding: yaml: unmarshal errors:\n" in res.output


def test_a_lone_surrogate_in_a_json_name_is_checked_not_a_crash(tmp_path) -> None:
    cr = tmp_path / "cr.json"
    cr.write_text(r'{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "\udc00x"}}')
    res = run("validate", "--no-color", "-c", CRD, str(cr))
    assert res.exit_code == 1 and "Traceback" not in res.output and "internal error" not in res.output
    assert 'metadata.name: Invalid value: "\ufffdx": a lowercase RFC 1123 subdomain' in res.output


def test_repeated_json_fields_are_the_apiservers_json_strict_errors_at_each_key(tmp_path) -> None:
    cr = tmp_path / "cr.json"
    cr.write_text('{"apiVersion": "stable.example.com/v1", "kind": "CronTab",\n'
                  ' "metadata": {"name": "x", "name": "y"},\n "spec": {"image": "a", "image": "b"}}\n')
    res = run("validate", "--no-color", "-c", CRD, str(cr))
    assert res.exit_code == 1
    assert f'{cr}:2:28: error: strict decoding: duplicate field "metadata.name"' in res.output
    assert f'{cr}:3:25: error: strict decoding: duplicate field "spec.image"' in res.output
    assert ('strict decoding error: duplicate field "metadata.name", duplicate field "spec.image"\n'
            in res.output)


def test_kubectl_words_an_update_as_kubectl_replace_does(tmp_path: Path) -> None:
    """`--old` makes the request a PUT of the whole object: kubectl replace's `replaced` and
    `error when replacing`."""
    old = tmp_path / "old.yaml"
    old.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: default}\ndata: {a: '1'}\n")
    new = tmp_path / "new.yaml"
    new.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: default}\ndata: {a: '2'}\n")
    res = CliRunner().invoke(cli, ["validate", "--format", "kubectl", "--old", str(old), str(new)])
    assert (res.exit_code, res.stdout) == (0, "configmap/settings replaced (server dry run)\n")
    new.write_text(new.read_text() + "extra: 1\n")
    res = CliRunner().invoke(cli, ["validate", "--format", "kubectl", "--old", str(old), str(new)])
    assert res.exit_code == 1
    assert res.stderr == (f'Error from server (BadRequest): error when replacing "{new}": ConfigMap in version "v1" '
                          'cannot be handled as a ConfigMap: strict decoding error: unknown field "extra"\n')
    res = CliRunner().invoke(cli, ["validate", "--format", "kubectl", str(new)])
    assert res.stderr.startswith(f'Error from server (BadRequest): error when creating "{new}": ')


def test_a_run_leaves_its_objects_to_the_process_end_only_when_it_ends_at_once(monkeypatch) -> None:
    import crdtool.cli as cli_package

    assert cli_package._LEFT_TO_EXIT is None  # a CliRunner's process goes on: each run's objects are freed
    assert run("validate", "--no-color", "-c", PLAIN_CRD, PLAIN_CR).exit_code == 0
    assert cli_package._LEFT_TO_EXIT is None
    left: list = []
    monkeypatch.setattr(cli_package, "_LEFT_TO_EXIT", left)  # as `main` sets it, before it ends at once
    assert run("default", "--no-color", "-c", CRD, NEEDS_DEFAULTS).exit_code == 0
    (outcome, files), = left
    assert [r.document.source for r in outcome.results] == [NEEDS_DEFAULTS] and files[0].path == NEEDS_DEFAULTS
