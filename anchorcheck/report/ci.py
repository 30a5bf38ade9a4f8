"""Reporters for CI: SARIF 2.1.0, GitHub workflow commands, Markdown, JUnit XML.

Every one of them carries repo text, which is untrusted: SARIF and JUnit escape by
construction (JSON, XML; XML-illegal control characters are dropped), workflow
commands percent-encode their data (so a message cannot end the command and start
`::set-output`), Markdown goes through `markup`.
"""

from __future__ import annotations

import inspect
import json
import os
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from anchorcheck import __version__
from anchorcheck.config.workspace import Workspace, hosted_slug
from anchorcheck.model.finding import FingerprintedFinding, Severity
from anchorcheck.patterns import compiled_on_use
from anchorcheck.report.markup import ICONS, md_code, md_text
from anchorcheck.report.text import safe_lines
from anchorcheck.rules import REGISTRY, Rule

PROJECT_URL = "https://github.com/anchorcheck/anchorcheck"
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_XML_ILLEGAL = compiled_on_use(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def rule_help_uri(rule: Rule) -> str:
    return f"{PROJECT_URL}/blob/main/docs/rules.md#{rule.code.lower()}-{rule.name}"


# -- SARIF ------------------------------------------------------------------------


def render_sarif(findings: Sequence[FingerprintedFinding], workspace: Workspace) -> str:
    """One run for the whole workspace; each repo is an `originalUriBaseIds` entry, so
    every result's location is repo-relative and tools can map it to a checkout."""
    rules = list(REGISTRY.values())
    index = {r.code: i for i, r in enumerate(rules)}
    bases = {
        r.name: {"uri": Path(r.path).resolve().as_uri() + "/",
                 "description": {"text": f"repo {r.name} at {r.ref}"}}
        for r in workspace.repos
    }
    run = {
        "tool": {"driver": {
            "name": "anchorcheck",
            "version": __version__,
            "informationUri": PROJECT_URL,
            "rules": [_sarif_rule(r) for r in rules],
        }},
        "originalUriBaseIds": bases,
        "results": [_sarif_result(ff, index) for ff in findings],
        "columnKind": "unicodeCodePoints",
    }
    doc = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _sarif_rule(rule: Rule) -> dict[str, Any]:
    doc = inspect.cleandoc(rule.doc)
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": doc},
        "help": {"text": doc, "markdown": doc},
        "helpUri": rule_help_uri(rule),
        "defaultConfiguration": {
            "level": _LEVEL[rule.severity],
            "enabled": rule.enabled_by_default,
        },
    }


def _sarif_result(ff: FingerprintedFinding, index: dict[str, int]) -> dict[str, Any]:
    f = ff.finding
    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": index[f.code],
        "level": _LEVEL[f.severity],
        "message": {"text": f.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": quote(f.path), "uriBaseId": f.repo},
            "region": {"startLine": max(1, f.line), "startColumn": max(1, f.column)},
        }}],
        "partialFingerprints": {"anchorcheck/v1": ff.fingerprint},
        "properties": {"repo": f.repo},
    }
    if f.change:
        result["properties"]["change"] = f.change
    if f.suggestion:
        result["properties"]["suggestion"] = f.suggestion
    if f.evidence:
        result["properties"]["evidence"] = f.evidence
        result["properties"]["prose"] = f.prose
    return result


# -- GitHub workflow commands ------------------------------------------------------


def _escape_data(text: str) -> str:
    """A workflow command's data: line breaks %-encoded as GitHub decodes them, other
    control characters (ESC, bell) shown as text, as the text reporter shows them."""
    return safe_lines(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def home_repo(workspace: Workspace, env: Mapping[str, str]) -> str | None:
    """The workspace repo a GitHub Actions run belongs to: the one whose URL (or remote)
    names `GITHUB_REPOSITORY`, else the one checked out at `GITHUB_WORKSPACE`; None
    outside Actions, or when none is."""
    slug = env.get("GITHUB_REPOSITORY", "").lower()
    if slug:
        for spec in workspace.repos:
            named = spec.url_slug or hosted_slug(spec.path, spec.remote)
            if named is not None and named.lower() == slug:
                return spec.name
    top = env.get("GITHUB_WORKSPACE")
    if top:
        for spec in workspace.repos:
            if Path(spec.path).resolve() == Path(top).resolve():
                return spec.name
    return None


def render_github(findings: Sequence[FingerprintedFinding], workspace: Workspace,
                  env: Mapping[str, str] | None = None) -> str:
    """`::error file=…,line=…,col=…,title=CODE::message`. In a GitHub Actions run whose
    repo is in the workspace (home_repo), only that repo's findings are annotations,
    with its paths: GitHub would put another repo's on the same path of this one
    (`::error file=README.md`); the others go to the job summary (`--format
    markdown`) and are counted in one notice. Elsewhere, `file` is relative to the
    current directory when the repo lies under it."""
    env = os.environ if env is None else env
    home = home_repo(workspace, env)
    cwd = Path.cwd().resolve()
    lines = []
    elsewhere = 0
    for ff in findings:
        f = ff.finding
        if home is not None and f.repo != home:
            elsewhere += 1
            continue
        spec = workspace.repo(f.repo)
        path = f.path
        if spec is not None and home is None:
            full = Path(spec.path).resolve() / f.path
            if full.is_relative_to(cwd):
                path = os.path.relpath(full, cwd)
        kind = {"error": "error", "warning": "warning", "info": "notice"}[f.severity.label]
        title = f"{f.code} {f.rule}" + (f" [{f.change}]" if f.change else "")
        message = f.message if path != f.path or len(workspace.repos) == 1 else f"{f.repo}: {f.message}"
        lines.append(
            f"::{kind} file={_escape_property(path)},line={f.line},col={f.column},"
            f"title={_escape_property(title)}::{_escape_data(message)}"
        )
    if elsewhere:
        noun = "finding" if elsewhere == 1 else "findings"
        lines.append(f"::notice title=anchorcheck::{elsewhere} {noun} in other repos of the workspace: "
                     "see the job summary")
    return "".join(line + "\n" for line in lines)


# -- Markdown ----------------------------------------------------------------------


def render_markdown(findings: Sequence[FingerprintedFinding],
                    links: Mapping[str, tuple[str, str]] | None = None) -> str:
    """A summary table and the details: for a PR comment or $GITHUB_STEP_SUMMARY.
    `links` gives, per repo, its web URL and the commit checked: each place is then a
    link to that line of that file at that commit."""
    links = links or {}
    out = ["### anchorcheck", ""]
    if not findings:
        return "\n".join([*out, "No problems found.", ""])
    counts = Counter(ff.finding.code for ff in findings)
    out += ["| rule | | findings |", "|---|---|---:|"]
    for code in sorted(counts):
        rule = REGISTRY[code]
        out.append(f"| {ICONS[rule.severity]} `{code}` | {rule.name} | {counts[code]} |")
    out += ["", "<details><summary>Details</summary>", ""]
    for ff in findings:
        f = ff.finding
        where = md_code(f"{f.repo}:{f.path}:{f.line}")
        if f.repo in links and f.path:
            url, commit = links[f.repo]
            where = f"[{where}]({url}/blob/{commit}/{quote(f.path)}#L{f.line})"
        change = f" ({md_code(f.change)})" if f.change else ""
        out.append(f"- {ICONS[f.severity]} **{f.code}** {where}{change}: {md_text(f.message)}")
    out += ["", "</details>", ""]
    return "\n".join(out)


# -- JUnit -------------------------------------------------------------------------


def render_junit(findings: Sequence[FingerprintedFinding]) -> str:
    """One test suite per rule; one failing test case per finding, or one passing case
    when the rule found nothing, so CI test views count rules and findings."""
    by_code: dict[str, list[FingerprintedFinding]] = {code: [] for code in REGISTRY}
    for ff in findings:
        by_code[ff.finding.code].append(ff)
    root = ET.Element("testsuites", name="anchorcheck", tests="0", failures=str(len(findings)))
    total = 0
    for code, group in by_code.items():
        rule = REGISTRY[code]
        suite = ET.SubElement(root, "testsuite", name=f"{code} {rule.name}",
                              tests=str(max(1, len(group))), failures=str(len(group)))
        if not group:
            ET.SubElement(suite, "testcase", classname=code, name=rule.name)
            total += 1
            continue
        for ff in group:
            f = ff.finding
            case = ET.SubElement(suite, "testcase", classname=code,
                                 name=_xml(f"{f.repo}:{f.path}:{f.line}"))
            failure = ET.SubElement(case, "failure", message=_xml(f.message), type=f.severity.label)
            failure.text = _xml(f"{f.repo}:{f.path}:{f.line}:{f.column}: {f.code} {f.message}")
            total += 1
    root.set("tests", str(total))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _xml(text: str) -> str:
    return _XML_ILLEGAL.sub("\ufffd", text)
