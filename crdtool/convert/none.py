"""Strategy None: the apiserver's nopConverter changes the apiVersion and nothing else.

What the target version's schema does not know is then pruned by the converter wrapper
(crdtool.convert.stored.coerce_to), so a field that exists only in the source version is lost on
the way: `crdtool convert` reports it.
"""

from __future__ import annotations

from crdtool.convert.review import ConversionError, gv_text

__all__ = ["NoneConverter"]


class NoneConverter:
    """nopConverter.Convert: every object gets the desired group/version (its kind kept)."""

    strategy = "None"
    requests = 0

    def convert(self, objects: list[dict], desired: tuple[str, str]) -> list[dict | ConversionError]:
        return [{**obj, "apiVersion": gv_text(*desired)} for obj in objects]
