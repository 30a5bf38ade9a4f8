"""The merge order's graph code against networkx's algorithms it replaces."""

from __future__ import annotations

import itertools

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.pr.analysis import Analysis, Dependency
from anchorcheck.pr.order import order_changes, strong_components
from anchorcheck.resolve.workspace_index import WorkspaceIndex

_REF = Reference.make(RefKind.HEADING, 1, 0, "see X", name="X")


def _networkx_order(labels: list[str], edges: list[tuple[str, str]]) -> tuple[str, ...]:
    """What order_changes computed with networkx before: condensation, then a topological
    sort preferring the component with the earliest given change."""
    g = nx.DiGraph()
    g.add_nodes_from(labels)
    g.add_edges_from(edges)
    position = {label: i for i, label in enumerate(labels)}
    condensed = nx.condensation(g)
    groups: dict[int, list[str]] = {}
    for label, comp in condensed.graph["mapping"].items():
        groups.setdefault(comp, []).append(label)
    first = {comp: min(position[x] for x in ls) for comp, ls in groups.items()}
    order: list[str] = []
    for comp in nx.lexicographical_topological_sort(condensed, key=first.__getitem__):
        order.extend(sorted(groups[comp], key=position.__getitem__))
    return tuple(order)


graphs = st.integers(min_value=1, max_value=9).flatmap(
    lambda n: st.tuples(
        st.just([f"c{i}" for i in range(n)]),
        st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda e: e[0] != e[1]),
                 max_size=3 * n),
    )
)


@settings(max_examples=300, deadline=None)
@given(graphs)
def test_order_and_components_match_networkx(graph: tuple[list[str], list[tuple[int, int]]]) -> None:
    labels, pairs = graph
    edges = [(labels[a], labels[b]) for a, b in pairs]
    result = Analysis((), WorkspaceIndex([], ()),
                      dependencies=[Dependency(a, b, _REF, ()) for a, b in edges])
    order_changes(result, labels)
    assert result.order == _networkx_order(labels, edges)
    g = nx.DiGraph(edges)
    g.add_nodes_from(labels)
    after = {label: {b for a, b in edges if a == label} for label in labels}
    assert sorted(map(sorted, strong_components(labels, after))) == \
        sorted(map(sorted, nx.strongly_connected_components(g)))
    assert set(result.edges) == set(edges)
    assert bool(result.cycles) == (not nx.is_directed_acyclic_graph(g))


def test_a_long_chain_does_not_exhaust_the_stack() -> None:
    labels = [f"c{i}" for i in range(5000)]
    after = {label: set() for label in labels}
    for a, b in itertools.pairwise(labels):
        after[a].add(b)
    assert len(strong_components(labels, after)) == 5000
