"""Mutated real CRDs and objects of ../shared/corpus (a few projects with CEL rules, kept small for the
regular run) through `crdtool lint` and `validate`; skipped when the shared folder is not beside the
repository. `benchmarks/fuzz.py` mutates the whole corpus."""

from __future__ import annotations

import clirun
import corpus
import hostile
import pytest
from budget import TIMEOUT, fuzz_settings
from hypothesis import event, given
from hypothesis import strategies as st

PROJECTS = ("karpenter", "flux-source-controller", "flux-notification-controller")
PRESENT = corpus.SHARED_CORPUS.is_dir()
INVENTORY = corpus.scan([corpus.SHARED_CORPUS / part / p for part in ("crds", "crs") for p in PROJECTS
                         if (corpus.SHARED_CORPUS / part / p).is_dir()]) if PRESENT else corpus.Inventory()
BASE = ["--no-config", "--no-color"]

pytestmark = pytest.mark.skipif(not PRESENT, reason=f"{corpus.SHARED_CORPUS} (the shared corpus) is not present")


def check(outcome: clirun.Outcome, place: corpus.Place, mutant: hostile.Mutant) -> None:
    known = clirun.assert_survives(outcome, f"{place.path}#{place.index} mutated: {mutant.steps}")
    if known is not None:
        event(f"known crash: {known.name}")


def test_the_sample_has_crds_and_objects() -> None:
    assert len(INVENTORY.crds) >= 10 and len(INVENTORY.objects) >= 20


@fuzz_settings(30)
@given(rng=st.randoms(use_true_random=False), index=st.integers(min_value=0))
def test_lint_survives_mutated_corpus_crds(rng, index: int) -> None:
    place = INVENTORY.crds[index % len(INVENTORY.crds)]
    mutant = hostile.mutate(rng, corpus.document(place), scale=hostile.SMALL)
    check(clirun.invoke_on_files([*BASE, "lint"], {"crd" + mutant.suffix: mutant.data}, TIMEOUT), place, mutant)


@fuzz_settings(30)
@given(rng=st.randoms(use_true_random=False), index=st.integers(min_value=0))
def test_validate_survives_mutated_corpus_objects(rng, index: int) -> None:
    place = INVENTORY.objects[index % len(INVENTORY.objects)]
    mutant = hostile.mutate(rng, corpus.document(place), scale=hostile.SMALL)
    prefix = [*BASE, "validate", "-c", INVENTORY.crd_for(place)]
    check(clirun.invoke_on_files(prefix, {"object" + mutant.suffix: mutant.data}, TIMEOUT), place, mutant)
