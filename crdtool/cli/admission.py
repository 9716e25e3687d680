"""`validate`'s admission options: configurations named apart, where a webhook's service is served
locally, the CA that verifies webhooks, and namespaces' labels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from crdtool.cli.common import read_ca_bundle, read_documents
from crdtool.errors import UsageError

__all__ = ["admission_inputs", "admission_options"]


def admission_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--admission, --webhook-service, --ca-bundle, --namespace-labels."""
    options = [
        click.option("--admission", "admission_paths", multiple=True, type=click.Path(exists=True),
                     help="Admission configurations (webhook configurations, policies) applied to the objects "
                          "without being checked themselves; those among PATHS are used too. Repeatable."),
        click.option("--webhook-service", "webhook_services", multiple=True,
                     metavar="NAMESPACE/NAME[:PORT][/PATH]=URL",
                     help="Call a webhook's service reference at a local address, e.g. "
                          "pizza-crd/webhook=https://127.0.0.1:8443. Repeatable."),
        click.option("--ca-bundle", "ca_bundle", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
                     help="PEM CA bundle that verifies every webhook's certificate, instead of its caBundle."),
        click.option("--namespace-labels", "namespace_labels", multiple=True, metavar="NAMESPACE=KEY=VALUE[,...]",
                     help="A namespace's labels for namespaceSelectors, when no Namespace object among the "
                          "inputs gives them. Repeatable."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _labels(values: tuple[str, ...]) -> dict[str, dict[str, str]]:
    found: dict[str, dict[str, str]] = {}
    for value in values:
        namespace, _, pairs = value.partition("=")
        labels = found.setdefault(namespace, {})
        for pair in filter(None, pairs.split(",")):
            key, sep, label = pair.partition("=")
            if not namespace or not sep or not key:
                raise UsageError(f"{value!r} is not NAMESPACE=KEY=VALUE[,KEY=VALUE]", "--namespace-labels")
            labels[key] = label
    return found


def admission_inputs(paths: tuple[str, ...], services: tuple[str, ...], ca_bundle: str | None,
                     namespace_labels: tuple[str, ...]) -> Any:
    """The engine's admission inputs (admission.chain.Inputs) from the options; None when none is given."""
    if not (paths or services or ca_bundle or namespace_labels):
        return None
    from crdtool.admission.chain import Inputs

    mapped = {}
    for text in services:
        from crdtool.admission.webhooks import parse_service  # here: a run without webhooks needs none of it

        try:
            reference, url = parse_service(text)
        except ValueError as err:
            raise UsageError(str(err), "--webhook-service") from None
        mapped[reference] = url
    ca = read_ca_bundle(ca_bundle)
    return Inputs(documents=read_documents(paths) if paths else [], webhook_services=mapped, ca_bundle=ca,
                  namespace_labels=_labels(namespace_labels))
