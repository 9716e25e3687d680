"""`crdtool explain`: kubectl explain's text for custom resources.

The expected texts are written out once, as kubectl 1.36's plaintext template
(k8s.io/kubectl pkg/explain/v2) lays them out: the GROUP/KIND/VERSION header, `FIELD:` with
the type name and `ENUM:` block, the DESCRIPTION wrapped at 76 columns and indented by 4
(`<empty>` without one), FIELDS sorted with `-required-` and `enum:` lines, and with
--recursive names and types only. The ObjectMeta and TypeMeta texts are Kubernetes' own.
They were checked against what the real kubectl printed for the same schemas
(../shared/conformance/kubectl/explain.jsonl), which the last test replays case by case.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conformance_cases import SHARED, available, params

from crdtool.cli.explain import command
from crdtool.explain.render import wrap
from crdtool.explain.resolve import parse_field_nodes, version_priority

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
CRONTAB = str(FIXTURES / "crontab" / "crd.yaml")
HTTPROUTE = SHARED / "corpus" / "crds" / "gateway-api-standard" / "httproutes.gateway.networking.k8s.io.yaml"
requires_corpus = pytest.mark.skipif(not HTTPROUTE.is_file(), reason=f"shared corpus not found at {SHARED}")

GADGET_CRD = r"""
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget, shortNames: [gd]}
  versions:
    - name: v1alpha1
      served: true
      storage: false
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, properties: {legacy: {type: string}}}
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          description: A Gadget is a small device that does one thing well.
          properties:
            spec:
              type: object
              description: The desired state of the gadget.
              required: [mode]
              properties:
                mode:
                  type: string
                  description: How the gadget runs.
                  enum: [Auto, Manual, "Off", Standby, Eco]
                notes:
                  type: string
                  description: "Notes explain, in as many words as it takes, why this gadget exists
                    and what it is expected to do when nobody is watching it.\n\nA second paragraph
                    keeps its blank line, and a line break\ninside a paragraph is kept as it is.\n\
                    \ \ - an indented item"
                ports:
                  type: array
                  description: The ports the gadget listens on.
                  items:
                    type: object
                    description: One port.
                    required: [name]
                    properties:
                      name: {type: string}
                      port:
                        x-kubernetes-int-or-string: true
                        anyOf: [{type: integer}, {type: string}]
                        description: A port number or a named port.
                selector:
                  type: object
                  description: Labels of the pods the gadget looks after.
                  additionalProperties: {type: string}
                limits:
                  type: object
                  additionalProperties:
                    type: object
                    properties:
                      max: {type: integer}
                config:
                  type: object
                  x-kubernetes-preserve-unknown-fields: true
                  description: Free-form configuration, kept as given.
                template:
                  type: object
                  x-kubernetes-embedded-resource: true
                  x-kubernetes-preserve-unknown-fields: true
            status:
              type: object
              properties:
                ready: {type: boolean}
"""

CRONTAB_HEADER = "GROUP:      stable.example.com\nKIND:       CronTab\nVERSION:    v1\n\n"
GADGET_HEADER = "GROUP:      example.com\nKIND:       Gadget\nVERSION:    v1\n\n"

# apiVersion, kind and metadata: every custom resource has them, with TypeMeta's and
# PartialObjectMetadata's descriptions
TYPE_AND_OBJECT_META_FIELDS = """\
  apiVersion\t<string>
    APIVersion defines the versioned schema of this representation of an object.
    Servers should convert recognized schemas to the latest internal value, and
    may reject unrecognized values. More info:
    https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources

  kind\t<string>
    Kind is a string value representing the REST resource this object
    represents. Servers may infer this from the endpoint the client submits
    requests to. Cannot be updated. In CamelCase. More info:
    https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds

  metadata\t<ObjectMeta>
    Standard object's metadata. More info:
    https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata

"""


def object_meta_names(indent: int) -> str:
    """ObjectMeta's fields as --recursive lists them, `indent` spaces in."""
    lines = ["annotations\t<map[string]string>", "creationTimestamp\t<string>",
             "deletionGracePeriodSeconds\t<integer>", "deletionTimestamp\t<string>", "finalizers\t<[]string>",
             "generateName\t<string>", "generation\t<integer>", "labels\t<map[string]string>",
             "managedFields\t<[]ManagedFieldsEntry>", "  apiVersion\t<string>", "  fieldsType\t<string>",
             "  fieldsV1\t<FieldsV1>", "  manager\t<string>", "  operation\t<string>", "  subresource\t<string>",
             "  time\t<string>", "name\t<string>", "namespace\t<string>", "ownerReferences\t<[]OwnerReference>",
             "  apiVersion\t<string> -required-", "  blockOwnerDeletion\t<boolean>", "  controller\t<boolean>",
             "  kind\t<string> -required-", "  name\t<string> -required-", "  uid\t<string> -required-",
             "resourceVersion\t<string>", "selfLink\t<string>", "uid\t<string>"]
    return "".join(" " * indent + line + "\n" for line in lines)


def run(*args: str):
    return CliRunner().invoke(command, list(args))


@pytest.fixture(scope="module")
def gadget() -> str:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "gadget.yaml"
        path.write_text(GADGET_CRD, encoding="utf-8")
        yield str(path)


# ---------------------------------------------------------------- the CronTab CRD

def test_crontab_by_short_name() -> None:
    res = run("-c", CRONTAB, "ct")
    assert res.exit_code == 0, res.output
    assert res.stdout == CRONTAB_HEADER + (
        "DESCRIPTION:\n"
        "    <empty>\n"
        "FIELDS:\n"
        + TYPE_AND_OBJECT_META_FIELDS +
        "  spec\t<Object>\n"
        "    <no description>\n"
        "\n"
        "\n")


def test_crontab_nested_field() -> None:
    res = run("-c", CRONTAB, "crontab.spec.replicas")
    assert res.exit_code == 0
    assert res.stdout == CRONTAB_HEADER + (
        "FIELD: replicas <integer>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    <empty>\n"
        "\n")


def test_crontab_by_plural_and_group() -> None:
    res = run("-c", CRONTAB, "crontabs.stable.example.com.spec")
    assert res.stdout == CRONTAB_HEADER + (
        "FIELD: spec <Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    <empty>\n"
        "FIELDS:\n"
        "  cronSpec\t<string>\n"
        "    <no description>\n"
        "\n"
        "  image\t<string>\n"
        "    <no description>\n"
        "\n"
        "  replicas\t<integer>\n"
        "    <no description>\n"
        "\n"
        "\n")


def test_crontab_recursive_names_the_kind_in_any_case() -> None:
    res = run("-c", CRONTAB, "CronTabs", "--recursive")
    assert res.exit_code == 0
    assert res.stdout == CRONTAB_HEADER + (
        "DESCRIPTION:\n"
        "    <empty>\n"
        "FIELDS:\n"
        "  apiVersion\t<string>\n"
        "  kind\t<string>\n"
        "  metadata\t<ObjectMeta>\n"
        + object_meta_names(4) +
        "  spec\t<Object>\n"
        "    cronSpec\t<string>\n"
        "    image\t<string>\n"
        "    replicas\t<integer>\n"
        "\n")


def test_metadata_fields_are_object_metas() -> None:
    res = run("-c", CRONTAB, "crontab.metadata.labels")
    assert res.exit_code == 0
    assert res.stdout == CRONTAB_HEADER + (
        "FIELD: labels <map[string]string>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    Map of string keys and values that can be used to organize and categorize\n"
        "    (scope and select) objects. May match selectors of replication controllers\n"
        "    and services. More info:\n"
        "    https://kubernetes.io/docs/concepts/overview/working-with-objects/labels\n"
        "    \n"
        "\n")


def test_metadata_has_both_descriptions() -> None:
    res = run("-c", CRONTAB, "ct.metadata")
    assert res.stdout.startswith(CRONTAB_HEADER + (
        "FIELD: metadata <ObjectMeta>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    Standard object's metadata. More info:\n"
        "    https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata\n"
        "    ObjectMeta is metadata that all persisted resources must have, which\n"
        "    includes all objects users must create.\n"
        "    \n"
        "FIELDS:\n"
        "  annotations\t<map[string]string>\n"
        "    Annotations is an unstructured key value map stored with a resource that may\n"))
    assert "  ownerReferences\t<[]OwnerReference>\n" in res.stdout


@pytest.mark.skipif(not available(), reason="shared conformance cases not found")
def test_metadata_matches_what_kubectl_printed_for_another_crd() -> None:
    """ObjectMeta's texts are the same for every resource: kubectl's for `widgets.metadata`."""
    case = next(c for c in params("kubectl/explain") if c.id == "explain/synthetic/types-all/metadata").values[0]
    widget_header = "GROUP:      example.com\nKIND:       Widget\nVERSION:    v1\n\n"
    expected = case["expected"]["stdout"].removeprefix(widget_header)
    assert run("-c", CRONTAB, "ct.metadata").stdout == CRONTAB_HEADER + expected


# ---------------------------------------------------------------- what kubectl refuses

def test_an_unknown_field_prints_the_header_then_the_error() -> None:
    res = run("-c", CRONTAB, "ct.spec.doesNotExist")
    assert res.exit_code == 1
    assert res.stdout == CRONTAB_HEADER
    assert res.stderr == 'error: field "doesNotExist" does not exist\n'


def test_the_error_names_the_last_field_of_the_path() -> None:
    res = run("-c", CRONTAB, "ct.nope.replicas")
    assert (res.exit_code, res.stderr) == (1, 'error: field "replicas" does not exist\n')


def test_an_unknown_resource() -> None:
    res = run("-c", CRONTAB, "pizzas.spec")
    assert (res.exit_code, res.stdout) == (1, "")
    assert res.stderr == 'error: the server doesn\'t have a resource type "pizzas"\n'


def test_short_names_match_exactly_as_in_kubectls_shortcut_expander() -> None:
    res = run("-c", CRONTAB, "CT")
    assert res.stderr == 'error: the server doesn\'t have a resource type "CT"\n'


def test_an_unserved_version() -> None:
    res = run("-c", CRONTAB, "crontabs", "--api-version", "stable.example.com/v1beta1")
    assert (res.exit_code, res.stdout) == (1, "")
    assert res.stderr == 'error: couldn\'t find resource for "stable.example.com/v1beta1, Resource=crontabs"\n'


def test_a_crd_the_apiserver_refuses_is_not_served() -> None:
    res = run("-c", str(FIXTURES / "broken" / "wrong-name.yaml"), "crontab")
    assert res.exit_code == 1
    assert res.stderr == 'error: the server doesn\'t have a resource type "crontab"\n'


def test_unreadable_input_is_exit_2() -> None:
    res = run("-c", str(FIXTURES / "does-not-exist.yaml"), "ct")
    assert res.exit_code == 2


# ---------------------------------------------------------------- schema features

def test_the_preferred_version_is_the_highest_served(gadget: str) -> None:
    res = run("-c", gadget, "gadgets")
    assert res.exit_code == 0
    assert res.stdout == GADGET_HEADER + (
        "DESCRIPTION:\n"
        "    A Gadget is a small device that does one thing well.\n"
        "    \n"
        "FIELDS:\n"
        + TYPE_AND_OBJECT_META_FIELDS +
        "  spec\t<Object>\n"
        "    The desired state of the gadget.\n"
        "\n"
        "  status\t<Object>\n"
        "    <no description>\n"
        "\n"
        "\n")


def test_another_version_by_api_version(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec", "--api-version=example.com/v1alpha1")
    assert res.stdout == (
        "GROUP:      example.com\nKIND:       Gadget\nVERSION:    v1alpha1\n\n"
        "FIELD: spec <Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    <empty>\n"
        "FIELDS:\n"
        "  legacy\t<string>\n"
        "    <no description>\n"
        "\n"
        "\n")


def test_field_list_types_required_and_enums(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: spec <Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    The desired state of the gadget.\n"
        "    \n"
        "FIELDS:\n"
        "  config\t<Object>\n"
        "    Free-form configuration, kept as given.\n"
        "\n"
        "  limits\t<map[string]Object>\n"
        "    <no description>\n"
        "\n"
        "  mode\t<string> -required-\n"
        "  enum: Auto, Manual, Off, Standby, ....\n"
        "    How the gadget runs.\n"
        "\n"
        "  notes\t<string>\n"
        "    Notes explain, in as many words as it takes, why this gadget exists and what\n"
        "    it is expected to do when nobody is watching it.\n"
        "    \n"
        "    A second paragraph keeps its blank line, and a line break\n"
        "    inside a paragraph is kept as it is.\n"
        "      - an indented item\n"
        "\n"
        "  ports\t<[]Object>\n"
        "    The ports the gadget listens on.\n"
        "\n"
        "  selector\t<map[string]string>\n"
        "    Labels of the pods the gadget looks after.\n"
        "\n"
        "  template\t<Object>\n"
        "    <no description>\n"
        "\n"
        "\n")


def test_an_enum_field(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec.mode")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: mode <string>\n"
        "ENUM:\n"
        "    Auto\n"
        "    Manual\n"
        "    Off\n"
        "    Standby\n"
        "    Eco\n"
        "\n"
        "DESCRIPTION:\n"
        "    How the gadget runs.\n"
        "    \n"
        "\n")


def test_a_long_multi_paragraph_description(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec.notes")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: notes <string>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    Notes explain, in as many words as it takes, why this gadget exists and what\n"
        "    it is expected to do when nobody is watching it.\n"
        "    \n"
        "    A second paragraph keeps its blank line, and a line break\n"
        "    inside a paragraph is kept as it is.\n"
        "      - an indented item\n"
        "    \n"
        "\n")


def test_an_array_of_objects_describes_itself_and_its_items(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec.ports")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: ports <[]Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    The ports the gadget listens on.\n"
        "    One port.\n"
        "    \n"
        "FIELDS:\n"
        "  name\t<string> -required-\n"
        "    <no description>\n"
        "\n"
        "  port\t<Object>\n"
        "    A port number or a named port.\n"
        "\n"
        "\n")


def test_int_or_string_is_an_object(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec.ports.port")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: port <Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    A port number or a named port.\n"
        "    \n"
        "\n")


def test_a_map_of_objects_lists_the_values_fields(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec.limits")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: limits <map[string]Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    <empty>\n"
        "FIELDS:\n"
        "  max\t<integer>\n"
        "    <no description>\n"
        "\n"
        "\n")
    assert run("-c", gadget, "gd.spec.limits.max").stdout.startswith(GADGET_HEADER + "FIELD: max <integer>\n")


def test_a_map_of_strings(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec.selector")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: selector <map[string]string>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    Labels of the pods the gadget looks after.\n"
        "    \n"
        "\n")


def test_preserve_unknown_fields_has_no_fields(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec.config")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: config <Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    Free-form configuration, kept as given.\n"
        "    \n"
        "\n")


def test_an_embedded_resource_gets_type_and_object_meta(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec.template")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: template <Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    <empty>\n"
        "FIELDS:\n"
        "  apiVersion\t<string> -required-\n"
        "    apiVersion defines the versioned schema of this representation of an object.\n"
        "    More info:\n"
        "    https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources\n"
        "\n"
        "  kind\t<string> -required-\n"
        "    kind is a string value representing the type of this object. In CamelCase.\n"
        "    More info:\n"
        "    https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds\n"
        "\n"
        "  metadata\t<ObjectMeta>\n"
        "    Standard object's metadata. More info:\n"
        "    https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata\n"
        "\n"
        "\n")


def test_recursive_lists_enums_maps_and_items(gadget: str) -> None:
    res = run("-c", gadget, "gd.spec", "--recursive")
    assert res.stdout == GADGET_HEADER + (
        "FIELD: spec <Object>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    The desired state of the gadget.\n"
        "    \n"
        "FIELDS:\n"
        "  config\t<Object>\n"
        "  limits\t<map[string]Object>\n"
        "    max\t<integer>\n"
        "  mode\t<string> -required-\n"
        "  enum: Auto, Manual, Off, Standby, ....\n"
        "  notes\t<string>\n"
        "  ports\t<[]Object>\n"
        "    name\t<string> -required-\n"
        "    port\t<Object>\n"
        "  selector\t<map[string]string>\n"
        "  template\t<Object>\n"
        "    apiVersion\t<string> -required-\n"
        "    kind\t<string> -required-\n"
        "    metadata\t<ObjectMeta>\n"
        + object_meta_names(6) +
        "\n")


# ---------------------------------------------------------------- a real CRD

@requires_corpus
def test_httproute_field_of_an_array_of_objects() -> None:
    res = run("-c", str(HTTPROUTE), "httproutes.spec.rules.backendRefs.weight")
    assert res.exit_code == 0
    assert res.stdout == (
        "GROUP:      gateway.networking.k8s.io\n"
        "KIND:       HTTPRoute\n"
        "VERSION:    v1\n"
        "\n"
        "FIELD: weight <integer>\n"
        "\n"
        "\n"
        "DESCRIPTION:\n"
        "    Weight specifies the proportion of requests forwarded to the referenced\n"
        "    backend. This is computed as weight/(sum of all weights in this\n"
        "    BackendRefs list). For non-zero values, there may be some epsilon from\n"
        "    the exact proportion defined here depending on the precision an\n"
        "    implementation supports. Weight is not a percentage and the sum of\n"
        "    weights does not need to equal 100.\n"
        "    \n"
        "    If only one backend is specified and it has a weight greater than 0, 100%\n"
        "    of the traffic is forwarded to that backend. If weight is set to 0, no\n"
        "    traffic should be forwarded for this entry. If unspecified, weight\n"
        "    defaults to 1.\n"
        "    \n"
        "    Support for this field varies based on the context where used.\n"
        "    \n"
        "\n")


@requires_corpus
def test_httproute_in_its_older_version() -> None:
    res = run("-c", str(HTTPROUTE.parent), "httproute.spec.parentRefs.port",
              "--api-version", "gateway.networking.k8s.io/v1beta1")
    assert res.exit_code == 0
    assert res.stdout.startswith("GROUP:      gateway.networking.k8s.io\nKIND:       HTTPRoute\n"
                                 "VERSION:    v1beta1\n\nFIELD: port <integer>\n\n\nDESCRIPTION:\n"
                                 "    Port is the network port this Route targets. It can be interpreted\n")


# ---------------------------------------------------------------- the parts

def test_versions_sort_as_kubernetes_versions() -> None:
    names = ["foo10", "v11alpha2", "v1", "v12alpha1", "v3beta1", "v10beta3", "v2", "foo1", "v11beta2"]
    assert sorted(names, key=version_priority) == [
        "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"]


def test_field_paths_parse_as_kubectls_jsonpath() -> None:
    assert parse_field_nodes("ct.spec.replicas.") == ["ct", "spec", "replicas"]
    assert parse_field_nodes(".spec") == [None, "spec"]  # a suffix after plural.group: `..` first
    assert parse_field_nodes("ct.items[0]") == ["ct", "items", None]


def test_wrap_is_go_wordwraps() -> None:
    assert wrap("aaa bbb ccc", 7) == "aaa bbb\nccc"
    assert wrap("a " + "x" * 12 + " b", 5) == "a\n" + "x" * 12 + "\nb"  # long words are not split
    assert wrap("keep\n  indented   \nlines", 20) == "keep\n  indented   \nlines"
    assert wrap("no\u00a0break here", 8) == "no\u00a0break\nhere"


# ---------------------------------------------------------------- what kubectl printed

@pytest.mark.parametrize("case", params("kubectl/explain"))
def test_kubectl_explain_case(case: dict) -> None:
    from conformance import place  # the shared scorer's own placement: the real file, or the case's JSON

    args = case["kubectlArgs"][1:]
    with tempfile.TemporaryDirectory() as tmp:
        crd, _ = place(case["crd"], case, str(SHARED), tmp, "crd")
        result = CliRunner().invoke(command, ["-c", crd, *args])
    expected = case["expected"]
    assert result.stdout == expected["stdout"]
    assert result.stderr == expected["stderr"]
    assert result.exit_code == expected["exitCode"]
