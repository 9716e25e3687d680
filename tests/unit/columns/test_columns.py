"""Printer columns: JSONPath (the examples of kubectl's JSONPath documentation), cell typing,
ages, kubectl get's layout, and `crdtool columns` end to end."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.cli import cli
from crdtool.columns.humanize import human_duration
from crdtool.columns.jsonpath import JSONPath, JSONPathError, print_results
from crdtool.columns.printer import PrintOptions, render
from crdtool.columns.table import Column, Convertor, Row, Table, cell_for

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "crontab-columns"
CRD, OBJECTS = str(FIXTURES / "crd.yaml"), str(FIXTURES / "crontabs.yaml")
NOW = datetime(2026, 1, 1, tzinfo=UTC)

# The input of the JSONPath page of the kubectl reference.
DOC = {
    "kind": "List",
    "items": [
        {"kind": "None", "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1"}},
         "status": {"capacity": {"cpu": "4"}, "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]}},
        {"kind": "None", "metadata": {"name": "127.0.0.2"},
         "status": {"capacity": {"cpu": "8"}, "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.2"},
                                                            {"type": "another", "address": "127.0.0.3"}]}},
    ],
    "users": [{"name": "myself", "user": {}}, {"name": "e2e", "user": {"username": "admin", "password": "secret"}}],
}


def text(template: str, data=DOC) -> str:
    return "".join(print_results(values) for values in JSONPath(template).find(data))


@pytest.mark.parametrize("template, expected", [
    ("{.kind}", "List"),
    ("{['kind']}", "List"),
    ("{.items[*].metadata.name}", "127.0.0.1 127.0.0.2"),
    ("{.items[0].metadata.name}", "127.0.0.1"),
    ("{.items[-1].metadata.name}", "127.0.0.2"),
    ("{.items[0:1].metadata.name}", "127.0.0.1"),
    ("{.items[*]['metadata.name', 'status.capacity']}", '127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}'),
    ('{.users[?(@.name=="e2e")].user.password}', "secret"),
    ("{.items[0].metadata.labels.kubernetes\\.io/hostname}", "127.0.0.1"),
    ("{range .items[*]}[{.metadata.name}, {.status.capacity.cpu}] {end}", "[127.0.0.1, 4] [127.0.0.2, 8] "),
    ("{.items[*].status.addresses[?(@.type!=\"LegacyHostIP\")].address}", "127.0.0.3"),
    ("{.items[?(@.status.capacity.cpu)].metadata.name}", "127.0.0.1 127.0.0.2"),
])
def test_kubectl_jsonpath_examples(template: str, expected: str) -> None:
    assert text(template) == expected


def test_recursive_descent_finds_every_level_in_document_order() -> None:
    assert JSONPath.column("..name").find(DOC) == [["127.0.0.1", "127.0.0.2", "myself", "e2e"]]


def test_missing_keys_give_nothing_and_errors_are_client_gos() -> None:
    assert JSONPath.column(".spec.nothing").find({"spec": {}}) == [[]]
    with pytest.raises(JSONPathError, match=r"array index out of bounds: index 9, length 2"):
        JSONPath.column(".l[9]").find({"l": [1, 2]})
    with pytest.raises(JSONPathError, match="string is not array or slice"):
        JSONPath.column(".l[0]").find({"l": "notalist"})
    with pytest.raises(JSONPathError, match="can only compare one element at a time"):
        JSONPath.column('.c[?(@.type=="Ready")]').find({"c": [{"status": "x"}]})
    with pytest.raises(JSONPathError, match="incompatible types for comparison"):
        JSONPath.column(".c[?(@.n==1)]").find({"c": [{"n": 1.5}]})


def _random_tree(rng, depth: int):
    """A JSON value with shared subtrees (as YAML aliases make them) and strings, numbers, nulls."""
    pool: list = []

    def make(level: int):
        roll = rng.random()
        if level >= depth or roll < 0.2:
            return rng.choice([None, 1, 2.5, True, "", "ab", "x"])
        if pool and roll < 0.3:
            return rng.choice(pool)
        if roll < 0.65:
            value = {rng.choice("abxy"): make(level + 1) for _ in range(rng.randint(0, 3))}
        else:
            value = [make(level + 1) for _ in range(rng.randint(0, 3))]
        pool.append(value)
        return value

    return {"spec": make(0)}


@pytest.mark.parametrize("path", [".spec..x", ".spec..x..y", "..a..b..x", ".spec..a.*..y", "..x.b..a..y",
                                  ".spec..x[0]..y", ".spec..b..x[*]", "..a..nothing"])
def test_a_columns_first_value_is_the_first_of_client_gos_whole_result(path: str) -> None:
    import random

    rng = random.Random(path)
    for _ in range(300):
        data = _random_tree(rng, 6)
        parsed = JSONPath.column(path)
        try:
            whole = parsed.find(data)
        except JSONPathError:
            whole = None
        try:
            first = parsed.first(data)
        except LookupError:
            assert whole is None or not whole[0], (path, data)
            continue
        assert whole is not None and whole[0], (path, data)
        assert first is whole[0][0], (path, data)


def test_recursive_descent_is_linear_in_the_objects_size() -> None:
    import time

    deep: dict = {}
    cur = deep
    for i in range(20000):  # client-go's result of `..x..y` here holds 200 million values
        cur["x"] = {"n": i, "l": [i, "s"]}
        cur = cur["x"]
    data = {"spec": deep}
    start = time.monotonic()
    assert JSONPath.column(".spec..x..n").first(data) == 0
    with pytest.raises(LookupError):
        JSONPath.column(".spec..x..nothing").first(data)
    assert JSONPath.column(".spec..l").find(data)[0] == [[i, "s"] for i in range(20000)]
    assert time.monotonic() - start < 10  # the cubic walk took minutes here


@pytest.mark.parametrize("bad", ["{.a", "{.a[1}", "{.a[x]}", "{....a}", "{.a[?(@.b==1}"])
def test_unparsable_paths(bad: str) -> None:
    with pytest.raises(JSONPathError):
        JSONPath(bad)


@pytest.mark.parametrize("seconds, age", [
    (-3, "<invalid>"), (-1.5, "0s"), (0, "0s"), (119, "119s"), (125, "2m5s"), (600, "10m"), (10799, "179m"),
    (14600, "4h3m"), (28800, "8h"), (108100, "30h"), (277300, "3d5h"), (691200, "8d"), (34560100, "400d"),
    (365 * 2 * 86400, "2y"), (2517 * 86400, "6y327d"), (9 * 365 * 86400, "9y"),
])
def test_human_duration(seconds: float, age: str) -> None:
    assert human_duration(timedelta(seconds=seconds)) == age


def test_cells_are_typed_as_the_apiserver_types_them() -> None:
    assert cell_for("integer", 1.9, NOW) == 1
    assert cell_for("integer", "3", NOW) is None
    assert cell_for("number", 3, NOW) == 3.0
    assert cell_for("boolean", "true", NOW) is None
    assert cell_for("string", 5, NOW) == "5"
    assert cell_for("string", ["a", "b"], NOW) == '["a","b"]'
    assert cell_for("string", {"b": 1, "a": 2.5}, NOW) == '{"a":2.5,"b":1}'
    assert cell_for("date", "yesterday", NOW) == "<invalid>"
    assert cell_for("date", "2025-12-31T23:00:00+01:00", NOW) == "120m"
    assert cell_for("date", 12, NOW) is None
    assert cell_for("date", "2025-02-30T00:00:00Z", NOW) == "<invalid>"
    assert cell_for("date", "2025-12-31T23:59:59.9Z", NOW) == "0s"


def test_a_version_without_columns_gets_age_and_unparsable_columns_the_generic_table() -> None:
    assert [c.name for c in Convertor(None).columns] == ["Name", "Age"]
    generic = Convertor([{"name": "Bad", "type": "string", "jsonPath": ".a[x]"}])
    assert [c.name for c in generic.columns] == ["Name", "Created At"]
    assert generic.cells({"metadata": {"name": "n", "creationTimestamp": "2025-01-01T01:02:03Z"}}, NOW) == \
        ["n", "2025-01-01T01:02:03Z"]


def _table(rows: list[list], priority: int = 0) -> Table:
    columns = [Column("Name", "string", "name"), Column("Value", "string"), Column("Extra", "string",
                                                                                  priority=priority)]
    table = Table("example.com", "Widget", "v1", True, columns)
    table.rows = [Row(cells, {"metadata": {"namespace": "default"}}) for cells in rows]
    return table


def test_layout_minimum_width_padding_and_trailing_cells() -> None:
    table = _table([["w1", None, "x"], ["a-long-name", "two", None]])
    assert render([table], PrintOptions()) == (
        "NAME          VALUE   EXTRA\n"
        "w1                    x\n"
        "a-long-name   two     \n")
    assert render([table], PrintOptions(no_headers=True)) == (
        "w1                  x\n"
        "a-long-name   two   \n")


def test_a_cell_is_cut_at_a_line_break_but_its_column_sized_by_the_whole_value() -> None:
    # kubectl pads the header to the longest cell's byte length before cutting cells at a line break.
    table = _table([["w1", "two\nlines", "x"]])
    assert render([table], PrintOptions()) == (
        "NAME   VALUE       EXTRA\n"
        "w1     two...      x\n")


def test_wide_columns_and_kinds() -> None:
    table = _table([["w1", "v", "e"]], priority=1)
    assert render([table], PrintOptions()) == "NAME   VALUE\nw1     v\n"
    assert render([table], PrintOptions(wide=True)) == "NAME   VALUE   EXTRA\nw1     v       e\n"
    other = Table("", "Gadget", "v1", True, [Column("Name", "string", "name")],
                  [Row(["g1"], {"metadata": {"namespace": "default"}})])
    assert render([table, other], PrintOptions(all_namespaces=True, with_kind=True)) == (
        "NAMESPACE   NAME                    VALUE\n"
        "default     widget.example.com/w1   v\n"
        "\n"
        "NAMESPACE   NAME\n"
        "default     gadget/g1\n")


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args), env={"NO_COLOR": "1"})


def test_cli_lists_the_default_namespace_like_kubectl() -> None:
    res = invoke("columns", "-c", CRD, OBJECTS, "--now", "2026-01-01T00:00:00Z")
    assert res.exit_code == 0, res.output
    assert res.stdout == ("NAME      SPEC        REPLICAS   READY   AGE\n"
                          "nightly   0 3 * * *   1          True    4h\n")


def test_cli_all_namespaces_wide() -> None:
    res = invoke("columns", "-c", CRD, OBJECTS, "--now", "2026-01-01T00:00:00Z", "-A", "-o", "wide")
    assert res.stdout == (
        "NAMESPACE   NAME                 SPEC          REPLICAS   READY   IMAGE                   AGE\n"
        "default     nightly              0 3 * * *     1          True    backup:1.2              4h\n"
        "team-b      every-five-minutes   */5 * * * *   3                  my-awesome-cron-image   3d5h\n")


def test_cli_empty_namespace_is_said_on_stderr() -> None:
    res = invoke("columns", "-c", CRD, OBJECTS, "-n", "elsewhere")
    assert res.exit_code == 0
    assert res.stdout == ""
    assert res.stderr == "No resources found in elsewhere namespace.\n"


def test_cli_json_is_the_table_of_every_object() -> None:
    res = invoke("columns", "-c", CRD, OBJECTS, "--now", "2026-01-01T00:00:00Z", "--format", "json")
    table = json.loads(res.stdout)
    assert table["kind"] == "Table"
    assert [c["name"] for c in table["columnDefinitions"]] == ["Name", "Spec", "Replicas", "Ready", "Image", "Age"]
    assert table["rows"] == [["nightly", "0 3 * * *", 1, "True", "backup:1.2", "4h"],
                             ["every-five-minutes", "*/5 * * * *", 3, None, "my-awesome-cron-image", "3d5h"]]


def test_cli_unknown_kind_and_bad_now(tmp_path: Path) -> None:
    stray = tmp_path / "stray.yaml"
    stray.write_text("apiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g}\n")
    res = invoke("columns", "-c", CRD, str(stray))
    assert res.exit_code == 1
    assert "no CustomResourceDefinition for example.com/v1, Kind=Gizmo" in res.stderr
    res = invoke("columns", "-c", CRD, OBJECTS, "--now", "yesterday")
    assert res.exit_code == 2
    assert "RFC 3339" in res.output


def test_cli_in_a_real_process() -> None:
    out = subprocess.run([sys.executable, "-m", "crdtool", "columns", "-c", CRD, OBJECTS, "--no-headers",
                          "--now", "2026-01-01T00:00:00Z"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "nightly   0 3 * * *   1     True   4h\n"


@pytest.mark.parametrize("metadata, problem", [
    ("[]", "json: cannot unmarshal array into Go value of type v1.ObjectMeta"),
    ("5", "json: cannot unmarshal number into Go value of type v1.ObjectMeta"),
    ('"x"', "json: cannot unmarshal string into Go value of type v1.ObjectMeta"),
    ("{name: x, namespace: []}",
     "json: cannot unmarshal array into Go struct field ObjectMeta.namespace of type string"),
    ("{name: x, labels: [a]}",
     "json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string"),
])
def test_cli_an_object_the_apiserver_cannot_decode_is_not_listed(tmp_path: Path, metadata: str,
                                                                  problem: str) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(f"apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {metadata}\nspec: {{}}\n")
    for extra in ((), ("-A",), ("--format", "json")):
        res = invoke("columns", "-c", CRD, OBJECTS, str(bad), "--now", "2026-01-01T00:00:00Z", *extra)
        assert res.exit_code == 1, res.output
        assert res.stderr == (f'error: {bad}#0: CronTab in version "v1" cannot be handled as a CronTab: '
                              f"{problem}\n")
        assert "nightly" in res.stdout  # the others are listed
