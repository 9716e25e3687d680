"""The order of `crdtool convert`, as the apiserver reads a stored object in another version.

Each input object is taken as the stored object, stored in its own apiVersion (etcd keeps objects
in the version they were written in). For each object:
1. the storage decoder reads it with the schema of its own version (decode_stored: malformed
   metadata dropped, pruned, generation repaired) and defaults it with that schema;
2. the CRD's converter converts it (None: the apiVersion only; a webhook: one ConversionReview for
   all the objects of one input file that need it), and each answer is checked as the apiserver does;
3. the converter wrapper prunes it with the target version's schema (coerce_to); the target's
   defaults are not applied on this path (with `target_defaults` they are, as a create would).
   A target version the CRD does not have is the converter's error; one it does not serve is the 404
   a GET of that version gets;
4. crdtool validates the result as a create in the target version would (the apiserver does not
   validate on read: these findings say whether the converted manifest could be applied as it is);
5. with `roundtrip`, the result is taken as stored in the target version and converted back the same
   way (one request per input file again), and compared with the object of step 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from crdtool.convert import roundtrip
from crdtool.convert.crd import CRDInfo, crd_infos
from crdtool.convert.review import ConversionError, gv_text, parse_group_version
from crdtool.convert.stored import coerce_to, decode_stored
from crdtool.engine.registry import Registry, ServedVersion
from crdtool.engine.results import Result
from crdtool.engine.skipped import Skipped
from crdtool.load.document import Document
from crdtool.model.gofmt import go_quote
from crdtool.model.jsonvalue import json_copy
from crdtool.schema.defaulting.algorithm import apply_defaults

__all__ = ["ConvertRequest", "Converted", "Converter", "convert_documents", "manifest_view"]


class Converter(Protocol):
    strategy: str
    requests: int

    def convert(self, objects: list[dict], desired: tuple[str, str]) -> list[dict | ConversionError]: ...


@dataclass
class ConvertRequest:
    """What the user asked: the target (`v2` or `group/v2`), and how."""

    to: str
    converter_for: Callable[[CRDInfo], Converter]
    target_defaults: bool = False
    roundtrip: bool = False
    skip_unknown_kinds: bool = False
    validate: bool = True


@dataclass
class Converted:
    """One object's conversion: the apiserver's answer, and what crdtool adds to it."""

    document: Document
    crd: CRDInfo | None = None
    stored_version: str | None = None
    target_version: str | None = None
    strategy: str | None = None
    #: The apiserver's error for this read (None when converted); `reason` NotFound for an unknown kind.
    status: str | None = None
    reason: str | None = None
    #: The object as the apiserver returns it in the target version.
    object: dict | None = None
    #: Paths pruned on the way: by the stored version's schema, then by the target's.
    pruned_stored: list[str] = field(default_factory=list)
    pruned_target: list[str] = field(default_factory=list)
    defaulted: list[str] = field(default_factory=list)
    #: The create of the converted object in the target version (engine.results.Result).
    validation: Result | None = None
    #: With a round trip: the object back in its own version, and what it lost.
    back: dict | None = None
    lost: list[roundtrip.Loss] | None = None
    #: The apiserver's error on the way back, when the round trip could not be made.
    back_status: str | None = None
    #: The object read in its own version (step 1): what the round trip is compared with.
    original: dict | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def pruned(self) -> list[str]:
        return [*self.pruned_stored, *(p for p in self.pruned_target if p not in self.pruned_stored)]

    @property
    def converted(self) -> bool:
        return self.status is None and self.object is not None

    @property
    def errors(self) -> list:
        return self.validation.errors if self.validation is not None else []


def _order_like(value: Any, like: Any) -> Any:
    """`value` with its keys in the order of `like` where both have them (so a diff shows changes,
    not the sorted keys of a webhook's JSON)."""
    if isinstance(value, dict) and isinstance(like, dict):
        out = {k: _order_like(value[k], like[k]) for k in like if k in value}
        out.update((k, v) for k, v in value.items() if k not in out)
        return out
    if isinstance(value, list) and isinstance(like, list):
        return [_order_like(v, like[i]) if i < len(like) else v for i, v in enumerate(value)]
    return value


def manifest_view(obj: dict, original: Any) -> dict:
    """The converted object as a manifest to keep in a file: the input's order, and no metadata the
    read path adds (a repaired generation, fields the input did not have); labels and annotations
    are the converter's."""
    out = _order_like(json_copy(obj), original)
    meta, before = out.get("metadata"), original.get("metadata") if isinstance(original, dict) else None
    if isinstance(meta, dict):
        keep = set(before) if isinstance(before, dict) else set()
        out["metadata"] = {k: v for k, v in meta.items() if k in keep or k in ("labels", "annotations")}
    return out


class _Run:
    """One run over the documents; converters are made once per CRD, when first needed."""

    def __init__(self, registry: Registry, request: ConvertRequest) -> None:
        self.registry = registry
        self.request = request
        self.crds = crd_infos(registry)
        self.converters: dict[str, Converter] = {}

    def converter(self, crd: CRDInfo) -> Converter:
        if crd.name not in self.converters:
            self.converters[crd.name] = self.request.converter_for(crd)
        return self.converters[crd.name]

    def served(self, crd: CRDInfo, version: str) -> ServedVersion:
        return self.registry.versions[(crd.group, version, crd.kind)]

    # -- step 0: which CRD, which versions
    def resolve(self, doc: Document) -> Converted:
        from crdtool.engine.validate import unknown_kind

        item = Converted(document=doc)
        api_version = doc.api_version if isinstance(doc.api_version, str) else ""
        gv = parse_group_version(api_version) or ("", "")
        crd = self.crds.get((gv[0], doc.kind)) if isinstance(doc.kind, str) else None
        if crd is None:
            result = unknown_kind(doc, self.registry)
            item.status, item.reason = result.status, result.reason or "NotFound"
            return item
        item.crd, item.stored_version, item.strategy = crd, gv[1], crd.strategy
        target = parse_group_version(self.request.to) or ("", self.request.to)
        group, version = target if "/" in self.request.to else (crd.group, target[1])
        item.target_version = version
        if group != crd.group:
            item.status = (f"{gv[0]}/{gv[1]}, Kind={crd.kind} is unstructured and is not suitable for converting to "
                           f"{go_quote(gv_text(group, version))}")
        elif version not in crd.versions:
            item.status = f"request to convert CR to an invalid group/version: {gv_text(group, version)}"
        elif gv[1] not in crd.versions:
            item.status = f"request to convert CR from an invalid group/version: {api_version}"
        elif not self.served(crd, version).served:  # no handler serves it: a GET of that version is a 404
            item.status, item.reason = "the server could not find the requested resource", "NotFound"
        if gv[1] != crd.storage_version and item.status is None:
            item.notes.append(f"read as stored in {api_version}; the CustomResourceDefinition stores new objects in "
                              f"{gv_text(crd.group, crd.storage_version)}")
        return item

    # -- steps 2 and 3 for a batch (the objects of one file)
    def convert_batch(self, items: list[Converted], objects: list[dict], to_version: Callable[[Converted], str],
                      ) -> list[dict | ConversionError]:
        """Convert objects[i] of items[i] to to_version(items[i]): one converter call per CRD and version."""
        out: list[dict | ConversionError] = [ConversionError("")] * len(items)
        groups: dict[tuple[str, str], list[int]] = {}
        for i, item in enumerate(items):
            assert item.crd is not None
            groups.setdefault((item.crd.name, to_version(item)), []).append(i)
        for (_, version), indices in groups.items():
            crd = items[indices[0]].crd
            assert crd is not None
            needs_call = any(objects[i].get("apiVersion") != gv_text(crd.group, version) for i in indices)
            converter = self.converter(crd) if needs_call or crd.strategy == "None" else _NOP
            results = converter.convert([objects[i] for i in indices], (crd.group, version))
            for i, result in zip(indices, results, strict=True):
                out[i] = result
        return out

    def finish_leg(self, item: Converted, result: dict | ConversionError, version: str) -> tuple[dict, list[str]]:
        """Step 3 for one object: the object and what the target's schema pruned (ConversionError when
        the conversion failed)."""
        if isinstance(result, ConversionError):
            raise result
        assert item.crd is not None
        served = self.served(item.crd, version)
        obj = result
        pruned = coerce_to(obj, served.structural, item.crd.kind, version)
        return obj, pruned

    def run_file(self, docs: list[Document]) -> list[Converted]:
        items = [self.resolve(doc) for doc in docs]
        live: list[tuple[Converted, dict]] = []
        for item in items:
            if item.status is not None or item.crd is None:
                continue
            try:
                decoded = decode_stored(item.document.data, self.served(item.crd, item.stored_version or "").structural)
            except ConversionError as err:
                item.status = str(err)
                continue
            item.original = decoded.obj
            item.pruned_stored, item.defaulted = decoded.pruned, decoded.defaulted
            live.append((item, json_copy(decoded.obj)))
        if not live:
            return items
        results = self.convert_batch([i for i, _ in live], [o for _, o in live], lambda i: i.target_version or "")
        converted: list[Converted] = []
        for (item, _), result in zip(live, results, strict=True):
            try:
                obj, item.pruned_target = self.finish_leg(item, result, item.target_version or "")
            except ConversionError as err:
                item.status = str(err)
                continue
            if self.request.target_defaults:
                item.defaulted += [p for p in apply_defaults(obj, self.served(item.crd, item.target_version).structural)
                                   if p not in item.defaulted]
            item.object = obj
            converted.append(item)
        if self.request.roundtrip and converted:
            self.round_trip(converted)
        if self.request.validate:
            for item in converted:
                item.validation = self.validate(item)
        return items

    def round_trip(self, items: list[Converted]) -> None:
        """Step 5: each converted object, as stored in the target version, read back in its own."""
        stored = []
        for item in items:
            assert item.crd is not None and item.object is not None
            target = self.served(item.crd, item.target_version or "")
            stored.append(decode_stored(item.object, target.structural).obj)
        results = self.convert_batch(items, stored, lambda i: i.stored_version or "")
        for item, result in zip(items, results, strict=True):
            try:
                back, _ = self.finish_leg(item, result, item.stored_version or "")
            except ConversionError as err:
                item.back_status = str(err)
                continue
            apply_defaults(back, self.served(item.crd, item.stored_version or "").structural)
            item.back = back
            item.lost = roundtrip.losses(item.original or {}, back)

    def validate(self, item: Converted) -> Result:
        """Step 4: a create of the converted object in the target version."""
        from crdtool.engine.validate import Request, process

        doc = item.document
        assert item.crd is not None and item.object is not None
        converted_doc = Document(source=doc.source, index=doc.index, data=manifest_view(item.object, doc.data),
                                 text=doc.text, locator=doc.locator, item=doc.item)
        return process(converted_doc, self.served(item.crd, item.target_version or ""), Request(), op="validate")


class _Nop:
    """No call is needed: every object is in the desired version already."""

    strategy = "None"
    requests = 0

    def convert(self, objects: list[dict], desired: tuple[str, str]) -> list[dict | ConversionError]:
        return list(objects)


_NOP = _Nop()


def convert_documents(docs: list[Document], registry: Registry, request: ConvertRequest) -> tuple[
        list[Converted], list[Skipped], dict[str, Converter]]:
    """Every custom resource among `docs` converted; the documents skipped, and why; the converters used."""
    from crdtool.engine.builtin import is_builtin
    from crdtool.engine.lint import is_crd
    from crdtool.load.sources import refuse_unsupported_values

    run = _Run(registry, request)
    skipped: list[Skipped] = []
    by_file: dict[str, list[Document]] = {}
    for doc in docs:
        if is_crd(doc):
            continue
        refuse_unsupported_values(doc)
        if is_builtin(doc):
            skipped.append(Skipped(doc.source, doc.index, doc.api_version, doc.kind, "built-in", "a built-in kind"))
            continue
        if request.skip_unknown_kinds:
            gv = parse_group_version(doc.api_version if isinstance(doc.api_version, str) else "") or ("", "")
            if (gv[0], doc.kind or "") not in run.crds:
                if doc.kind:
                    skipped.append(Skipped(doc.source, doc.index, doc.api_version, doc.kind, "unknown-kind",
                                           "no CustomResourceDefinition"))
                else:
                    skipped.append(Skipped(doc.source, doc.index, doc.api_version, doc.kind, "not-an-object",
                                           "not a Kubernetes object (no kind)"))
                continue
        by_file.setdefault(doc.source, []).append(doc)
    out: list[Converted] = []
    for file_docs in by_file.values():
        out.extend(run.run_file(file_docs))
    order = {id(doc): n for n, doc in enumerate(docs)}
    out.sort(key=lambda c: order[id(c.document)])
    return out, skipped, run.converters
