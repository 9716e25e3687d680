"""The persistent cache's safety: a cached answer is the right answer or no answer."""

from __future__ import annotations

import errno
import hashlib
import multiprocessing
import os
import shutil
import time
from pathlib import Path

import pytest

from crdtool.cache import BUILDS_KEPT, Cache, build_identity, cache_directory, clean, disabled

BUILD_A, BUILD_B = "a" * 16, "b" * 16
VALUE = {"verdict": "accepted", "findings": [("spec.x", "Required value")] * 50}


def entry_files(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and p.name != "CACHEDIR.TAG"]


def test_a_stored_value_is_read_back(tmp_path: Path) -> None:
    store = Cache(tmp_path, BUILD_A)
    assert store.get("lint", b"crd") is None
    store.put("lint", b"crd", VALUE)
    assert Cache(tmp_path, BUILD_A).get("lint", b"crd") == VALUE
    assert Cache(tmp_path, BUILD_A).get("lint", b"other") is None
    assert Cache(tmp_path, BUILD_A).get("decode", b"crd") is None  # namespaces are apart
    assert (tmp_path / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "garbage", "pickle"])
def test_a_damaged_entry_is_a_miss_and_is_rebuilt(tmp_path: Path, damage: str) -> None:
    Cache(tmp_path, BUILD_A).put("lint", b"crd", VALUE)
    [entry] = entry_files(tmp_path)
    raw = entry.read_bytes()
    damaged = {
        "truncate": raw[:-7],
        "flip": raw[:-3] + bytes([raw[-3] ^ 1]) + raw[-2:],
        "empty": b"",
        "garbage": b"not a cache entry at all",
        # a consistent checksum over a payload this build cannot unpickle
        "pickle": raw[:16] + hashlib.blake2b(b"\x80\x05junk", digest_size=32).digest() + b"\x80\x05junk",
    }[damage]
    entry.write_bytes(damaged)
    store = Cache(tmp_path, BUILD_A)
    assert store.get("lint", b"crd") is None
    store.put("lint", b"crd", VALUE)
    assert Cache(tmp_path, BUILD_A).get("lint", b"crd") == VALUE


def age(folder: Path, days: float) -> None:
    """Make every entry of a build's folder, and the folder, last used `days` ago."""
    when = time.time() - days * 86400
    for path in [*folder.rglob("*"), folder]:
        os.utime(path, (when, when))


def test_another_build_never_reads_an_entry_and_keeps_its_entries_while_in_use(tmp_path: Path) -> None:
    """Two installs taking turns (a pre-commit environment and a pipx install): each keeps its entries."""
    Cache(tmp_path, BUILD_A).put("lint", b"crd", VALUE)
    other = Cache(tmp_path, BUILD_B)
    assert other.get("lint", b"crd") is None
    other.put("lint", b"crd", "B's answer")
    assert Cache(tmp_path, BUILD_A).get("lint", b"crd") == VALUE
    assert Cache(tmp_path, BUILD_B).get("lint", b"crd") == "B's answer"


def test_a_new_build_removes_builds_unused_for_a_week(tmp_path: Path) -> None:
    Cache(tmp_path, BUILD_A).put("lint", b"crd", VALUE)
    Cache(tmp_path, BUILD_B).put("lint", b"crd", VALUE)
    age(tmp_path / BUILD_A, 8)
    age(tmp_path / BUILD_B, 6)
    Cache(tmp_path, "c" * 16).put("lint", b"crd", VALUE)
    assert not (tmp_path / BUILD_A).exists()
    assert Cache(tmp_path, BUILD_B).get("lint", b"crd") == VALUE


def test_a_new_build_keeps_only_the_most_recently_used_builds(tmp_path: Path) -> None:
    builds = [c * 16 for c in "abcdef"]
    for days, build in enumerate(reversed(builds)):  # "f" used 0 days ago, ..., "a" 5 days ago
        Cache(tmp_path, build).put("lint", b"crd", VALUE)
        age(tmp_path / build, days + 0.5)
    Cache(tmp_path, "0" * 16).put("lint", b"crd", VALUE)
    kept = sorted(p.name for p in tmp_path.iterdir() if p.is_dir())
    assert len(kept) == BUILDS_KEPT
    assert kept == sorted(["0" * 16, *builds[-(BUILDS_KEPT - 1):]])


def test_a_known_build_removes_no_other_build(tmp_path: Path) -> None:
    """Only a new build's first write looks at other builds (so that every run does not)."""
    Cache(tmp_path, BUILD_A).put("lint", b"crd", VALUE)
    Cache(tmp_path, BUILD_B).put("lint", b"crd", VALUE)
    age(tmp_path / BUILD_A, 30)
    Cache(tmp_path, BUILD_B).put("lint", b"more", VALUE)
    assert Cache(tmp_path, BUILD_A).get("lint", b"crd") == VALUE


def test_an_entry_folder_removed_during_a_run_is_made_again(tmp_path: Path) -> None:
    store = Cache(tmp_path, BUILD_A)
    store.put("lint", b"crd", VALUE)
    [entry] = entry_files(tmp_path)
    shutil.rmtree(entry.parent)  # as `crdtool cache clean` in another terminal
    store.put("lint", b"crd", "again")
    assert Cache(tmp_path, BUILD_A).get("lint", b"crd") == "again"


def _write_many(root: str, identity: str, worker: int) -> int:
    store = Cache(Path(root), identity)
    bad = 0
    for n in range(150):
        store.put("lint", b"shared", VALUE)
        store.put("lint", f"own-{worker}-{n}".encode(), n)
        got = store.get("lint", b"shared")
        bad += got is not None and got != VALUE
    return bad


def test_processes_writing_the_same_entries_at_once_never_see_a_partial_one(tmp_path: Path) -> None:
    with multiprocessing.get_context("fork").Pool(3) as pool:
        bad = pool.starmap(_write_many, [(str(tmp_path), BUILD_A, w) for w in range(3)])
    assert bad == [0, 0, 0]
    store = Cache(tmp_path, BUILD_A)
    assert store.get("lint", b"shared") == VALUE
    assert all(store.get("lint", f"own-{w}-{n}".encode()) == n for w in range(3) for n in range(150))
    assert not [p for p in tmp_path.rglob(".tmp-*")]  # no temporary file left behind


def test_runs_of_one_build_writing_first_at_once_keep_each_others_entries(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first write of a run removes unused builds' folders when its own is not there yet; another
    run of the same build may make it between that look and the removal, and must keep its entries.
    (The build folder is shown as missing to both, as it was when each looked.)"""
    Cache(tmp_path, BUILD_B).put("lint", b"old", VALUE)
    age(tmp_path / BUILD_B, 8)
    real_exists = Path.exists
    monkeypatch.setattr(Path, "exists", lambda path: path != tmp_path / BUILD_A and real_exists(path))
    one, other = Cache(tmp_path, BUILD_A), Cache(tmp_path, BUILD_A)
    one.put("lint", b"one", VALUE)
    other.put("lint", b"other", VALUE)
    monkeypatch.undo()
    assert Cache(tmp_path, BUILD_A).get("lint", b"one") == VALUE == Cache(tmp_path, BUILD_A).get("lint", b"other")
    assert not (tmp_path / BUILD_B).exists()  # an unused build's entries are still removed


def test_a_read_only_cache_folder_turns_the_cache_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    Cache(tmp_path, BUILD_A).put("lint", b"old", VALUE)

    def read_only(*_args: object, **_kwargs: object) -> None:  # a read-only file system (root ignores modes)
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr("tempfile.mkstemp", read_only)
    store = Cache(tmp_path, BUILD_A)
    assert store.get("lint", b"old") == VALUE  # what is there is still read
    store.put("lint", b"crd", VALUE)
    assert not store.enabled
    assert store.get("lint", b"crd") is None


def test_a_cache_folder_that_is_a_file_turns_the_cache_off(tmp_path: Path) -> None:
    # (what root meets instead of a read-only folder: the same kind of OSError)
    (tmp_path / "crdtool").write_text("not a folder")
    store = Cache(tmp_path / "crdtool", BUILD_A)
    store.put("lint", b"crd", VALUE)
    assert not store.enabled
    assert store.get("lint", b"crd") is None


def test_a_disabled_cache_stores_nothing(tmp_path: Path) -> None:
    store = disabled()
    store.put("lint", b"crd", VALUE)
    assert store.get("lint", b"crd") is None
    assert not store.enabled


def test_clean_removes_the_entries_and_nothing_else(tmp_path: Path) -> None:
    Cache(tmp_path, BUILD_A).put("lint", b"crd", VALUE)
    (tmp_path / "notes.txt").write_text("mine")
    (tmp_path / "project").mkdir()
    root, freed = clean(tmp_path)
    assert root == str(tmp_path) and freed > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "project"]
    assert clean(tmp_path / "missing") == (str(tmp_path / "missing"), 0)


def test_clean_removes_an_emptied_cache_folder(tmp_path: Path) -> None:
    Cache(tmp_path / "crdtool", BUILD_A).put("lint", b"crd", VALUE)
    clean(tmp_path / "crdtool")
    assert not (tmp_path / "crdtool").exists()


def test_the_cache_folder_follows_the_platform_convention(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("CRDTOOL_CACHE_DIR", raising=False)
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_directory() == str(tmp_path / "crdtool")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")  # the XDG spec: relative paths are invalid
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_directory() == str(tmp_path / "home" / ".cache" / "crdtool")
    monkeypatch.setenv("CRDTOOL_CACHE_DIR", str(tmp_path / "here"))
    assert cache_directory() == str(tmp_path / "here")


def test_the_build_identity_names_a_folder() -> None:
    assert len(build_identity()) == 16 and int(build_identity(), 16) >= 0


def test_past_its_size_cap_a_build_keeps_its_most_recently_used_entries(tmp_path: Path) -> None:
    big = b"x" * 10_000
    writer = Cache(tmp_path, BUILD_A)
    for i in range(10):
        writer.put("lint", b"%d" % i, big)
    entries = sorted(entry_files(tmp_path))
    size = entries[0].stat().st_size
    # Entry i last used i days ago, except entry 9 which a read refreshes now.
    for i, key in enumerate(b"%d" % i for i in range(10)):
        path = Cache(tmp_path, BUILD_A)._path("lint", key)
        os.utime(path, (0, 1_000_000_000 - i * 86400))
    assert Cache(tmp_path, BUILD_A).get("lint", b"9") == big  # a read a day old or more refreshes the entry
    capped = Cache(tmp_path, BUILD_A, max_bytes=size * 8)
    capped.put("lint", b"new", big)  # its first write prunes: 10 entries are over 8, down to under 6
    kept = {key for key in [b"%d" % i for i in range(10)] + [b"new"] if Cache(tmp_path, BUILD_A).get("lint", key)}
    assert kept == {b"0", b"1", b"2", b"3", b"9", b"new"}


def test_under_its_size_cap_nothing_is_pruned(tmp_path: Path) -> None:
    for i in range(5):
        Cache(tmp_path, BUILD_A).put("lint", b"%d" % i, VALUE)
    capped = Cache(tmp_path, BUILD_A, max_bytes=sum(p.stat().st_size for p in entry_files(tmp_path)))
    capped.put("lint", b"new", VALUE)
    assert all(Cache(tmp_path, BUILD_A).get("lint", b"%d" % i) == VALUE for i in range(5))


def test_pruning_removes_a_dead_writers_temporary_file_not_a_live_one(tmp_path: Path) -> None:
    Cache(tmp_path, BUILD_A).put("lint", b"crd", VALUE)
    [entry] = entry_files(tmp_path)
    dead, live = entry.parent / ".tmp-dead", entry.parent / ".tmp-live"
    dead.write_bytes(b"partial")
    live.write_bytes(b"partial")
    os.utime(dead, (0, 1_000_000_000))
    Cache(tmp_path, BUILD_A, max_bytes=1).put("lint", b"other", VALUE)
    assert live.exists() and not dead.exists()


def test_the_size_cap_counts_every_builds_entries_and_removes_the_least_recently_used(tmp_path: Path) -> None:
    big = b"x" * 10_000
    for i in range(4):
        Cache(tmp_path, BUILD_A).put("lint", b"%d" % i, big)
        Cache(tmp_path, BUILD_B).put("lint", b"%d" % i, big)
    age(tmp_path / BUILD_A, 2)  # A's entries are older than B's
    size = entry_files(tmp_path)[0].stat().st_size
    Cache(tmp_path, BUILD_B, max_bytes=size * 6).put("lint", b"new", big)  # 8 entries: down to under 4.5
    assert not any(Cache(tmp_path, BUILD_A).get("lint", b"%d" % i) for i in range(4))
    assert all(Cache(tmp_path, BUILD_B).get("lint", b"%d" % i) == big for i in range(4))


def _fingerprint(top: Path) -> str:
    from crdtool.cache import _digest_package

    identity = hashlib.blake2b(digest_size=32)
    _digest_package(identity, str(top), "pkg", (".py",))
    return identity.hexdigest()


def test_an_installed_package_is_known_by_its_record_a_checkout_by_its_files(tmp_path: Path) -> None:
    """An installer's RECORD lists every file with its hash and is written again at each install: it
    names the installed files without a look at each. A checkout (an editable install) has none."""
    top = tmp_path / "pkg"
    top.mkdir()
    module = top / "m.py"
    module.write_text("A = 1\n")
    checkout = _fingerprint(top)
    module.write_text("A = 22\n")
    assert _fingerprint(top) != checkout  # a changed file of a checkout
    info = tmp_path / "pkg-1.0.dist-info"
    info.mkdir()
    (info / "RECORD").write_text("pkg/m.py,sha256=one,7\n")
    installed = _fingerprint(top)
    os.utime(module, (0, 0))
    assert _fingerprint(top) == installed  # the files as the installer left them: only its RECORD is read
    (info / "RECORD").write_text("pkg/m.py,sha256=two,7\n")
    assert _fingerprint(top) != installed  # installed again, other files
