"""Values restated without a marker (`facts --restated`, AC207): a literal in one repo
equal to a fact of another repo, where the names relate.

The seed's reviewer found by hand that the runtime binds
`int(os.getenv("INGESTION_HTTP_PORT", "8080"))` while the chart hardcodes 8080 at
`containerPort` and at the probe's `port`; `restates` markers and contracts help only
once someone has seen such a restatement. Here the facts of every repo (facts.py) are
compared: a fact a program reads (an env default `env.NAME`, a module constant) is
restated by a literal elsewhere with the same value when

- the literal's key is the same name (`env.INGESTION_HTTP_PORT: 8080` in values.yaml),
  or its key path says it in other words (`ingestion.httpPort`): score 3 and 2;
- it is a port (`containerPort`, `port`, `targetPort`) and the name ends in `_PORT`:
  score 1.

Each comes with the marker to add, and the contract. A chart that also passes its
`.Values.env` through to the container lets an operator set the variable while the
literal stays: AC207, the seed's very mechanism.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from dataclasses import dataclass

from anchorcheck.config.workspace import Workspace
from anchorcheck.extract.facts import Fact, same_value
from anchorcheck.git.repo import GitRepo
from anchorcheck.resolve.verify import list_facts

_PORT_KEYS = frozenset({"containerport", "port", "targetport", "hostport", "serviceport"})
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_PASSTHROUGH = re.compile(r"\.Values\.env\b")
_DULL = frozenset({"", "true", "false", "null", "none", "0", "1", "yes", "no"})


@dataclass(frozen=True, slots=True)
class Restatement:
    """`at` (a literal) restates the fact `fact`: same value, related names."""

    fact: str  # REPO:PATH::KEY of the fact a program reads
    value: str
    at: str  # REPO:PATH::KEY of the literal
    repo: str
    path: str
    line: int
    why: str
    score: int
    passthrough: bool = False  # its chart passes `.Values.env` through (AC207)

    @property
    def marker(self) -> str:
        return f"# restates {self.fact}"


def _tokens(key: str) -> tuple[str, ...]:
    return tuple(t.lower() for part in re.split(r"[._\-]", key) for t in _CAMEL.split(part) if t)


def _source(address: str) -> str | None:
    """The name a program reads a fact by: `NAME` of `env.NAME`, or a module constant."""
    key = address.partition("::")[2]
    path = address.partition("::")[0].partition(":")[2]
    if not path.endswith(".py"):
        return None  # (a values.yaml's `env.X` is a literal itself, not a program's read)
    if key.startswith("env.") and len(key) > 4:
        return key[4:]
    if key.isupper() and "." not in key:
        return key
    return None


def _relation(name: str, key: str, value: str) -> tuple[int, str] | None:
    last = key.rsplit(".", 1)[-1]
    if last == name or key == f"env.{name}":
        return 3, f"the same name, {name}"
    if len(_tokens(name)) > 1 and _tokens(name) == _tokens(key)[-len(_tokens(name)):]:
        return 2, f"{key} says {name} in other words"
    if last.lower() in _PORT_KEYS and name.upper().endswith("PORT") and value.isdigit():
        return 1, f"a {last} and {name}, a port"
    return None


def restated(workspace: Workspace, marked: set[tuple[str, str, int]] | None = None) -> list[Restatement]:
    """Every restatement, best first; `marked` (repo, path, line) already carry a
    `restates` marker or are in a contract, and are left out."""
    facts = list_facts(workspace, None)
    in_contracts = {a for c in workspace.settings.contracts for a in c.facts}
    sources = [(addr, name, f) for addr, f in facts if (name := _source(addr)) is not None
               and f.value.strip().lower() not in _DULL]
    by_value: dict[str, list[tuple[str, Fact]]] = defaultdict(list)
    for addr, f in facts:
        by_value[f.value.strip().strip("\"'")].append((addr, f))
    found: list[Restatement] = []
    for addr, name, fact in sources:
        repo = addr.partition(":")[0]
        for other, literal in by_value.get(fact.value.strip().strip("\"'"), ()):
            o_repo, _, rest = other.partition(":")
            o_path, _, o_key = rest.partition("::")
            if o_repo == repo or other in in_contracts or not same_value(fact.value, literal.value):
                continue
            if marked is not None and (o_repo, o_path, literal.line) in marked:
                continue
            rel = _relation(name, o_key, literal.value)
            if rel is not None:
                found.append(Restatement(addr, fact.value, other, o_repo, o_path, literal.line,
                                         rel[1], rel[0]))
    found = _with_passthrough(workspace, found)
    return sorted(found, key=lambda r: (-r.score, r.fact, r.at, r.line))


def _with_passthrough(workspace: Workspace, found: list[Restatement]) -> list[Restatement]:
    """Mark the restatements in a chart whose templates pass `.Values.env` through
    (only their charts' templates are read)."""
    charts: dict[tuple[str, str], bool] = {}
    trees: dict[str, tuple[GitRepo, str, list[str]]] = {}
    out = []
    for r in found:
        spec = workspace.repo(r.repo)
        folder = posixpath.dirname(r.path)
        while folder and posixpath.basename(folder) == "templates":
            folder = posixpath.dirname(folder)
        key = (r.repo, folder)
        if key not in charts and spec is not None:
            if r.repo not in trees:
                git = GitRepo(spec.path)
                commit = git.resolve(spec.ref)
                trees[r.repo] = (git, commit, [e.path for e in git.list_tree(commit)])
            git, commit, paths = trees[r.repo]
            templates = (folder + "/templates/") if folder else "templates/"
            charts[key] = any(_PASSTHROUGH.search(git.text_at(commit, p) or "") for p in paths
                              if p.startswith(templates) and p.endswith((".yaml", ".yml", ".tpl")))
        out.append(r if not charts.get(key) else
                   Restatement(r.fact, r.value, r.at, r.repo, r.path, r.line, r.why, r.score, True))
    return out
