"""The reference graph: repos, files, anchors and references of a workspace.

Node ids are strings with a type prefix; every node carries `type`, `repo`, `path`
and `line` attributes, so exports and rules need nothing else. Edges:
repo -contains-> file -defines-> anchor; file -contains-> reference;
reference -resolves-> anchor (or -targets-> file for a file citation);
reference -misplaced-> anchor when the anchor exists but elsewhere (AC102).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from anchorcheck.model.anchor import Anchor
from anchorcheck.model.reference import Reference
from anchorcheck.resolve.resolution import Resolution, Status
from anchorcheck.resolve.workspace_index import WorkspaceIndex

if TYPE_CHECKING:
    import networkx as nx


def repo_node(repo: str) -> str:
    return f"repo:{repo}"


def file_node(repo: str, path: str) -> str:
    return f"file:{repo}:{path}"


def anchor_node(a: Anchor) -> str:
    return f"anchor:{a.repo}:{a.path}:{a.line}:{a.col}"


def reference_node(r: Reference) -> str:
    return f"ref:{r.repo}:{r.path}:{r.line}:{r.col}"


def build_graph(
    index: WorkspaceIndex, resolutions: Iterable[Resolution], anchors: bool = True
) -> nx.MultiDiGraph:
    """The reference graph; without `anchors`, only the anchors references point at
    (enough for the reference rules, and far smaller)."""
    import networkx as nx  # here: a check answered from the cache never needs it (0.2 s)

    g = nx.MultiDiGraph()
    for name, snap in index.snapshots.items():
        g.add_node(repo_node(name), type="repo", repo=name, path="", line=0,
                   ref=snap.ref, commit=snap.commit)
    for anchor in index.anchors if anchors else ():
        _add_file(g, anchor.repo, anchor.path)
        node = anchor_node(anchor)
        g.add_node(node, type="anchor", repo=anchor.repo, path=anchor.path, line=anchor.line,
                   name=anchor.display, kind=anchor.kind.value, anchor=anchor)
        g.add_edge(file_node(anchor.repo, anchor.path), node, key="defines")
    for res in resolutions:
        ref = res.reference
        if res.status is Status.EXTERNAL:
            continue
        _add_file(g, ref.repo, ref.path)
        node = reference_node(ref)
        g.add_node(node, type="reference", repo=ref.repo, path=ref.path, line=ref.line,
                   name=ref.text, kind=ref.kind.value, status=res.status.value, resolution=res)
        g.add_edge(file_node(ref.repo, ref.path), node, key="contains")
        if res.status is Status.RESOLVED and res.anchors:
            for anchor in res.anchors:
                g.add_edge(node, anchor_node(anchor), key="resolves")
        elif res.status is Status.RESOLVED:
            for repo, path in res.files:
                _add_file(g, repo, path)
                g.add_edge(node, file_node(repo, path), key="targets")
        elif res.status is Status.WRONG_LOCATION:
            for anchor in res.anchors:
                g.add_edge(node, anchor_node(anchor), key="misplaced")
    return g


def _add_file(g: nx.MultiDiGraph, repo: str, path: str) -> None:
    node = file_node(repo, path)
    if node not in g:
        g.add_node(node, type="file", repo=repo, path=path, line=0)
        if repo_node(repo) not in g:
            g.add_node(repo_node(repo), type="repo", repo=repo, path="", line=0)
        g.add_edge(repo_node(repo), node, key="contains")


def nodes_of_type(g: nx.MultiDiGraph, kind: str) -> Iterable[tuple[str, dict[str, object]]]:
    return ((n, d) for n, d in g.nodes(data=True) if d.get("type") == kind)


def citation_count(g: nx.MultiDiGraph, node: str) -> int:
    return sum(1 for _, _, k in g.in_edges(node, keys=True) if k == "resolves")
