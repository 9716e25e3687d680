"""The settings file's part in a run: defaults for the subcommands' options (flags given on the
command line win, as click's default_map gives them), the target Kubernetes version, and the
severities of crdtool's own findings."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from crdtool.config import Config, check_kube_version, find_config, load_config
from crdtool.errors import CrdtoolError
from crdtool.model.record import replace

if TYPE_CHECKING:
    from crdtool.cache import Cache

__all__ = ["apply_settings", "current_cache", "current_settings", "with_severities"]

_KEY = "config"


def apply_settings(ctx: click.Context, path: str | None, search: bool, kube_version: str | None) -> None:
    """Read the settings (the file given, else the one found upward) into the run's context."""
    if kube_version is not None:
        check_kube_version(kube_version, lambda message: click.BadParameter(message, param_hint="--kube-version"))
    config = Config()
    found = path or (find_config() if search else None)
    if found:
        try:
            config = load_config(found)
        except CrdtoolError as err:
            from crdtool.cli.common import report

            ctx.exit(report(err))
    ctx.obj[_KEY] = config
    defaults: dict[str, object] = {}
    if config.field_validation:
        defaults["field_validation"] = config.field_validation
    if config.crds:
        defaults["crd_paths"] = tuple(config.crds)
    if config.skip_unknown_kinds is not None:
        defaults["skip_unknown_kinds"] = config.skip_unknown_kinds
    if defaults:
        from crdtool.cli import SUBCOMMANDS

        ctx.default_map = {name: dict(defaults) for name in SUBCOMMANDS}


def current_settings() -> Config:
    """The settings of this run (defaults when there is no file)."""
    ctx = click.get_current_context(silent=True)
    obj = ctx.find_root().obj if ctx is not None else None
    return (obj or {}).get(_KEY) or Config()


def current_cache() -> Cache:
    """The persistent cache of this run: off with --no-cache or the settings' `cache: false`."""
    from crdtool.cache import Cache, cache_directory, disabled

    ctx = click.get_current_context(silent=True)
    obj = (ctx.find_root().obj if ctx is not None else None) or {}
    store = obj.get("cache")
    if store is None:
        store = disabled() if obj.get("no_cache") or not current_settings().cache else Cache(cache_directory())
        if ctx is not None and ctx.find_root().obj is not None:
            ctx.find_root().obj["cache"] = store  # one per run: a write that fails turns it off for the run
    return store


def with_severities(results: list, config: Config) -> None:
    """Give crdtool's own findings the severities the settings choose (`off` drops them)."""
    if not config.severities:
        return
    for result in results:
        result.findings = [replace(f, severity=config.severities.get(f.code, f.severity)) for f in result.findings
                           if config.severities.get(f.code) != "off"]
