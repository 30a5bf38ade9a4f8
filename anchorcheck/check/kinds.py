"""Which files a check reads: the kinds its rules and `kinds` need, and of the other kinds
only the files what it read may resolve to.

A kind is a language family (extract/languages.py). Each rule says what it reads
(Rule.reads): the files it reports on ("sources": the kinds `kinds` names, every kind
when it names none), one kind (AC108 reports only on Markdown), or every file ("all":
a duplicate or an unreferenced anchor is one only among all of them). So `--select
AC108`, or `--kind markdown --select AC1`, lists every tree but reads the Markdown.

What each reference read resolves to must be what it resolves to in a check that read
everything (`needs`). A path, a line claim, a symbol or a fact is looked up in the tree
listing and in git, never in what extraction found. A heading or fragment is looked up
in the files it names: those are read too, whatever their kind (and the files a page
includes). A one-word heading named with no place, not in caps, is looked up by that
exact name in the whole workspace: the files of other kinds holding the word are found
by `git grep` and read. Every other lookup of the whole workspace makes the check read
everything: a Note (defined in files of any kind), a heading that did not resolve where
it is named, or a name whose did-you-mean decides the finding (names._anywhere).
Those are what a Markdown-only check meets most (measured in benchmarks/README.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from anchorcheck.config.excludes import excluder
from anchorcheck.config.workspace import Workspace
from anchorcheck.errors import GitError
from anchorcheck.extract.headings import HeadingOptions, caps_heading_text
from anchorcheck.extract.languages import KINDS, kind_pathspecs, language_of
from anchorcheck.git.repo import GitRepo
from anchorcheck.model.reference import RefKind
from anchorcheck.resolve.resolution import Resolution, Status
from anchorcheck.resolve.workspace_index import WorkspaceIndex
from anchorcheck.rules.base import Rule

# References resolved in the tree listing or by git (verify.py reads the claimed files
# itself), or on a forge: never against the anchors extraction found.
_NOT_AGAINST_ANCHORS = frozenset((RefKind.ISSUE, RefKind.PATH, RefKind.LINES, RefKind.SYMBOL, RefKind.FACT))


def read_kinds(rules: Iterable[Rule], kinds: Sequence[str]) -> tuple[str, ...] | None:
    """The kinds a check running `rules` must read, reporting on `kinds` (empty: every
    kind); None when that is every kind."""
    wanted: set[str] = set()
    for rule in rules:
        if rule.reads == "all" or (rule.reads == "sources" and not kinds):
            return None
        if rule.reads == "sources":
            wanted.update(kinds)
        elif not kinds or rule.reads in kinds:
            wanted.add(rule.reads)
    return tuple(sorted(wanted))


def in_kinds(path: str, kinds: Sequence[str]) -> bool:
    """Whether a file is of one of `kinds` (every file is, when there are none)."""
    return not kinds or language_of(path) in kinds


@dataclass(frozen=True, slots=True)
class Needs:
    """What a check that read some kinds must still read for its references to resolve
    as they would in a check that read everything."""

    everything: bool = False
    files: frozenset[tuple[str, str]] = frozenset()  # (repo, path) of other kinds
    words: frozenset[str] = frozenset()  # one-word names looked up in the whole workspace


def needs(
    index: WorkspaceIndex, resolutions: Iterable[Resolution], kinds: Sequence[str], headings: HeadingOptions,
    also: Iterable[tuple[str, str]] = (),
) -> Needs:
    """What the references of files of `kinds` need read that was not: `also` (of
    other kinds) was."""
    read = set(also)
    files: set[tuple[str, str]] = set()
    words: set[str] = set()

    def unread(repo: str, path: str) -> bool:
        return language_of(path) is not None and language_of(path) not in kinds and (repo, path) not in read

    for res in resolutions:
        ref = res.reference
        if ref.kind in _NOT_AGAINST_ANCHORS or language_of(ref.path) not in kinds:
            continue  # (a file read for what it holds is not checked: its references ask nothing)
        if ref.kind is RefKind.NOTE:
            return Needs(everything=True)
        if ref.kind is RefKind.HEADING:
            name = ref.name or ""
            # Resolved in the files it names, or, named with no place, in its own file:
            # no other file was asked.
            here = all((a.repo, a.path) == (ref.repo, ref.path) for a in res.anchors)
            if ref.target_path is not None and res.status is not Status.RESOLVED:
                return Needs(everything=True)  # moved elsewhere? and its did-you-mean
            if ref.target_path is None and not (res.status is Status.RESOLVED and here):
                if len(name.split()) > 1 or caps_heading_text(name, headings) == name:
                    return Needs(everything=True)  # its did-you-mean decides (names._anywhere)
                words.add(name)
        at = [*res.files, *((a.repo, a.path) for a in res.anchors)]
        if ref.kind is RefKind.SLUG and res.status is not Status.RESOLVED:
            at += [g for f in res.files for g in index.snippets(f)]  # a page's included files
        files.update(f for f in at if unread(*f))
    return Needs(files=frozenset(files), words=frozenset(words))


def word_files(
    workspace: Workspace, index: WorkspaceIndex, words: Iterable[str], kinds: Sequence[str],
) -> set[tuple[str, str]] | None:
    """The files of the kinds not read that hold one of `words` (where an anchor of that
    name would be: a caps heading, a Note, a doc heading, as written); None when git
    cannot tell."""
    wanted = sorted(words)
    if not wanted:
        return set()
    other = sorted(KINDS - set(kinds))
    out: set[tuple[str, str]] = set()
    for spec in workspace.repos:
        snap = index.snapshots.get(spec.name)
        if snap is None:
            continue
        excluded = excluder(workspace.settings.excluded_in(spec))
        try:
            hits = GitRepo(spec.path).grep_fixed(wanted, snap.commit, kind_pathspecs(other))
        except GitError:
            return None
        out.update((spec.name, path) for path in hits
                   if language_of(path) in other and path in snap.paths
                   and (excluded is None or not excluded.search(path)))
    return out
