"""Streams of deeply nested JSON documents: read in time linear in their length (libyaml alone took
depth × tokens: 15 s for 4 MB of 3,000-deep documents), with the findings and positions as before."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.cli import cli
from crdtool.load import flowgraft, sources, yamlreader

CRD = str(Path(__file__).resolve().parents[2] / "fixtures" / "crontab" / "crd.yaml")


def _value(depth: int, key: str = '"a"', flat: bool = False) -> str:
    """An object `depth` levels deep on one line, or (`flat`) a list of as many one-key objects: the
    same length and tokens, nested two levels."""
    if flat:
        return "[" + f"{{{key}: 1}}, " * depth + "[1, true, null]]"
    return f"{{{key}: " * depth + "[1, true, null]" + "}" * depth


def _stream(tmp_path: Path, documents: int, depth: int, flat: bool = False) -> str:
    """CronTabs whose spec.cronSpec (a string) is an object `depth` levels deep, written as indented
    JSON with the deep value on one line, the documents separated by `---` lines."""
    shallow = json.dumps({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {},
                          "spec": {"cronSpec": "DEEP", "image": "x", "replicas": 1.5e0}}, indent=1)
    deep = _value(depth, flat=flat)
    path = tmp_path / "deep.json"
    path.write_text("\n---\n".join(shallow.replace('"DEEP"', deep) for _ in range(documents)) + "\n")
    return str(path)


def _validate(path: str, *options: str):
    return CliRunner().invoke(cli, ["--no-config", "validate", "-c", CRD, "--field-validation", "Ignore", *options,
                                    path], env={"NO_COLOR": "1"})


@pytest.mark.parametrize("options", [(), ("--format", "json")], ids=["text", "json"])
def test_findings_and_positions_are_those_libyaml_gives(tmp_path: Path, monkeypatch, options) -> None:
    path = _stream(tmp_path, 4, 2500)
    linear = _validate(path, *options)
    monkeypatch.setattr(yamlreader, "compose_json_stream", lambda text, max_depth: None)  # libyaml alone
    before = _validate(path, *options)
    assert linear.exit_code == before.exit_code == 1
    assert linear.output == before.output
    if not options:  # the last document's deep value, where it is
        assert "deep.json:39:3: error: spec.cronSpec: Invalid value" in linear.output


def _processor_seconds(path: str, results: int) -> float:
    """The processor time of validating `path` (its `results` objects all refused)."""
    start = time.process_time()
    res = _validate(path, "--format", "json")
    took = time.process_time() - start
    assert res.exit_code == 1 and len(json.loads(res.output)["results"]) == results
    return took


def _against_flat(tmp_path: Path, write: Callable[[Path, bool], str], results: int) -> float:
    """How much longer a stream of 3,000-deep values takes than the same stream with the values flat
    (same length, same tokens): under 1 where reading is linear in the length (0.6 measured), 1.3 to
    2.1 for libyaml's depth × tokens. A ratio, so that a slower machine changes nothing (an absolute
    bound failed on one)."""
    seconds = {}
    for flat in (False, True):
        folder = tmp_path / ("flat" if flat else "deep")
        folder.mkdir()
        seconds[flat] = _processor_seconds(write(folder, flat), results)
    return seconds[False] / seconds[True]


def test_a_stream_of_deep_documents_is_read_as_fast_as_flat_ones(tmp_path: Path) -> None:
    """libyaml alone took 19 s of processor time for the fuzzer's 4 MB stream of 3,000-deep documents."""
    ratio = _against_flat(tmp_path, lambda folder, flat: _stream(folder, 60, 3000, flat), 60)
    assert ratio < 1, f"deep values took {ratio:.1f} times as long as flat ones"


def _block_stream(tmp_path: Path, documents: int, depth: int, key: str = '"a"', flat: bool = False) -> str:
    """CronTabs in block YAML whose spec.cronSpec is deep JSON (or YAML flow, with plain keys) on one line."""
    deep = _value(depth, key, flat)
    path = tmp_path / "deep.yaml"
    path.write_text("".join(f"---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c{i}\n"
                            f"spec:\n  cronSpec: {deep}\n  image: x\n  replicas: 1.5\n" for i in range(documents)))
    return str(path)


@pytest.mark.parametrize("options", [(), ("--format", "json")], ids=["text", "json"])
def test_deep_json_in_block_yaml_has_the_findings_and_positions_libyaml_gives(tmp_path: Path, monkeypatch,
                                                                              options) -> None:
    path = _block_stream(tmp_path, 3, 2500)
    grafted = _validate(path, *options)
    monkeypatch.setattr(flowgraft, "compose_with_grafts", lambda *args: None)  # libyaml alone
    before = _validate(path, *options)
    assert grafted.exit_code == before.exit_code == 1
    assert grafted.output == before.output
    if not options:
        assert "deep.yaml:25:3: error: spec.cronSpec: Invalid value" in grafted.output


@pytest.mark.parametrize("key", ['"a"', "a"], ids=["json", "yaml-flow"])
def test_a_block_stream_of_deep_values_is_read_as_fast_as_flat_ones(tmp_path: Path, key: str) -> None:
    """The fuzzer's `metadata: {"a": {"a": ...` and `{a: {a: ...` documents: libyaml alone took 26 s of
    processor time for a 4 MB stream of 3,000-deep values."""
    ratio = _against_flat(tmp_path, lambda folder, flat: _block_stream(folder, 60, 3000, key, flat), 60)
    assert ratio < 1, f"deep values took {ratio:.1f} times as long as flat ones"


def test_input_too_large_for_the_memory_allowed_is_named(tmp_path: Path, monkeypatch) -> None:
    """Under an address-space limit (`ulimit -v`) reading a huge file ends in MemoryError: the file is
    named, with exit code 2."""
    big = tmp_path / "big.yaml"
    big.write_text("a: 1\n")
    original = yamlreader.read_yaml_stream

    def short_of_memory(text: str):
        if text.startswith("a: 1"):
            raise MemoryError
        return original(text)

    monkeypatch.setattr(sources, "read_yaml_stream", short_of_memory)
    res = _validate(str(big))
    assert res.exit_code == 2
    assert f"{big}: error: input too large to process" in res.output
