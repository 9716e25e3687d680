"""Streams of deeply nested JSON documents: read in time linear in their length (libyaml alone took
depth × tokens: 15 s for 4 MB of 3,000-deep documents), with the findings and positions as before."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from crdtool.cli import cli
from crdtool.load import yamlreader

CRD = str(Path(__file__).resolve().parents[2] / "fixtures" / "crontab" / "crd.yaml")


def _stream(tmp_path: Path, documents: int, depth: int) -> str:
    """CronTabs whose spec.cronSpec (a string) is an object `depth` levels deep, written as indented
    JSON with the deep value on one line, the documents separated by `---` lines."""
    shallow = json.dumps({"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {},
                          "spec": {"cronSpec": "DEEP", "image": "x", "replicas": 1.5e0}}, indent=1)
    deep = '{"a": ' * depth + "[1, true, null]" + "}" * depth
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


def test_a_4_mb_stream_of_3000_deep_documents_is_read_in_seconds(tmp_path: Path) -> None:
    path = _stream(tmp_path, 181, 3000)
    assert Path(path).stat().st_size > 3_500_000
    start = time.process_time()
    res = _validate(path, "--format", "json")
    took = time.process_time() - start
    assert res.exit_code == 1 and len(json.loads(res.output)["results"]) == 181
    assert took < 8, f"{took:.1f} s of processor time (libyaml alone took 19 s)"
