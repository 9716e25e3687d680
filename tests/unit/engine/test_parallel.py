"""`--jobs`: the same answers from several processes as from one, and a progress bar only on a terminal."""

from __future__ import annotations

import io
import json
import os

import pytest
from builtin_cases import deployment_yaml
from click.testing import CliRunner

from crdtool.cli import cli
from crdtool.engine.parallel import CHUNK, PendingTasks, Task, plan_tasks
from crdtool.load import sources
from crdtool.load.document import Document

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "fixtures")


def _crd(group: str, kind: str) -> Document:
    return Document("crds.yaml", 0, {"kind": "CustomResourceDefinition",
                                     "spec": {"group": group, "names": {"kind": kind}}})


def _obj(api_version: str, kind: str) -> Document:
    return Document("objs.yaml", 0, {"apiVersion": api_version, "kind": kind})


def test_tasks_keep_a_kind_with_its_crds_and_split_large_kinds() -> None:
    crds = [_crd("a.io", "A"), _crd("b.io", "B"), _crd("c.io", "C")]
    objects = [_obj("a.io/v1", "A")] * (CHUNK + 5) + [_obj("b.io/v1", "B"), _obj("x.io/v1", "X")]
    tasks = plan_tasks(crds, objects)
    assert [(t.crds, len(t.objects)) for t in tasks] == [((0,), CHUNK), ((0,), 5), ((1,), 1), ((), 1), ((2,), 0)]
    assert sorted(i for t in tasks for i in t.objects) == list(range(len(objects)))


def test_a_worker_is_handed_the_next_slice_of_the_crds_it_has_built() -> None:
    tasks = [Task((0,), (1, 2)), Task((1,), (3, 4)), Task((0,), (5, 6)), Task((), (7,)), Task((), (8,))]
    pending = PendingTasks(tasks)
    assert pending.take(None) == 0  # a new worker: the largest task first
    assert pending.take(None) == 1
    assert pending.take((0,)) == 2  # the other slice of CRD 0, ahead of its turn
    assert pending.take((0,)) == 3  # none left of CRD 0: the next in order
    assert pending.take((1,)) == 4
    assert pending.take(None) is None


def _validate(*args: str):
    result = CliRunner().invoke(cli, ["--no-config", "validate", "--format", "json", *args], catch_exceptions=False)
    return result.exit_code, json.loads(result.output)


def test_jobs_give_the_same_results_in_the_same_order(tmp_path) -> None:
    fixtures = os.path.abspath(FIXTURES)
    (tmp_path / "deployment.yaml").write_text(DEPLOYMENT)
    inputs = [f"{fixtures}/crontab-validated", f"{fixtures}/crontab-cel", str(tmp_path / "deployment.yaml"),
              f"{fixtures}/crontab"]
    one = _validate(*inputs, "--skip-unknown-kinds")
    two = _validate(*inputs, "--skip-unknown-kinds", "--jobs", "2")
    assert one == two
    assert one[0] == 1 and len(one[1]["results"]) > 5  # invalid objects among them: errors travel back too
    assert [r["kind"] for r in one[1]["results"]].count("Deployment") == 1  # built-in objects are checked too


#: A built-in object with an unknown field to prune and fields to default.
DEPLOYMENT = deployment_yaml(container="        unknownField: 1\n")


@pytest.mark.parametrize("command", ["prune", "default"])
@pytest.mark.parametrize("output", [[], ["-o", "diff"], ["-o", "yaml"], ["--format", "json"]])
def test_jobs_prune_and_default_as_one_process(tmp_path, command, output) -> None:
    """prune and default with --jobs: objects of several kinds and built-in ones, the stored objects
    and the file edits made where each result is made, the same as one process's."""
    fixtures = os.path.abspath(FIXTURES)
    (tmp_path / "deployment.yaml").write_text(DEPLOYMENT)
    inputs = [f"{fixtures}/crontab-validated", f"{fixtures}/pizza", str(tmp_path / "deployment.yaml")]
    one = CliRunner().invoke(cli, ["--no-config", command, *output, *inputs], catch_exceptions=False)
    two = CliRunner().invoke(cli, ["--no-config", command, *output, *inputs, "--jobs", "2"], catch_exceptions=False)
    assert (one.exit_code, one.output) == (two.exit_code, two.output)
    assert one.exit_code in (0, 1) and "nginx" in one.output  # the built-in object is among the answers


def test_no_progress_bar_off_a_terminal() -> None:
    fixtures = os.path.abspath(FIXTURES)
    result = CliRunner().invoke(cli, ["--no-config", "validate", "-j", "2", f"{fixtures}/crontab"])
    assert result.exit_code == 0 and "checking" not in result.output


def test_progress_bar_on_a_terminal(monkeypatch) -> None:
    from crdtool.cli import resources

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    with resources._ProgressBar() as bar:
        bar.start(resources.PROGRESS_AT)
        bar.advance(resources.PROGRESS_AT)
    shown = terminal.getvalue()
    assert "checking" in shown
    with resources._ProgressBar() as bar:  # too few to bother
        bar.start(resources.PROGRESS_AT - 1)
        bar.advance(1)
    assert terminal.getvalue() == shown


def _in_a_process(code: str, *limits: tuple[int, int]):
    """Run `code` in a fresh interpreter, bounded in time (a hang fails the test instead of hanging
    it) and, with `limits`, in address space."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        for value in limits:
            resource.setrlimit(resource.RLIMIT_AS, value)

    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          preexec_fn=limit, cwd=os.path.dirname(os.path.abspath(__file__)))


def test_a_worker_that_dies_ends_the_run_with_an_error_not_a_wait() -> None:
    out = _in_a_process("""
import os
from crdtool.engine.parallel import Task, WorkerError, run_tasks

def exit_in_worker(task):
    os._exit(7)

def raise_in_worker(task):
    raise ValueError(f"task with {len(task.objects)} objects")

tasks = [Task((), (i,)) for i in range(6)]
try:
    run_tasks(tasks, exit_in_worker, 2)
except WorkerError as err:
    print(err)
try:
    run_tasks(tasks, raise_in_worker, 2)
except ValueError as err:
    print(err)
print(run_tasks(tasks, lambda task: task.objects[0] * 10, 2))
""")
    assert out.stdout.splitlines() == [
        "a worker process (--jobs 2) ended without an answer (exit code 7); try --jobs 1",
        "task with 1 objects",  # a worker's exception is the run's
        "[0, 10, 20, 30, 40, 50]"], out.stderr


def test_a_worker_that_ended_before_its_next_task_is_sent_is_a_worker_error() -> None:
    """The next task goes to a worker before it answers the one it has; if it has ended meanwhile, the
    send fails, and that is the same WorkerError as a missing answer (never a BrokenPipeError)."""
    from crdtool.engine.parallel import Task, WorkerError, _share_out

    class Ended:
        exitcode = 7

        def join(self, _timeout: float) -> None:
            pass

    class Closed:
        def send(self, _task: object) -> None:
            raise BrokenPipeError(32, "Broken pipe")

    with pytest.raises(WorkerError, match=r"ended without an answer \(exit code 7\)"):
        _share_out([Task((), (0,))], [(Ended(), Closed())], 2, None)


def test_cli_a_dying_worker_is_exit_2_with_a_message() -> None:
    fixtures = os.path.abspath(FIXTURES)
    out = _in_a_process(f"""
import os, sys
from crdtool.cli import main
from crdtool.engine import run
run._check_object = lambda *args: os._exit(9)
sys.argv = ["crdtool", "--no-config", "validate", "-j", "2", "{fixtures}/crontab-validated", "{fixtures}/crontab-cel"]
main()
""")
    assert out.returncode == 2
    assert out.stderr == ("crdtool: error: a worker process (--jobs 2) ended without an answer (exit code 9); "
                          "try --jobs 1\n")


def test_jobs_under_a_2_gib_address_space_limit() -> None:
    fixtures = os.path.abspath(FIXTURES)
    out = _in_a_process(f"""
import sys
from crdtool.cli import main
sys.argv = ["crdtool", "--no-config", "validate", "-j", "2", "{fixtures}/crontab-validated", "{fixtures}/crontab-cel"]
main()
""", (2 * 1024**3, 2 * 1024**3))
    assert out.returncode == 1, out.stderr  # the fixtures' invalid objects, found by both workers
    assert "internal error" not in out.stderr
    assert "would be rejected" in out.stdout


@pytest.mark.parametrize("batch_bytes", [1, sources.BATCH_BYTES], ids=["file-by-file", "batched"])
def test_workers_read_the_files_with_the_same_documents_positions_and_errors(tmp_path, monkeypatch,
                                                                              batch_bytes) -> None:
    """--jobs reads the files in the workers: the same documents in the same order, positions
    composed again when asked, and the first unreadable input in input order is the error."""
    from crdtool.engine.parallel import run_tasks

    monkeypatch.setattr(sources, "BATCH_BYTES", batch_bytes)
    from crdtool.errors import InputError
    from crdtool.load.sources import load_inputs

    def in_workers(items, work):
        return run_tasks(items, work, 2)

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.yaml").write_text("kind: A\nmetadata:\n  name: a\n---\nkind: B\nx: 1\nx: 2\n")
    (folder / "b.json").write_text('{"kind": "List", "items": [{"kind": "C"}, {"kind": "D", "y": [1]}]}')
    (folder / "c.yaml").write_text("\n# only a comment\n")
    (folder / "d.yml").write_text("kind: E\nspec:\n  deep:\n    z: 1\n")
    paths = [str(folder), str(folder / "d.yml")]
    one, two = load_inputs(paths), load_inputs(paths, in_workers=in_workers)
    assert [(d.source, d.index, d.item, d.data, d.duplicate_keys) for d in two] == [
        (d.source, d.index, d.item, d.data, d.duplicate_keys) for d in one]
    assert len(two) == 6 and two[1].duplicate_keys and two[1].locate(("x",)) == (7, 1)
    assert two[3].locate(("y", 0)) == one[3].locate(("y", 0)) and two[5].locate(("spec", "deep", "z")) == (4, 5)
    (folder / "b.json").write_text("kind: [\n")
    (folder / "c.yaml").write_text(": :\n  - x\n")
    for given in ([str(folder)], [str(folder / "d.yml"), str(folder), str(tmp_path / "missing.yaml")],
                  [str(folder / "c.yaml"), str(tmp_path / "missing.yaml")], [str(tmp_path / "missing.yaml")],
                  [str(folder / "d.yml"), str(folder / "d.yml"), str(tmp_path)]):
        errors = []
        for mapper in (None, in_workers):
            try:
                load_inputs(given, in_workers=mapper)
                errors.append(None)
            except InputError as err:
                errors.append(str(err))
        assert errors[0] == errors[1] and errors[0] is not None, given


class Known:
    """KnownFiles holding the documents of `paths` (as a cache would), told what the workers read."""

    def __init__(self, paths: list[str]) -> None:
        self.held = {path: sources.read_source(path) for path in paths}
        self.learned: list[str] = []

    def documents(self, path: str):
        return self.held.get(path)

    def learn(self, parts, docs) -> None:
        self.learned.append(parts.display)
        assert [d.data for d in docs] == [d.data for d in sources.read_source(parts.display)]


def test_several_lists_are_read_by_one_set_of_workers_and_known_files_are_not_read(tmp_path, monkeypatch) -> None:
    """The objects and the CRDs of a run are read together; files a list's `known` holds are not read
    again but come from it, the others are learned; each list is answered in order, with its own walk
    warnings and first error before anything of the next list."""
    from crdtool.engine.parallel import run_tasks
    from crdtool.errors import InputError

    for name, kind in (("a.yaml", "A"), ("b.yaml", "B"), ("c.yaml", "C"), ("d.yaml", "D")):
        (tmp_path / name).write_text(f"kind: {kind}\nspec:\n  x: 1\n")
    a, b, c, d = (str(tmp_path / n) for n in ("a.yaml", "b.yaml", "c.yaml", "d.yaml"))
    known = Known([c])
    read_in_workers: list[str] = []
    real_read = sources._read_in_worker

    def recorded(path: str):
        read_in_workers.append(path)
        return real_read(path)

    monkeypatch.setattr(sources, "_read_in_worker", recorded)
    monkeypatch.setattr(sources, "BATCH_BYTES", 1)

    def in_workers(items, work):  # run here: what the workers are asked is recorded
        return [work(item) for item in items]

    objects, crds = sources.load_in_workers([([a, b], None), ([c, d], known)], in_workers)
    assert [doc.kind for doc in objects] == ["A", "B"] and [doc.kind for doc in crds] == ["C", "D"]
    assert sorted(read_in_workers) == [a, b, d] and known.learned == [d]
    assert crds[0].locate(("spec", "x")) == (3, 3)
    sub = tmp_path / "sub"
    sub.mkdir()
    os.mkfifo(sub / "pipe.yaml")
    told: list[str] = []
    (tmp_path / "b.yaml").write_text("kind: [\n")
    (tmp_path / "d.yaml").write_text("kind: [\n")
    with pytest.raises(InputError) as err:
        sources.load_in_workers([([a, b], None), ([str(sub), d], None)], in_workers,
                                lambda path, why: told.append(path))
    assert err.value.source == b and told == []  # the objects' error; the CRDs' walk is not told
    with pytest.raises(InputError) as err:
        sources.load_in_workers([([a], None), ([str(sub), d], None)], lambda items, work: run_tasks(items, work, 2),
                                lambda path, why: told.append(path))
    assert err.value.source == d and told == [str(sub / "pipe.yaml")]


def test_jobs_read_stdin_in_the_parent() -> None:
    fixtures = os.path.abspath(FIXTURES)
    with open(f"{fixtures}/crontab/my-crontab.yaml") as f:
        text = f.read()
    args = ["--no-config", "validate", "--format", "json", "-c", f"{fixtures}/crontab", "-", f"{fixtures}/crontab"]
    one = CliRunner().invoke(cli, args, input=text)
    two = CliRunner().invoke(cli, [*args, "--jobs", "2"], input=text)
    assert one.exit_code == two.exit_code == 0 and one.output == two.output
    assert "<stdin>" in [r["file"] for r in json.loads(two.output)["results"]]
