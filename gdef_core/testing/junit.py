"""`gdef-test --junit-xml`: the JUnit XML that CI systems (GitHub, GitLab, Jenkins) read."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable


def junit_xml(results: list, seconds: float, describe: Callable) -> str:
    failures = sum(1 for result in results if result.status == "failed")
    errors = sum(1 for result in results if result.status == "error")
    suites = ET.Element("testsuites")
    suite = ET.SubElement(suites, "testsuite", name="gdef-test", tests=str(len(results)),
                          failures=str(failures), errors=str(errors), skipped="0",
                          time=f"{seconds:.3f}")
    for result in results:
        case = ET.SubElement(suite, "testcase", classname=_classname(result.case.file),
                             name=result.case.name, file=result.case.file,
                             line=str(result.line or result.case.line), time=f"{result.seconds:.3f}")
        if result.status != "passed":
            tag = "failure" if result.status == "failed" else "error"
            element = ET.SubElement(case, tag, message=result.message)
            element.text = describe(result)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _classname(path: str) -> str:
    name = path[: -len(".test.moves")] if path.endswith(".test.moves") else path
    return name.replace("\\", "/").replace("/", ".").lstrip(".")
