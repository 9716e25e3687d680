"""`--write`: round-trip rewriting keeps comments and order, skips unchanged files, and is atomic."""

from __future__ import annotations

import os

import pytest

from crdtool.load import rewrite as rewrite_module
from crdtool.load.rewrite import rewrite

READ = {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},
        "spec": {"image": "nginx", "junk": 1}}
SOURCE = """# my crontab
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: x  # the name
spec:
  image: 'nginx'   # quoted on purpose
  junk: 1
---
kind: Other
"""


def test_changes_keep_comments_quotes_and_order(tmp_path) -> None:
    f = tmp_path / "cr.yaml"
    f.write_text(SOURCE)
    target = {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "x"},
              "spec": {"image": "nginx", "replicas": 1}}
    assert rewrite(str(f), {0: (READ, target)}) is True
    text = f.read_text()
    assert text.startswith("# my crontab\n")
    assert "name: x  # the name" in text and "image: 'nginx'   # quoted on purpose" in text
    assert "junk" not in text and "replicas: 1" in text
    assert text.endswith("kind: Other\n")


def test_an_unchanged_file_is_not_touched(tmp_path) -> None:
    f = tmp_path / "cr.yaml"
    f.write_text(SOURCE)
    os.utime(f, (1_000_000, 1_000_000))
    assert rewrite(str(f), {0: (READ, dict(READ))}) is False
    assert os.stat(f).st_mtime == 1_000_000 and f.read_text() == SOURCE


def test_a_crash_mid_write_leaves_the_original_intact(tmp_path, monkeypatch) -> None:
    f = tmp_path / "cr.yaml"
    f.write_text(SOURCE)

    def boom(*_args):
        raise OSError("disk full")

    monkeypatch.setattr(rewrite_module.os, "fsync", boom)
    with pytest.raises(OSError, match="disk full"):
        rewrite(str(f), {0: (READ, {"kind": "CronTab"})})
    assert f.read_text() == SOURCE
    assert [p.name for p in tmp_path.iterdir()] == ["cr.yaml"]


def test_values_that_did_not_change_keep_their_spelling_and_lists_their_indentation(tmp_path) -> None:
    f = tmp_path / "list.yaml"
    f.write_text("kind: List\nitems:\n  - spec:\n      flag: y   # read as true\n      junk: 1\n")
    read = {"kind": "List", "items": [{"spec": {"flag": True, "junk": 1}}]}
    assert rewrite(str(f), {(0, 0): (read["items"][0], {"spec": {"flag": True}})}) is True
    assert f.read_text() == "kind: List\nitems:\n  - spec:\n      flag: y   # read as true\n"
