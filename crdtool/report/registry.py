"""The output formats: one map from a `--format` name to its renderers, from which click's choices
and the settings file's check of `format` are built.

A renderer is named as "module:function" and imported only when a run uses it, so that reading
this map (for `crdtool --help`, or a subcommand's options) loads no renderer and nothing they need;
every renderer follows one protocol, report.context.Renderer: `render(results, context)`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from crdtool.engine.results import Result
    from crdtool.report.context import RenderContext, Renderer

__all__ = ["FINDINGS_FORMATS", "FORMATS", "FORMAT_NAMES", "Format", "per_result", "render", "render_conversions",
           "renderer"]


class Format(NamedTuple):
    """One `--format`: its renderer of Results and of convert's Conversions ("module:function";
    None: the Results renderer over convert's conversions as Results)."""

    name: str
    results: str
    conversions: str | None
    #: A format of findings for CI: never colored, and only for commands that report findings.
    findings: bool = False
    #: Its rendering of one object's result ("module:function"), which the run applies where each
    #: result is made (Result.rendered) and `results` then uses; None: `results` renders them all.
    each: str | None = None


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("text", "crdtool.report.text:render", "crdtool.report.convert:render_text"),
    Format("json", "crdtool.report.jsonout:render", "crdtool.report.convert:render_json",
           each="crdtool.report.jsonout:result_text"),
    Format("kubectl", "crdtool.report.kubectl:render", "crdtool.report.convert:render_kubectl"),
    Format("sarif", "crdtool.report.sarif:render", None, findings=True),
    Format("github", "crdtool.report.github:render", None, findings=True),
    Format("junit", "crdtool.report.junit:render", None, findings=True),
)}
#: Every --format name, in the order the help lists them.
FORMAT_NAMES = tuple(FORMATS)
#: The formats for CI (sarif, github, junit): findings with rule ids and positions.
FINDINGS_FORMATS = tuple(name for name, f in FORMATS.items() if f.findings)


def renderer(target: str) -> Renderer:
    """The renderer a "module:function" name stands for, imported now."""
    found: Renderer = _function(target)
    return found


def _function(target: str) -> Any:
    """The function a "module:function" name stands for, imported now."""
    module, _, function = target.partition(":")
    return getattr(importlib.import_module(module), function)


def per_result(name: str) -> Callable[[Result], Any] | None:
    """The format `name`'s rendering of one result, for the run to apply as results are made (None:
    the format has none)."""
    target = FORMATS[name].each
    return None if target is None else _function(target)


def render(name: str, results: Sequence[Result], context: RenderContext) -> None:
    """Write `results` in the format `name`."""
    renderer(FORMATS[name].results)(results, context)


def render_conversions(name: str, conversions: Sequence[Any], context: RenderContext) -> None:
    """Write convert's results in the format `name`: its own renderer of conversions, or (the CI
    formats) the Results renderer over each conversion's answer and round-trip losses."""
    target = FORMATS[name].conversions
    if target is not None:
        renderer(target)(conversions, context)
        return
    from crdtool.report.convert import as_results

    render(name, as_results(conversions), context)
