"""`anchorcheck graph`: the reference graph, filtered, collapsed, and exported.

Exports work on a plain copy of the graph whose attributes are strings and numbers
(the check graph carries objects). Formats: DOT (clusters per repo, dangling
references dashed red), Mermaid (GitHub renders it; collapsed when too large),
node-link JSON, GraphML (Gephi, yEd) and a self-contained HTML page.
"""

from __future__ import annotations

import base64
import difflib
import hashlib
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from importlib import resources

import networkx as nx

from anchorcheck.check.pipeline import CheckResult
from anchorcheck.config.workspace import web_url
from anchorcheck.report.text import safe_lines, safe_text

# GitHub renders Mermaid up to 50,000 characters and 500 edges by default.
MERMAID_MAX_CHARS = 50_000
MERMAID_MAX_EDGES = 500
_BAD = {"dangling", "wrong-location", "ambiguous", "unknown-repo", "dangling-path"}


def export_graph(result: CheckResult) -> nx.MultiDiGraph:
    """A copy with plain attributes, and the finding codes on the nodes they concern."""
    codes: dict[str, set[str]] = defaultdict(set)
    messages: dict[str, list[str]] = defaultdict(list)
    for ff in result.findings:
        f = ff.finding
        node = finding_node(result.graph, f.repo, f.path, f.line, f.column)
        if node is not None:
            codes[node].add(f.code)
            messages[node].append(f"{f.code} {f.message}")
    g = nx.MultiDiGraph()
    # Where each repo is browsed, at the commit checked: the HTML page links findings there.
    # (As JSON text: GraphML holds no nested data.)
    g.graph["repos"] = json.dumps({
        spec.name: {"url": spec.url if spec.url and web_url(spec.url) else "",
                    "commit": result.index.snapshots[spec.name].commit}
        for spec in result.workspace.repos if spec.name in result.index.snapshots
    })
    for node, data in result.graph.nodes(data=True):
        attrs = {
            "type": data.get("type", ""),
            "repo": data.get("repo", ""),
            "path": data.get("path", ""),
            "line": int(data.get("line", 0)),
            "label": _label(data),
            "kind": data.get("kind", ""),
            "status": data.get("status", ""),
            "codes": ",".join(sorted(codes.get(node, ()))),
            "messages": "\n".join(messages.get(node, ())),
        }
        g.add_node(node, **attrs)
    for u, v, key in result.graph.edges(keys=True):
        g.add_edge(u, v, key=key, relation=key)
    return g


def finding_node(g: nx.MultiDiGraph, repo: str, path: str, line: int, column: int) -> str | None:
    """The node a finding is about, by identity: the reference (or anchor) that starts
    at its line and column, else its file. Matched by line alone, a resolved link on the
    same line as a broken one was drawn as broken too."""
    for node in (f"ref:{repo}:{path}:{line}:{column - 1}", f"anchor:{repo}:{path}:{line}:{column - 1}",
                 f"file:{repo}:{path}"):
        if node in g:
            return node
    return None


def _label(data: dict[str, object]) -> str:
    kind = data.get("type")
    if kind == "repo":
        return str(data.get("repo", ""))
    if kind == "file":
        return str(data.get("path", ""))
    return str(data.get("name", ""))


# -- filters -----------------------------------------------------------------------


def keep_repo(g: nx.MultiDiGraph, repo: str) -> nx.MultiDiGraph:
    core = {n for n, d in g.nodes(data=True) if d["repo"] == repo}
    return g.subgraph(core | _neighbours(g, core)).copy()


def keep_anchor(g: nx.MultiDiGraph, name: str, depth: int) -> nx.MultiDiGraph:
    """The anchor named and what lies within `depth` citations of it (nothing when no
    anchor has the name: nearest_anchors then says what it may have meant)."""
    names = (name, f"Note [{name}]")
    start = {n for n, d in g.nodes(data=True) if d["type"] == "anchor" and d["label"] in names}
    seen = set(start)
    frontier = set(start)
    for _ in range(depth):
        frontier = _neighbours(g, frontier) - seen
        seen |= frontier
    return g.subgraph(seen).copy()


def nearest_anchors(g: nx.MultiDiGraph, name: str) -> list[str]:
    """The anchors whose names are nearest `name`, at most three, any case."""
    by_fold = {d["label"].casefold(): d["label"] for _, d in g.nodes(data=True) if d["type"] == "anchor"}
    return [by_fold[x] for x in difflib.get_close_matches(name.casefold(), sorted(by_fold), n=3, cutoff=0.6)]


def keep_problems(g: nx.MultiDiGraph) -> nx.MultiDiGraph:
    core = {n for n, d in g.nodes(data=True) if d["codes"] or d["status"] in _BAD}
    return g.subgraph(core | _neighbours(g, core)).copy()


def _neighbours(g: nx.MultiDiGraph, nodes: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for n in nodes:
        out.update(g.successors(n))
        out.update(g.predecessors(n))
    return out


def collapse(g: nx.MultiDiGraph, level: str) -> nx.MultiDiGraph:
    """Summarise to files or repos: one edge per pair, with the number of citations."""
    def owner(node: str) -> str:
        d = g.nodes[node]
        if level == "repos" or d["type"] == "repo":
            return f"repo:{d['repo']}"
        return f"file:{d['repo']}:{d['path']}"

    counts: Counter[tuple[str, str]] = Counter()
    bad: Counter[tuple[str, str]] = Counter()
    for u, v, key in g.edges(keys=True):
        if key in ("resolves", "targets", "misplaced"):
            pair = (owner(u), owner(v))
            counts[pair] += 1
            if key == "misplaced":
                bad[pair] += 1
    out = nx.MultiDiGraph()
    for node, d in g.nodes(data=True):
        o = owner(node)
        if o not in out:
            od = g.nodes[o] if o in g else {"repo": d["repo"], "path": d["path"]}
            out.add_node(o, type="repo" if o.startswith("repo:") else "file", repo=d["repo"],
                         path="" if o.startswith("repo:") else d["path"], line=0,
                         label=od.get("label", o.split(":", 2)[-1]), kind="", status="", codes="",
                         messages="")
        if d["codes"]:
            merged = set(filter(None, out.nodes[o]["codes"].split(","))) | set(d["codes"].split(","))
            out.nodes[o]["codes"] = ",".join(sorted(merged))
            said = (out.nodes[o]["messages"], d.get("messages", ""))
            out.nodes[o]["messages"] = "\n".join(filter(None, said))
        if d["status"] in _BAD:
            out.nodes[o]["status"] = "problem"
    for (u, v), n in sorted(counts.items()):
        out.add_edge(u, v, key="cites", relation="cites", count=n, broken=bad[(u, v)])
    return out


# -- formats -----------------------------------------------------------------------


def to_json(g: nx.MultiDiGraph) -> str:
    return json.dumps(nx.node_link_data(g, edges="links"), indent=2, ensure_ascii=False) + "\n"


# What XML 1.0 forbids in a document (and no escape can carry): repo text holding it
# made the GraphML unreadable to every parser.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def to_graphml(g: nx.MultiDiGraph) -> str:
    """GraphML, with characters XML cannot hold shown as `\\xNN` text."""
    text = "\n".join(nx.generate_graphml(g)) + "\n"
    return _NOT_XML.sub(lambda m: f"\\x{ord(m.group(0)):02x}", text)


def _by_repo(g: nx.MultiDiGraph) -> list[tuple[str, list[str]]]:
    """Each repo's nodes (the repo node itself aside), repos in name order."""
    by_repo: dict[str, list[str]] = defaultdict(list)
    for node, d in g.nodes(data=True):
        if d["type"] != "repo":
            by_repo[d["repo"]].append(node)
    return sorted(by_repo.items())


def _repo_nodes(g: nx.MultiDiGraph) -> list[str]:
    """Repo nodes drawn as nodes: those of a view collapsed to repos, which cite or are
    cited, or hold nothing drawn. In the other views a repo is the box around its files."""
    def drawn(n: str) -> bool:
        edges = [k for *_, k in g.out_edges(n, keys=True)] + [k for *_, k in g.in_edges(n, keys=True)]
        return any(k != "contains" for k in edges) or "contains" not in edges

    return sorted(n for n, d in g.nodes(data=True) if d["type"] == "repo" and drawn(n))


def _dot_string(text: str) -> str:
    text = safe_lines(text)  # control characters as `\\x1b` text; line breaks DOT's own
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(g: nx.MultiDiGraph) -> str:
    lines = ["digraph anchorcheck {", "  rankdir=LR;", '  node [fontname="Helvetica", fontsize=10];']
    for i, (repo, nodes) in enumerate(_by_repo(g)):
        lines.append(f"  subgraph cluster_{i} {{")
        lines.append(f"    label={_dot_string(repo)}; style=rounded; color=grey;")
        for node in sorted(nodes):
            d = g.nodes[node]
            shape = {"file": "folder", "anchor": "box", "reference": "ellipse"}.get(d["type"], "box")
            style = 'style="dashed", color="red"' if d["status"] in _BAD or d["codes"] else ""
            label = d["label"] + (f"\n[{d['codes']}]" if d["codes"] else "")
            lines.append(f"    {_dot_string(node)} [label={_dot_string(label)}, shape={shape}"
                         f"{', ' + style if style else ''}];")
        lines.append("  }")
    for node in _repo_nodes(g):
        d = g.nodes[node]
        style = ', style="dashed", color="red"' if d["codes"] or d["status"] == "problem" else ""
        label = d["label"] + (f"\n[{d['codes']}]" if d["codes"] else "")
        lines.append(f"  {_dot_string(node)} [label={_dot_string(label)}, shape=box3d{style}];")
    for u, v, key, d in g.edges(keys=True, data=True):
        if key == "contains" and g.nodes[u]["type"] == "repo":
            continue
        attrs = [f"label={_dot_string(str(d['count']))}"] if "count" in d else []
        if key == "misplaced" or d.get("broken"):
            attrs.append('style="dashed", color="red"')
        tail = f" [{', '.join(attrs)}]" if attrs else ""
        lines.append(f"  {_dot_string(u)} -> {_dot_string(v)}{tail};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _mermaid_text(text: str) -> str:
    for ch, code in (("#", "#35;"), ('"', "#quot;"), ("<", "#lt;"), (">", "#gt;"), ("`", "#96;")):
        text = text.replace(ch, code)
    return safe_text(" ".join(text.split()))


def to_mermaid(g: nx.MultiDiGraph, notes: list[str] | None = None) -> str:
    """Mermaid, collapsing to files, then repos, while it would exceed GitHub's limits;
    `notes` is told when it collapsed past what was asked (the command says so)."""
    said = notes if notes is not None else []
    for level in (None, "files", "repos"):
        view = g if level is None else collapse(g, level)
        text = _mermaid(view)
        edges = text.count(" --> ") + text.count(" -.-> ") + text.count(" --- ")
        if len(text) <= MERMAID_MAX_CHARS and edges <= MERMAID_MAX_EDGES:
            if level is not None:
                said.append(f"the graph is too large for Mermaid as asked ({g.number_of_nodes()} nodes): "
                            f"collapsed to {level} (--collapse, --only-repo or --problems make it smaller)")
            return text
    said.append(f"the graph is too large for Mermaid even collapsed to repos ({len(text)} characters): "
                "GitHub may not render it")
    return text


def _mermaid(g: nx.MultiDiGraph) -> str:
    ids = {node: f"n{i}" for i, node in enumerate(sorted(g.nodes))}
    lines = ["flowchart LR"]
    for node in _repo_nodes(g):
        lines.append(f'  {ids[node]}[["{_mermaid_text(g.nodes[node]["label"][:80])}"]]')
    for i, (repo, nodes) in enumerate(_by_repo(g)):
        lines.append(f'  subgraph r{i}["{_mermaid_text(repo)}"]')
        for node in sorted(nodes):
            d = g.nodes[node]
            label = _mermaid_text(d["label"][:80])
            shape = {"anchor": ('["', '"]'), "reference": ('("', '")'), "file": ('[/"', '"/]')}
            left, right = shape.get(d["type"], ('["', '"]'))
            lines.append(f"    {ids[node]}{left}{label}{right}")
        lines.append("  end")
    bad_nodes = []
    for u, v, key, d in g.edges(keys=True, data=True):
        if key == "contains" and g.nodes[u]["type"] == "repo":
            continue
        # A file holds its references (a line, no head); a reference cites (an arrow).
        arrow = " --- " if key in ("contains", "defines") else \
            " -.-> " if key == "misplaced" or d.get("broken") else " --> "
        label = f"|{d['count']}|" if "count" in d else ""
        lines.append(f"  {ids[u]}{arrow}{label}{ids[v]}")
    for node, d in g.nodes(data=True):
        if d["type"] != "repo" and (d["codes"] or d["status"] in _BAD | {"problem"}):
            bad_nodes.append(ids[node])
    if bad_nodes:
        lines.append("  classDef problem stroke:#d00,stroke-width:2px,stroke-dasharray:4")
        lines.append(f"  class {','.join(bad_nodes)} problem")
    return "\n".join(lines) + "\n"


def to_html(g: nx.MultiDiGraph, title: str = "anchorcheck graph") -> str:
    """One self-contained page: the data as JSON inside the page (with `<` escaped, so
    no repo text can close the script element), rendered with textContent only."""
    data = nx.node_link_data(g, edges="links")
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    page = resources.files(__package__ or "anchorcheck").joinpath("graph.html").read_text(encoding="utf-8")
    safe_title = re.sub(r"[<>&\"']", "", title)
    page = page.replace("__TITLE__", safe_title).replace("__GRAPH_JSON__", payload)
    # The policy allows the page's one script by its hash, and no other inline script:
    # were any repo text ever to reach the page as markup, it could not run.
    code = page.split("\n<script>", 1)[1].split("</script>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(code.encode()).digest()).decode()
    return page.replace("script-src 'unsafe-inline'", f"script-src 'sha256-{digest}'", 1)

