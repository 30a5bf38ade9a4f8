"""The merge order: the changes ordered so that each lands after those it needs (the
computed dependencies and the declared ones), otherwise in the order given, with the
changes of a cycle kept together and the cycles listed. Graph work of its own, apart
from the analysis (mergeorder.py) that finds the dependencies."""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence

from anchorcheck.pr.analysis import Analysis


def order_changes(result: Analysis, labels: list[str]) -> None:
    """A merge order that lands every change after those it needs, otherwise in the
    order given; changes in a cycle stay together, in the order given. A handful of
    changes: plain code, not networkx (whose import alone is 0.2 s of a PR run); only
    when there is a cycle to list is it asked to enumerate them."""
    position = {label: i for i, label in enumerate(labels)}
    after: dict[str, set[str]] = {label: set() for label in labels}
    for dep in result.dependencies:
        after[dep.first].add(dep.after)
    for first, then, _ in result.declared:
        after[first].add(then)
    result.edges = tuple(sorted(((a, b) for a in labels for b in after[a]),
                                key=lambda e: (position[e[0]], position[e[1]])))
    components = strong_components(labels, after)
    if any(len(c) > 1 for c in components):
        result.cycles = _cycles(labels, result.edges, position)
    # Components in topological order, the one holding the earliest given change first
    # whenever there is a choice (Kahn's algorithm with a heap).
    comp_of = {label: i for i, comp in enumerate(components) for label in comp}
    first_pos = [min(position[x] for x in comp) for comp in components]
    needs = [0] * len(components)
    out_edges: list[set[int]] = [set() for _ in components]
    for a, b in result.edges:
        ca, cb = comp_of[a], comp_of[b]
        if ca != cb and cb not in out_edges[ca]:
            out_edges[ca].add(cb)
            needs[cb] += 1
    ready = [(first_pos[i], i) for i in range(len(components)) if needs[i] == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        _, i = heapq.heappop(ready)
        order.extend(sorted(components[i], key=position.__getitem__))
        for j in out_edges[i]:
            needs[j] -= 1
            if needs[j] == 0:
                heapq.heappush(ready, (first_pos[j], j))
    result.order = tuple(order)


def strong_components(nodes: Sequence[str], after: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of the graph (Tarjan's algorithm, without
    recursion, so a long chain of changes cannot exhaust the stack)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(after[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(after[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp: list[str] = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    comp.append(top)
                    if top == node:
                        break
                components.append(comp)
    return components


def _cycles(
    labels: list[str], edges: Sequence[tuple[str, str]], position: dict[str, int]
) -> list[tuple[str, ...]]:
    """Every elementary cycle once, starting at its earliest given change."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(labels)
    g.add_edges_from(edges)
    seen: set[frozenset[str]] = set()
    cycles: list[tuple[str, ...]] = []
    for cycle in nx.simple_cycles(g):
        key = frozenset(cycle)
        if key not in seen:
            seen.add(key)
            start = min(cycle, key=position.__getitem__)
            i = cycle.index(start)
            cycles.append(tuple(cycle[i:] + cycle[:i]))
    return cycles
