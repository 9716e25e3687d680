"""`--format junit`: a JUnit XML report for CI test views (GitLab, Jenkins, ...).

One <testsuite> per input file, in the order first met; one <testcase> per document, with
classname the file and name `Kind name` (`document N` without them). A document the apiserver
would refuse, or with a finding of level error, has a <failure> whose message is the apiserver's
answer (kubectl's `Error from server` status) and whose text lists every finding as
`file:line:col: level: message`; warnings and notes of an accepted document go to <system-out>.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from crdtool.engine.results import Result
from crdtool.report.context import RenderContext
from crdtool.report.issues import document_label, issues, line

#: What XML 1.0 cannot hold at all (not even as a character reference); shown as Go escapes instead.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(s: str) -> str:
    """`s` with every character that XML 1.0 forbids written as `\\x01` (or `\\ud800`)."""
    return _NOT_XML.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x20 else f"\\u{ord(m[0]):04x}", s)


def _failure(result: Result, found) -> tuple[str, str] | None:
    """(message, type) of a refused document, or of one with a finding of level error; else None."""
    strict = result.strict_status
    if strict is not None:
        return strict, "BadRequest"
    if result.status is not None:
        return result.status, result.reason or "Invalid"
    first = next((i for i in found if i.level == "error"), None)
    return None if first is None else (first.message, first.rule)


def _testcase(suite: ET.Element, result: Result) -> bool:
    """Add the document's <testcase>; whether it failed."""
    case = ET.SubElement(suite, "testcase", classname=xml_text(result.document.source),
                         name=xml_text(document_label(result)))
    found = issues(result)
    text = "".join(xml_text(line(i)) + "\n" for i in found)
    failure = _failure(result, found)
    if failure is not None:
        node = ET.SubElement(case, "failure", message=xml_text(failure[0]), type=xml_text(failure[1]))
        node.text = text
    elif text:
        ET.SubElement(case, "system-out").text = text
    return failure is not None


def report(results: list[Result], name: str = "crdtool", skipped: list | None = None) -> str:
    """The report; each document not checked (`skipped`, engine.skipped) is a <testcase> with <skipped>."""
    root = ET.Element("testsuites", name=name)
    suites: dict[str, ET.Element] = {}
    counts: dict[str, list[int]] = {}

    def suite_of(source: str) -> ET.Element:
        if source not in suites:
            suites[source] = ET.SubElement(root, "testsuite", name=xml_text(source))
            counts[source] = [0, 0, 0]
        return suites[source]

    for result in results:
        source = result.document.source
        failed = _testcase(suite_of(source), result)
        counts[source][0] += 1
        counts[source][1] += failed
    for passed in skipped or []:
        label = f"{passed.kind} (document {passed.index})" if passed.kind else f"document {passed.index}"
        case = ET.SubElement(suite_of(passed.source), "testcase", classname=xml_text(passed.source),
                             name=xml_text(str(label)))
        ET.SubElement(case, "skipped", message=xml_text(passed.detail))
        counts[passed.source][0] += 1
        counts[passed.source][2] += 1
    for source, suite in suites.items():
        tests, failures, passed_over = counts[source]
        suite.attrib.update(tests=str(tests), failures=str(failures), errors="0", skipped=str(passed_over))
    root.attrib.update(tests=str(sum(c[0] for c in counts.values())),
                       failures=str(sum(c[1] for c in counts.values())), errors="0",
                       skipped=str(sum(c[2] for c in counts.values())))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def render(results: list[Result], context: RenderContext) -> None:
    """`--format junit`; the report holds documents only, so the run's notes go to stderr."""
    for note in context.notes:
        context.stderr.write(f"note: {note}\n")
    context.stdout.write(report(results, context.command, context.skipped))
