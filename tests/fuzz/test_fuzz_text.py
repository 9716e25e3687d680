"""Hostile YAML and JSON made from scratch (token soup, generated values in an object or a CRD)
through `crdtool lint` and `validate`: exit code 0, 1 or 2, no traceback, bounded time."""

from __future__ import annotations

import clirun
import corpus
import hostile
from budget import TIMEOUT, fuzz_settings
from hypothesis import event, given
from hypothesis import strategies as st

BASE = ["--no-config", "--no-color"]
CRD = str(corpus.FIXTURES / "crontab-validated" / "crd.yaml")
TOKENS = (
    "apiVersion", "kind", "metadata", "name", "spec", "versions", "schema", "openAPIV3Schema", "type", "object",
    "properties", ": ", ":", "- ", "-", "\n", "\n  ", "\n    ", "{", "}", "[", "]", ",", "'", '"', "&a ", "*a",
    "<<: ", "!!str ", "!!binary ", "!!int ", "!!map ", "!x ", "? ", "|", "|-\n", ">", "#", "---\n", "...\n",
    "%YAML 1.2\n", "%TAG ! x\n", "\t", "\\", "\\u0000", "\\ud800", "\\udc00", "0o777", "0x1F", "1e400", "-.inf",
    ".nan", "9" * 4301, "yes", "~", "null", "\x00", "\x85", "\ufeff", "\u2028", "\r\n", "\r",
    "apiextensions.k8s.io/v1", "CustomResourceDefinition", "stable.example.com/v1", "CronTab",
)
KEYS = ("apiVersion", "kind", "metadata", "name", "namespace", "labels", "spec", "status", "type", "properties",
        "items", "x-kubernetes-validations", "rule", "default", "enum", "maximum", "pattern", "format", "<<")
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
                    st.sampled_from(hostile.ODD_STRINGS))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), inner, max_size=5),
                      max_leaves=25)


def check(outcome: clirun.Outcome, what: str) -> None:
    known = clirun.assert_survives(outcome, what)
    if known is not None:
        event(f"known crash: {known.name}")


@fuzz_settings(50)
@given(text=st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), max_size=60).map("".join),
       suffix=st.sampled_from((".yaml", ".json")))
def test_lint_and_validate_survive_yaml_token_soup(text: str, suffix: str) -> None:
    data = text.encode("utf-8", "surrogatepass")
    check(clirun.invoke_on_files([*BASE, "lint"], {"soup" + suffix: data}, TIMEOUT), repr(text))
    check(clirun.invoke_on_files([*BASE, "validate", "-c", CRD], {"soup" + suffix: data}, TIMEOUT), repr(text))


@fuzz_settings(40)
@given(rng=st.randoms(use_true_random=False), value=VALUES,
       where=st.sampled_from(("metadata", "spec", "apiVersion", "kind", "root")), as_json=st.booleans())
def test_validate_survives_generated_values_in_an_object(rng, value, where: str, as_json: bool) -> None:
    obj = {"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": {"name": "fuzz"},
           "spec": {"cronSpec": "* * * * */5", "image": "x", "replicas": 1}}
    obj = value if where == "root" else {**obj, where: value}
    text = hostile.write(rng, obj, None, as_json)
    files = {"object" + (".json" if as_json else ".yaml"): text.encode("utf-8", "surrogatepass")}
    check(clirun.invoke_on_files([*BASE, "validate", "-c", CRD], files, TIMEOUT), repr(text[:2000]))


@fuzz_settings(40)
@given(rng=st.randoms(use_true_random=False), value=VALUES,
       where=st.sampled_from(("schema", "property", "validations", "names", "versions", "metadata")),
       as_json=st.booleans())
def test_lint_survives_generated_values_in_a_crd(rng, value, where: str, as_json: bool) -> None:
    crd = corpus.document(corpus.Place(CRD, 0))
    version = crd["spec"]["versions"][0]
    spec_schema = version["schema"]["openAPIV3Schema"]["properties"]["spec"]
    if where == "schema":
        version["schema"]["openAPIV3Schema"] = value
    elif where == "property":
        spec_schema["properties"]["fuzz"] = value
    elif where == "validations":
        spec_schema["x-kubernetes-validations"] = value
    elif where == "names":
        crd["spec"]["names"] = value
    elif where == "versions":
        crd["spec"]["versions"].append(value)
    else:
        crd["metadata"] = value
    text = hostile.write(rng, crd, None, as_json)
    files = {"crd" + (".json" if as_json else ".yaml"): text.encode("utf-8", "surrogatepass")}
    check(clirun.invoke_on_files([*BASE, "lint"], files, TIMEOUT), repr(text[:2000]))
