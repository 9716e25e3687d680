"""The persistent cache through the command line: a warm run answers byte for byte as a cold one and
as one without the cache, whatever state the cache is in (damaged, unwritable, another build's,
written by two runs at once), and it spares the work it promises to spare."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from imported import imported_by

from crdtool.cache import _MAGIC as MAGIC
from crdtool.cli import cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
GATEWAY = ROOT.parent / "shared" / "corpus" / "crds" / "gateway-api-experimental"
HTTPROUTES = ROOT.parent / "shared" / "corpus" / "crs" / "gateway-api"

#: Runs whose outputs must not depend on the cache: refused CRDs with positions among -c, CEL rules
#: failing, schema errors, lint findings, every format.
RUNS = [
    ["validate", "-c", str(FIXTURES / "crontab-cel" / "crd.yaml"), "-c", str(FIXTURES / "broken"),
     str(FIXTURES / "crontab-cel" / "invalid.yaml"), str(FIXTURES / "crontab-cel" / "valid.yaml")],
    ["validate", "-c", str(FIXTURES / "crontab-validated" / "crd.yaml"),
     str(FIXTURES / "crontab-validated" / "invalid.yaml")],
    ["default", "-c", str(FIXTURES / "crontab-validated" / "crd.yaml"),
     str(FIXTURES / "crontab-validated" / "needs-defaults.yaml")],
    ["lint", str(FIXTURES / "broken"), str(FIXTURES / "crontab-cel" / "crd.yaml")],
    ["lint", "--costs", str(FIXTURES / "crontab-cel" / "crd.yaml")],
]
FORMATS = ["text", "json", "sarif", "kubectl"]


def crdtool(cache_dir: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    """One real process (so that nothing compiled in this one is reused), with its own cache folder."""
    env = {**os.environ, "CRDTOOL_CACHE_DIR": str(cache_dir), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "crdtool", "--no-config", *args], capture_output=True, env=env,
                          cwd=ROOT, timeout=120)


def entries(cache_dir: Path) -> list[Path]:
    return [p for p in cache_dir.rglob("*") if p.is_file() and p.name != "CACHEDIR.TAG"]


def outputs(cache_dir: Path, *extra: str) -> list[tuple[int, bytes, bytes]]:
    got = []
    for args in RUNS:
        for fmt in FORMATS:
            proc = crdtool(cache_dir, "--format", fmt, *extra, *args)
            got.append((proc.returncode, proc.stdout, proc.stderr))
    return got


def test_every_output_is_the_same_cold_warm_and_without_the_cache(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    without = outputs(tmp_path / "unused", "--no-cache")
    assert not (tmp_path / "unused").exists()  # --no-cache writes nothing
    assert outputs(cache_dir) == without  # cold
    assert entries(cache_dir)
    assert outputs(cache_dir) == without  # warm


@pytest.mark.skipif(not GATEWAY.is_dir(), reason="the shared corpus is not checked out")
def test_an_httproute_against_the_gateway_api_folder_is_the_same_cold_and_warm(tmp_path: Path) -> None:
    route = HTTPROUTES / "conformance__tests__httproute-303-redirect.yaml"
    runs = [crdtool(tmp_path, "--format", "json", "validate", "-c", str(GATEWAY), str(route)) for _ in range(2)]
    without = crdtool(tmp_path / "unused", "--format", "json", "--no-cache", "validate", "-c", str(GATEWAY),
                      str(route))
    assert [(r.returncode, r.stdout, r.stderr) for r in runs] == [(without.returncode, without.stdout,
                                                                 without.stderr)] * 2


def test_a_changed_crd_file_is_read_and_linted_again(tmp_path: Path) -> None:
    crd = tmp_path / "crd.yaml"
    shutil.copy(FIXTURES / "crontab" / "crd.yaml", crd)
    obj = str(FIXTURES / "crontab" / "my-crontab.yaml")
    assert crdtool(tmp_path / "cache", "validate", "-c", str(crd), obj).returncode == 0
    crd.write_text(crd.read_text().replace("scope: Namespaced", "scope: Sideways"))
    changed = crdtool(tmp_path / "cache", "validate", "-c", str(crd), obj)
    assert changed.returncode == 1
    assert changed.stdout == crdtool(tmp_path / "none", "--no-cache", "validate", "-c", str(crd), obj).stdout


def test_damaged_entries_are_ignored_and_rebuilt(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    args = RUNS[0]
    cold = crdtool(cache_dir, *args)
    for n, entry in enumerate(entries(cache_dir)):
        raw = entry.read_bytes()
        entry.write_bytes(raw[: len(raw) // 2] if n % 2 else raw[:-1] + bytes([raw[-1] ^ 0xFF]))
    damaged = crdtool(cache_dir, *args)
    assert (damaged.returncode, damaged.stdout, damaged.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    rebuilt = crdtool(cache_dir, *args)  # the damaged entries were written again, whole
    assert (rebuilt.returncode, rebuilt.stdout, rebuilt.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert all(whole(entry) for entry in entries(cache_dir))


def whole(entry: Path) -> bool:
    """Whether an entry file is as the cache writes it: its header, then a payload its checksum matches."""
    raw = entry.read_bytes()
    head = len(MAGIC) + 32
    return raw.startswith(MAGIC) and raw[len(MAGIC):head] == hashlib.blake2b(raw[head:], digest_size=32).digest()


def test_an_unwritable_cache_folder_changes_nothing(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder would be")  # fails for every user, root included
    got = crdtool(blocker / "cache", *RUNS[0])
    want = crdtool(tmp_path / "none", "--no-cache", *RUNS[0])
    assert (got.returncode, got.stdout, got.stderr) == (want.returncode, want.stdout, want.stderr)
    assert blocker.read_text() == "a file where the cache folder would be"


def test_two_runs_filling_the_cache_at_once_answer_as_one(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    env = {**os.environ, "CRDTOOL_CACHE_DIR": str(cache_dir), "NO_COLOR": "1"}
    command = [sys.executable, "-m", "crdtool", "--no-config", "--format", "json", *RUNS[0]]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
             for _ in range(3)]
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    for p in procs:
        p.stdout.close()  # type: ignore[union-attr]
        p.stderr.close()  # type: ignore[union-attr]
    want = crdtool(tmp_path / "none", "--no-cache", "--format", "json", *RUNS[0])
    assert results == [(want.returncode, want.stdout, want.stderr)] * 3
    warm = crdtool(cache_dir, "--format", "json", *RUNS[0])
    assert (warm.returncode, warm.stdout, warm.stderr) == (want.returncode, want.stdout, want.stderr)
    assert not list(cache_dir.rglob(".tmp-*"))


def run_here(*args: str):
    return CliRunner().invoke(cli, ["--no-config", "--no-color", *args])


def test_another_builds_entries_are_never_read_and_are_kept(tmp_path: Path, monkeypatch) -> None:
    """Entries of another build under this build's very keys, holding wrong answers: never read, and
    left in place (that build, another install of crdtool, may run next)."""
    from crdtool.cache import build_identity

    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(cache_dir))
    args = ["validate", "-c", str(FIXTURES / "crontab" / "crd.yaml"), str(FIXTURES / "crontab" / "my-crontab.yaml")]
    want = run_here(*args)
    this_build = cache_dir / build_identity()
    other_build = cache_dir / ("f" * 16 if build_identity() != "f" * 16 else "e" * 16)
    this_build.rename(other_build)
    wrong = pickle.dumps("a wrong answer")
    for entry in entries(other_build):  # whole entries of that build, at this build's paths, with wrong values
        entry.write_bytes(MAGIC + hashlib.blake2b(wrong, digest_size=32).digest() + wrong)
    got = run_here(*args)
    assert (got.exit_code, got.output) == (want.exit_code, want.output)
    assert other_build.is_dir() and this_build.is_dir()


def test_a_warm_run_lints_no_crd_and_compiles_only_the_rules_its_objects_reach(tmp_path: Path, monkeypatch) -> None:
    import crdtool.cel.compiler as compiler
    import crdtool.cel.protos as protos
    import crdtool.engine.lint as lint

    crds = [str(FIXTURES / "crontab-cel" / "crd.yaml"), str(FIXTURES / "crontab-validated" / "crd.yaml"),
            str(FIXTURES / "pizza")]
    args = ["--format", "json", "validate", *(a for c in crds for a in ("-c", c)),
            str(FIXTURES / "crontab-cel" / "invalid.yaml")]
    cold = run_here(*args)
    assert cold.exit_code == 1
    compiler._cache.clear()
    compiler._by_fingerprint.clear()

    def no_lint(*_args, **_kwargs):
        raise AssertionError("a CRD was linted though its verdict is cached")

    compiled: list[tuple] = []
    real = protos.build_schema_types
    monkeypatch.setattr(lint, "lint_document", no_lint)
    monkeypatch.setattr(protos, "build_schema_types", lambda *a: compiled.append(a) or real(*a))
    warm = run_here(*args)
    assert (warm.exit_code, warm.output) == (cold.exit_code, cold.output)
    assert compiled == []  # the rules of the object's nodes come compiled from the cache


def test_no_cache_and_the_setting_turn_it_off(tmp_path: Path, monkeypatch) -> None:
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(cache_dir))
    args = ["lint", str(FIXTURES / "crontab" / "crd.yaml")]
    assert CliRunner().invoke(cli, ["--no-cache", *args]).exit_code == 0
    assert not cache_dir.exists()
    settings = tmp_path / ".crdtool.yaml"
    settings.write_text("cache: false\n")
    assert CliRunner().invoke(cli, ["--config", str(settings), *args]).exit_code == 0
    assert not cache_dir.exists()
    settings.write_text("cache: 'no'\n")
    refused = CliRunner().invoke(cli, ["--config", str(settings), *args])
    assert refused.exit_code == 2 and '"cache" must be true or false' in refused.output
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert entries(cache_dir)


def test_cache_dir_and_clean(tmp_path: Path, monkeypatch) -> None:
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(cache_dir))
    shown = CliRunner().invoke(cli, ["cache", "dir"])
    assert (shown.exit_code, shown.output) == (0, f"{cache_dir}\n")
    assert CliRunner().invoke(cli, ["lint", str(FIXTURES / "crontab" / "crd.yaml")]).exit_code == 0
    assert entries(cache_dir)
    cleaned = CliRunner().invoke(cli, ["cache", "clean"])
    assert cleaned.exit_code == 0 and cleaned.output.startswith("removed ") and str(cache_dir) in cleaned.output
    assert not cache_dir.exists()
    again = CliRunner().invoke(cli, ["cache", "clean"])
    assert (again.exit_code, again.output) == (0, f"removed 0 bytes from {cache_dir}\n")


SET_LIST_CRD = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget}
  scope: Namespaced
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
              v:
                type: array
                items: {type: string, maxLength: 64}
                x-kubernetes-list-type: set
                maxItems: 10
                x-kubernetes-validations:
                - rule: "(self + ['c', 'a'])[1] == 'c'"
"""


def test_a_rule_over_a_set_list_answers_the_same_from_the_cache(tmp_path: Path) -> None:
    """A set list's `+` is a union (the apiserver's list semantics): a compiled rule read back from the
    cache must keep it, for another object of the same CRD too."""
    crd = tmp_path / "crd.yaml"
    crd.write_text(SET_LIST_CRD)
    first, second = tmp_path / "a.yaml", tmp_path / "b.yaml"
    first.write_text("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {v: [a, x]}\n")
    second.write_text("apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {v: [a, x, c]}\n")
    cache_dir = tmp_path / "cache"
    answers = [crdtool(cache_dir, "validate", "--format", "kubectl", "-c", str(crd), str(path)).stderr
               for path in (first, second, first, second)]
    refusal = b"""The Widget "w1" is invalid: spec.v: Invalid value: failed rule: (self + ['c', 'a'])[1] == 'c'\n"""
    assert answers == [refusal] * 4


STORED_V1 = """apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget}
  scope: Namespaced
  versions:
  - name: VERSION
    served: true
    storage: true
    schema:
      openAPIV3Schema: {type: object}
status:
  storedVersions: [v1]
"""


def test_lint_old_verdicts_come_from_the_cache_and_an_update_is_not_taken_for_a_create(tmp_path: Path,
                                                                                         monkeypatch) -> None:
    """A CRD dropping its stored version v1 is a valid create but a refused update: the cache keys an
    update's verdict by both documents."""
    import crdtool.cel.compiler as compiler
    import crdtool.engine.lint as lint

    old, new = tmp_path / "old.yaml", tmp_path / "new.yaml"
    old.write_text(STORED_V1.replace("VERSION", "v1"))
    new.write_text(STORED_V1.replace("VERSION", "v2"))
    cache_dir = tmp_path / "cache"
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(cache_dir))
    runs = [["lint", str(new)], ["lint", "--old", str(old), str(new)], ["lint", "--old", str(old), str(old)]]
    uncached = [run_here("--no-cache", *args) for args in runs]
    assert [r.exit_code for r in uncached] == [0, 1, 0]
    cold = [run_here(*args) for args in runs]
    compiler._cache.clear()
    compiler._by_fingerprint.clear()

    def no_lint(*_args, **_kwargs):
        raise AssertionError("a CRD was linted though its verdict is cached")

    monkeypatch.setattr(lint, "lint_document", no_lint)
    warm = [run_here(*args) for args in runs]
    assert [(r.exit_code, r.output) for r in cold] == [(r.exit_code, r.output) for r in warm] == \
        [(r.exit_code, r.output) for r in uncached]


def test_explain_reads_its_crd_files_from_the_cache(tmp_path: Path, monkeypatch) -> None:
    import crdtool.load.cached as cached

    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    args = ["explain", "-c", str(FIXTURES / "crontab-validated"), "crontabs.spec"]
    uncached = run_here("--no-cache", *args)
    assert uncached.exit_code == 0 and "cronSpec" in uncached.output
    cold = run_here(*args)
    assert entries(tmp_path / "cache")  # the documents of the CRD file
    monkeypatch.setattr(cached, "read_source", lambda *a: (_ for _ in ()).throw(AssertionError("parsed")))
    warm = run_here(*args)
    assert (cold.exit_code, cold.output) == (warm.exit_code, warm.output) == (uncached.exit_code, uncached.output)


def test_jobs_read_crd_files_from_the_cache_and_fill_it(tmp_path: Path, monkeypatch) -> None:
    """`--jobs 2`: the CRD files the workers read are stored (cold), and a warm run takes them from the
    cache instead of handing them to the workers, with the answers of one process without the cache."""
    import crdtool.load.sources as sources

    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    crds = str(FIXTURES / "crontab-validated")
    args = ["validate", "--format", "json", "-c", crds, str(FIXTURES / "crontab-cel"), "--skip-unknown-kinds"]
    uncached = run_here("--no-cache", *args)
    assert uncached.exit_code == 1 and '"results"' in uncached.output  # an invalid object among them
    cold = run_here(*args, "--jobs", "2")
    assert entries(tmp_path / "cache")
    real_read = sources._read_in_worker

    def objects_only(path: str):
        if path.startswith(crds):
            raise AssertionError(f"{path} was read though the cache holds it")
        return real_read(path)

    monkeypatch.setattr(sources, "_read_in_worker", objects_only)  # the workers are forked after this
    warm = run_here(*args, "--jobs", "2")
    assert (cold.exit_code, cold.output) == (warm.exit_code, warm.output) == (uncached.exit_code, uncached.output)


def test_a_warm_one_object_run_imports_no_admission_plugin_nor_rule_checking(tmp_path: Path) -> None:
    """What a warm run of one object against a CRD with CEL rules imports: neither the admission plugins
    (no admissionregistration.k8s.io object among the inputs) nor the modules that check rules (they come
    compiled from the cache), nor the quantities the rules do not use; nor hashlib (it loads OpenSSL) nor
    protobuf's descriptor messages."""
    args = ["validate", "-c", str(FIXTURES / "crontab-cel" / "crd.yaml"),
            str(FIXTURES / "crontab-cel" / "invalid.yaml")]
    packages = ("crdtool.admission.policy", "crdtool.admission.webhooks", "crdtool.cel.admission", "crdtool.cel.depth",
                "crdtool.cel.literals", "crdtool.cel.homogeneous", "crdtool.cel.format_validator",
                "crdtool.model.quantity",  # only a rule calling quantity() needs it
                "hashlib", "_hashlib", "google.protobuf.descriptor_pb2", "crdtool.cel.protos")
    env = {**os.environ, "CRDTOOL_CACHE_DIR": str(tmp_path / "cache")}
    cold, warm = (imported_by(["--no-config", *args], packages, env=env, cwd=ROOT) for _ in range(2))
    assert cold.code == warm.code == 1
    assert cold.modules  # cold: the rules are checked
    assert warm.modules == []


def test_a_warm_one_object_run_imports_no_dataclass(tmp_path: Path) -> None:
    """The records of a `validate` of one object against a CRD with rules are Records (model/record.py):
    a dataclass's methods are compiled as its module is imported, at a cost the start-up pays."""
    args = ["validate", "-c", str(FIXTURES / "crontab-cel" / "crd.yaml"),
            str(FIXTURES / "crontab-cel" / "invalid.yaml")]
    env = {**os.environ, "CRDTOOL_CACHE_DIR": str(tmp_path / "cache")}
    imported_by(["--no-config", *args], (), env=env, cwd=ROOT)
    warm = imported_by(["--no-config", *args], ("crdtool",), env=env, cwd=ROOT)
    assert warm.code == 1 and "crdtool.engine.results" in warm.modules and "crdtool.cel.compiler" in warm.modules
    dataclasses_defined = [f"{name}.{value.__qualname__}" for name in warm.modules
                           for value in vars(importlib.import_module(name)).values()
                           if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == name]
    assert dataclasses_defined == []


def test_a_cold_run_stores_all_a_warm_run_reads(tmp_path: Path) -> None:
    """The rules lint compiled are stored when the object's evaluation first uses them: the next run
    finds everything and writes nothing."""
    cache_dir = tmp_path / "cache"
    args = ["validate", "-c", str(FIXTURES / "crontab-cel" / "crd.yaml"),
            str(FIXTURES / "crontab-cel" / "invalid.yaml")]
    cold = crdtool(cache_dir, *args)
    stored = {p: p.stat().st_mtime_ns for p in entries(cache_dir)}
    warm = crdtool(cache_dir, *args)
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert {p: p.stat().st_mtime_ns for p in entries(cache_dir)} == stored


def test_lint_against_answers_the_same_from_the_cache_and_compares_nothing_again(tmp_path: Path,
                                                                                 monkeypatch) -> None:
    """`lint --against`: every output is the same without the cache, cold and warm, and a warm run neither
    lints nor compares a CRD. The key holds both documents: another old CRD is compared again."""
    import crdtool.engine.lint as lint
    import crdtool.upgrade.check as check

    upgrade = FIXTURES / "upgrade"
    new = tmp_path / "new"
    new.mkdir()
    for name in ("new-field-removed.yaml", "new-unchanged.yaml"):
        shutil.copy(upgrade / name, new / name)
    (new / "extra.yaml").write_text(STORED_V1.replace("VERSION", "v1"))  # no old CRD of its name: a create
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(tmp_path / "cache"))
    runs = [["--format", fmt, "lint", "--fail-on", "warning", "--against", str(upgrade / "old.yaml"), str(new)]
            for fmt in FORMATS]
    uncached = [run_here("--no-cache", *args) for args in runs]
    assert {r.exit_code for r in uncached} == {1}
    cold = [run_here(*args) for args in runs]

    def no_lint(*_args, **_kwargs):
        raise AssertionError("a CRD was linted or compared though its answer is cached")

    monkeypatch.setattr(lint, "lint_document", no_lint)
    monkeypatch.setattr(check, "compare", no_lint)
    warm = [run_here(*args) for args in runs]
    assert [(r.exit_code, r.output) for r in cold] == [(r.exit_code, r.output) for r in warm] == \
        [(r.exit_code, r.output) for r in uncached]
    compared: list[str] = []
    monkeypatch.setattr(check, "compare", lambda doc, *_args: compared.append(doc.source) or no_lint())
    other_old = tmp_path / "other-old.yaml"
    other_old.write_text((upgrade / "old.yaml").read_text() + "\n# another file\n")
    run_here("lint", "--against", str(other_old), str(new))
    assert compared
