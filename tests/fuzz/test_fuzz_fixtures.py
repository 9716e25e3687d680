"""Mutated fixtures through `crdtool lint`, `validate`, `prune`, `default` and `columns`: every run ends
with exit code 0, 1 or 2, without a traceback, in bounded time (tests/fuzz/hostile.py mutates)."""

from __future__ import annotations

import json

import clirun
import corpus
import hostile
from budget import TIMEOUT, fuzz_settings
from hypothesis import event, given
from hypothesis import strategies as st

INVENTORY = corpus.scan([corpus.FIXTURES])
BASE = ["--no-config", "--no-color"]
OTHER_COMMANDS = (["prune"], ["default"], ["default", "-o", "yaml"], ["columns", "-A"], ["columns", "-o", "wide"])


def check(outcome: clirun.Outcome, place: corpus.Place, mutant: hostile.Mutant) -> None:
    known = clirun.assert_survives(outcome, f"{place.path}#{place.index} mutated: {mutant.steps}")
    if known is not None:
        event(f"known crash: {known.name}")


def test_the_fixtures_have_crds_and_objects_to_mutate() -> None:
    assert len(INVENTORY.crds) >= 20 and len(INVENTORY.objects) >= 8
    assert INVENTORY.crd_for(corpus.Place(str(corpus.FIXTURES / "pizza" / "menu.yaml"), 0)).endswith("pizza/crd.yaml")


@fuzz_settings(60)
@given(rng=st.randoms(use_true_random=False), place=st.sampled_from(INVENTORY.crds))
def test_lint_survives_mutated_crds(rng, place) -> None:
    mutant = hostile.mutate(rng, corpus.document(place), scale=hostile.SMALL)
    check(clirun.invoke_on_files([*BASE, "lint"], {"crd" + mutant.suffix: mutant.data}, TIMEOUT), place, mutant)


@fuzz_settings(60)
@given(rng=st.randoms(use_true_random=False), place=st.sampled_from(INVENTORY.objects))
def test_validate_survives_mutated_objects(rng, place) -> None:
    mutant = hostile.mutate(rng, corpus.document(place), scale=hostile.SMALL)
    prefix = [*BASE, "validate", "-c", INVENTORY.crd_for(place)]
    check(clirun.invoke_on_files(prefix, {"object" + mutant.suffix: mutant.data}, TIMEOUT), place, mutant)


@fuzz_settings(25)
@given(rng=st.randoms(use_true_random=False), crd=st.sampled_from(sorted(INVENTORY.objects_of)))
def test_validate_survives_a_mutated_crd_among_its_objects(rng, crd) -> None:
    place = next(p for p in INVENTORY.crds if p.path == crd)
    mutant = hostile.mutate(rng, corpus.document(place), scale=hostile.SMALL)
    objects = INVENTORY.objects_of[crd]
    files = {f"object{i}.json": json.dumps(corpus.document(p)).encode() for i, p in enumerate(objects)}
    files["crd" + mutant.suffix] = mutant.data
    check(clirun.invoke_on_files([*BASE, "validate"], files, TIMEOUT), place, mutant)


@fuzz_settings(30)
@given(rng=st.randoms(use_true_random=False), place=st.sampled_from(INVENTORY.objects),
       command=st.sampled_from(OTHER_COMMANDS))
def test_prune_default_and_columns_survive_mutated_objects(rng, place, command) -> None:
    mutant = hostile.mutate(rng, corpus.document(place), scale=hostile.SMALL)
    prefix = [*BASE, *command, "-c", INVENTORY.crd_for(place)]
    check(clirun.invoke_on_files(prefix, {"object" + mutant.suffix: mutant.data}, TIMEOUT), place, mutant)
