"""Settings files: found upward from the working directory, strict about their keys."""

from __future__ import annotations

import os

import pytest

from crdtool.config import find_config, load_config
from crdtool.load import InputError


def test_found_upward_yaml_before_pyproject(tmp_path) -> None:
    nested = tmp_path / "a" / "b"
    nested.mkdir(parents=True)
    assert find_config(str(nested)) is None or not str(find_config(str(nested))).startswith(str(tmp_path))
    (tmp_path / "pyproject.toml").write_text("[tool.crdtool]\nformat = 'json'\n")
    assert find_config(str(nested)) == str(tmp_path / "pyproject.toml")
    (tmp_path / "a" / ".crdtool.yaml").write_text("format: github\n")
    assert find_config(str(nested)) == str(tmp_path / "a" / ".crdtool.yaml")


def test_pyproject_without_the_table_does_not_count(tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    found = find_config(str(tmp_path))
    assert found is None or os.path.dirname(found) != str(tmp_path)


def test_settings_are_read_and_paths_are_relative_to_the_file(tmp_path) -> None:
    path = tmp_path / ".crdtool.yaml"
    path.write_text("crds: [crds/, more/crd.yaml]\nskip-kinds: [Kustomization, Foo.example.com]\n"
                    "field-validation: Warn\nformat: sarif\nkube-version: v1.36\n"
                    "severities: {served-version-removed: warning, default-changed: off}\n")
    config = load_config(str(path))
    assert config.crds == [str(tmp_path / "crds"), str(tmp_path / "more" / "crd.yaml")]
    assert config.field_validation == "Warn" and config.format == "sarif" and config.kube_version == "v1.36"
    assert config.severities == {"served-version-removed": "warning", "default-changed": "off"}
    assert config.skips("Kustomization", "kustomize.config.k8s.io/v1beta1")
    assert config.skips("Foo", "example.com/v1") and not config.skips("Foo", "other.io/v1")


def test_pyproject_naming_the_table_only_through_an_escape_counts(tmp_path) -> None:
    """A pyproject.toml is parsed only when it spells `crdtool` or could, in a quoted key's escape."""
    (tmp_path / "pyproject.toml").write_text('[tool."crd\\u0074ool"]\nformat = "json"\n')
    assert find_config(str(tmp_path)) == str(tmp_path / "pyproject.toml")


def test_pyproject_table(tmp_path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.crdtool]\ncrds = 'crds'\nskip-unknown-kinds = true\n"
                    "[tool.crdtool.severities]\ncel-rule-added = 'error'\n")
    config = load_config(str(path))
    assert config.crds == [str(tmp_path / "crds")] and config.skip_unknown_kinds is True
    assert config.severities == {"cel-rule-added": "error"}


@pytest.mark.parametrize(("text", "message"), [
    ("formt: json\n", '.crdtool.yaml:1:1: error: unknown setting "formt" (known: crds, '),
    ("format: xml\n", '.crdtool.yaml:1:1: error: "format" must be one of: text, json, kubectl, sarif, github, '
                      "junit (got 'xml')"),
    ("crds: 3\n", '.crdtool.yaml:1:1: error: "crds" must be a string or a list of strings'),
    ("kube-version: '1.30'\n", '.crdtool.yaml:1:1: error: kube-version "1.30" is not supported: crdtool checks '
                               "what a Kubernetes 1.36 apiserver does"),
    ("severities: {cel-rule-added: fatal}\n", '.crdtool.yaml:1:14: error: "severities.cel-rule-added" must be one of: '
                                             "error, warning, info, off"),
    ("severities: {x: error}\n", '.crdtool.yaml:1:14: error: unknown rule code "x" in severities'),
    ("crds: !!python/object/apply:os.system [echo]\n", ".crdtool.yaml:1:7: error: the tag "
                                                      "!!python/object/apply:os.system is not allowed"),
    ("- a\n", ".crdtool.yaml:1:1: error: the settings must be a mapping of settings"),
])
def test_bad_settings_name_the_file_line_and_key(tmp_path, text: str, message: str) -> None:
    path = tmp_path / ".crdtool.yaml"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_config(str(path))
    assert str(err.value).startswith(str(path.parent) + os.sep + message)


def test_unknown_key_in_pyproject(tmp_path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text("[tool.crdtool]\ncrd = 'x'\n")
    with pytest.raises(InputError, match=r'pyproject.toml:2:1: error: unknown setting "crd"'):
        load_config(str(path))


# --- through the CLI: the settings found upward, flags winning -------------------------------------

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures")


def _run(args: list[str]):
    from click.testing import CliRunner

    from crdtool.cli import cli

    return CliRunner().invoke(cli, args, catch_exceptions=False)


def test_settings_give_defaults_that_flags_override(tmp_path, monkeypatch) -> None:
    crontab = os.path.abspath(os.path.join(FIXTURES, "crontab"))
    (tmp_path / ".crdtool.yaml").write_text(f"crds: [{crontab}/crd.yaml]\nformat: json\n")
    sub = tmp_path / "deep" / "er"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    result = _run(["validate", f"{crontab}/my-crontab.yaml"])  # the CRD comes from the settings' crds
    assert result.exit_code == 0 and result.output.startswith('{"results"')
    result = _run(["validate", "--format", "text", f"{crontab}/my-crontab.yaml"])
    assert result.exit_code == 0 and "1 object would be accepted" in result.output
    result = _run(["--no-config", "validate", f"{crontab}/my-crontab.yaml"])
    assert result.exit_code == 1 and "no CustomResourceDefinition" in result.output


def test_skip_kinds_and_field_validation(tmp_path, monkeypatch) -> None:
    crontab = os.path.abspath(os.path.join(FIXTURES, "crontab"))
    obj = tmp_path / "obj.yaml"
    obj.write_text("apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n"
                   "spec: {cronSpec: '* * * * */5', image: x, extra: 1}\n")
    (tmp_path / ".crdtool.yaml").write_text("field-validation: Ignore\n")
    monkeypatch.chdir(tmp_path)
    assert _run(["validate", "-c", f"{crontab}/crd.yaml", "obj.yaml"]).exit_code == 0
    assert _run(["validate", "-c", f"{crontab}/crd.yaml", "--field-validation", "Strict", "obj.yaml"]).exit_code == 1
    (tmp_path / ".crdtool.yaml").write_text("skip-kinds: [CronTab.stable.example.com]\n")
    result = _run(["validate", "-v", "obj.yaml"])
    assert result.exit_code == 2 and "nothing to validate" in result.output and "1 object skipped by skip-kinds" \
        in result.output
    result = _run(["validate", "-v", "--allow-empty", "obj.yaml"])
    assert result.exit_code == 0 and "skip-kinds in" in result.output
    (tmp_path / "obj.yaml").write_text("apiVersion: 5\nkind: 7\nmetadata: {name: a}\n")  # ill-typed, not skipped
    result = _run(["validate", "obj.yaml"])
    assert result.exit_code == 1 and "Traceback" not in result.output


def test_severities_change_upgrade_findings(tmp_path, monkeypatch) -> None:
    upgrade = os.path.abspath(os.path.join(FIXTURES, "upgrade"))
    args = ["lint", f"{upgrade}/new-field-removed.yaml", "--against", f"{upgrade}/old.yaml"]
    monkeypatch.chdir(tmp_path)
    assert _run(args).exit_code == 1
    (tmp_path / ".crdtool.yaml").write_text("severities: {field-removed: warning}\n")
    result = _run(args)
    assert result.exit_code == 0 and "warning[field-removed]" in result.output
    (tmp_path / ".crdtool.yaml").write_text("severities: {field-removed: off}\n")
    assert "[field-removed]" not in _run(args).output
    (tmp_path / ".crdtool.yaml").write_text("severities: {field-remove: off}\n")
    result = _run(args)
    assert result.exit_code == 2 and 'unknown rule code "field-remove" in severities' in result.output


def test_bad_settings_and_versions_exit_2(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".crdtool.yaml").write_text("formats: json\n")
    result = _run(["lint", "x.yaml"])
    assert result.exit_code == 2 and '.crdtool.yaml:1:1: error: unknown setting "formats"' in result.output
    result = _run(["--no-config", "--kube-version", "1.30", "lint", "x.yaml"])
    assert result.exit_code == 2 and 'kube-version "1.30" is not supported' in result.output


# --- through the real entry point: every settings error ends the run with exit 2 ------------------

ALIAS_BOMB = "".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]\n" for p, c in zip("abcdefg", "bcdefgh", strict=True))


@pytest.mark.parametrize(("text", "message"), [
    ("skip-unknwon-kinds: true\n", '.crdtool.yaml:1:1: error: unknown setting "skip-unknwon-kinds"'),
    ("skip-unknown-kinds: maybe\n", '.crdtool.yaml:1:1: error: "skip-unknown-kinds" must be true or false'),
    ("format: xml\n", '.crdtool.yaml:1:1: error: "format" must be one of'),
    ("severities: {nope: error}\n", '.crdtool.yaml:1:14: error: unknown rule code "nope"'),
    ("a: &a [x, x, x, x, x, x, x, x, x]\n" + ALIAS_BOMB, ".crdtool.yaml:"),
    ("crds: !!python/object/apply:os.system [echo]\n", ".crdtool.yaml:1:7: error: the tag !!python/"),
    ("crds: [a\n", ".crdtool.yaml:"),
], ids=["misspelt", "wrong-type", "unknown-format", "unknown-code", "alias-bomb", "python-tag", "broken-yaml"])
def test_settings_errors_exit_2_through_the_entry_point(tmp_path, monkeypatch, run_main, text, message) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".crdtool.yaml").write_text(text)
    crd = os.path.abspath(os.path.join(FIXTURES, "crontab", "crd.yaml"))
    result = run_main("lint", crd)
    assert result.exit_code == 2
    assert message in result.stderr and "would be accepted" not in result.output
    (tmp_path / ".crdtool.yaml").rename(tmp_path / "other.yaml")
    result = run_main("--config", "other.yaml", "lint", crd)
    assert result.exit_code == 2 and "other.yaml:" in result.stderr


def test_pyproject_that_is_not_utf8_exits_2_naming_the_line(tmp_path, monkeypatch, run_main) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_bytes(b'[tool.crdtool]\nformat = "json"\n# \xff\n')
    result = run_main("lint", os.path.abspath(os.path.join(FIXTURES, "crontab", "crd.yaml")))
    assert result.exit_code == 2
    assert result.stderr == f"{tmp_path / 'pyproject.toml'}:3: error: not valid UTF-8 (byte 0xff), as TOML must be\n"


def test_pyproject_errors_name_the_line_of_the_key(tmp_path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "x"\n\n[tool.crdtool]\nformat = "xml"\n')
    with pytest.raises(InputError, match=r'pyproject.toml:5:1: error: "format" must be one of'):
        load_config(str(path))


def test_an_unrelated_unreadable_pyproject_is_passed_over(tmp_path) -> None:
    (tmp_path / "pyproject.toml").write_bytes(b"[tool.other]\nx = 1\n# \xff\n")
    assert find_config(str(tmp_path)) is None
