"""AC203's questions to git: which names are defined at a commit. The check asks only
about its candidates (lines naming them); index files carry every defined name; the
two must agree, and both must match what the PCRE definition pattern matched before."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from anchorcheck.config.workspace import Settings
from anchorcheck.extract.languages import READ_PATHSPECS
from anchorcheck.git.process import Background
from anchorcheck.git.repo import GitError, GitRepo, NameSearch
from anchorcheck.git.repobuilder import commit, init_repo
from anchorcheck.index.cache import BlobCache
from anchorcheck.index.plan import extract_options
from anchorcheck.resolve.defined_among import DefinedAmong
from anchorcheck.resolve.definition_shapes import (
    _DEFINITION_PERL,
    _DEFINITION_POSIX,
    _IDENT,
    defined_names,
    names_defined_in,
)
from anchorcheck.resolve.moved import SEARCHED

_FILES: dict[str, str | bytes] = {
    "a.py": (
        "import os, sys\nfrom pkg.sub import alpha, beta_two\n  import   indented\n"
        "def top(x):\n    def inner(): pass\nclass Klass(Base):\n\tdef\ttabbed(self): ...\n"
        "CONST = 1\nnot_def == 2\nundef_thing = undefx\nxdef notakeyword\n"
        "def\nsplit_over_lines = 3\n\x0cafter_form_feed = 4\n# def in_a_comment\n"
        "s = 'class InString'\n"
    ),
    "b.hs": "module M where\nsig :: Int\nsig = 1\ndata T = T\nnewtype N = N Int\ntype Alias = T\n"
            "  indentedSig :: Int\nf x = x\n",
    "c.js": "const $el = 1;\nlet _private = 2\nvar x$y = 3\nfunction fn_js() {}\nexport class Exported {}\n",
    "d.c": "struct point { int x; };\nenum colour { RED };\nstatic int helper(void);\n"
           "void c_defined(HashTypeSetEx *ex) {\n  c_called(ex);\n}\nint y = c_init(3);\n"
           "unsigned long\ngnu_style (int a)\n{\n}\nstatic struct point *make_point(int x);\n"
           'extern "C" {\n    void *indented_c(const void *p)\n    {\n        helper_call(p);\n'
           "        return c_returned(p);\n    }\n}\n",
    "e.py": b"def caf\xe9(): pass\ndef after_latin1(): pass\n",
    "f.go": "package f\n\nfunc (c *Client) StandardClient() *Client {\n\treturn c.go_called()\n}\n",
    "notes.txt": "def not_read_here\n",  # not a file anchorcheck reads
}


def _defined_among(*args: Any) -> set[str]:
    """DefinedAmong's answer, through a search of its own (as RemovedMentions makes)."""
    search = NameSearch(READ_PATHSPECS)
    asked = DefinedAmong(*args, search)
    search.start()
    try:
        return asked.result()
    finally:
        search.cancel()


def _repo(tmp_path: Path) -> tuple[GitRepo, str]:
    path = init_repo(tmp_path / "r", _FILES)
    return GitRepo(path), commit(path, {}, "again")


def _words() -> list[str]:
    text = "".join(v if isinstance(v, str) else v.decode("latin-1") for v in _FILES.values())
    return sorted(set(_IDENT.findall(text)) | {"absent_name", "$el", "x$y", "$"})


def test_defined_names_match_the_pcre_pattern_they_were_listed_with(tmp_path: Path) -> None:
    git, head = _repo(tmp_path)
    # The definition as git printed it before (`-o`: the matching parts), the UTF-8
    # files only (those parts were decoded with odd bytes escaped).
    parts = git._grep(("-h", "-o"), "-P", _DEFINITION_PERL, head, [p for p in READ_PATHSPECS])
    assert parts is not None
    before = set(_IDENT.findall(parts)) - {"caf", "xe9"}
    now = defined_names(git, head)
    assert now - {"caf"} == before
    assert {"top", "inner", "tabbed", "CONST", "alpha", "beta_two", "indented", "sig", "T", "N", "Alias",
            "$el", "_private", "x$y", "fn_js", "Exported", "point", "colour", "after_latin1",
            "undef_thing", "split_over_lines", "helper", "c_defined", "gnu_style", "make_point",
            "StandardClient", "indented_c"} <= now
    assert not {"not_def", "notakeyword", "not_read_here", "f", "go_called", "helper_call", "c_returned",
                "indentedSig", "undefx", "c_called", "c_init",
                "after_form_feed"} & now  # `^name =`: a form feed is not the start of the line
    # The lines git picks without PCRE give the same names.
    posix = "".join(git._grep(("-h",), "-E", p, head, READ_PATHSPECS) or "" for p in _DEFINITION_POSIX)
    assert names_defined_in(posix) == now


def test_asking_about_candidates_agrees_with_every_defined_name(tmp_path: Path) -> None:
    git, head = _repo(tmp_path)
    words = _words()
    everything = defined_names(git, head)
    assert _defined_among({"r": git}, {"r": head}, words, {}, None) == everything & set(words)
    assert "$el" in everything and "x$y" in everything and "absent_name" not in everything


def test_answers_about_candidates_are_cached_by_commit(tmp_path: Path) -> None:
    git, head = _repo(tmp_path)
    cache = BlobCache(tmp_path / "cache", extract_options(Settings()))
    assert _defined_among({"r": git}, {"r": head}, ["top", "absent_name"], {}, cache) == {"top"}
    # Asked again with one new name, of a repo where nothing is defined (in place of
    # the real one, so that what git is asked shows): the cached answer stands, only
    # the new name is searched.
    empty = GitRepo(init_repo(tmp_path / "empty", {"z.py": "pass\n"}))
    assert _defined_among({"r": empty}, {"r": head}, ["top", "absent_name", "CONST"], {}, cache) == {"top"}
    stored = cache.get_result(f"defined-among:v6:{SEARCHED}:{head}")
    assert stored == {"asked": ["CONST", "absent_name", "top"], "defined": ["top"], "settled": [],
                      "files": {"top": ["a.py"]}, "all-files": ["top"]}
    # A name an index file says is defined counts without asking git.
    assert _defined_among({"r": git}, {"r": head}, ["elsewhere"], {"r": frozenset({"elsewhere"})}, None) == \
        {"elsewhere"}


def test_a_line_with_a_form_feed_is_one_record(tmp_path: Path) -> None:
    path = init_repo(tmp_path / "r", {"a.py": "x = 1\x0cname_after = 2\n"})
    git = GitRepo(path)
    head = git.resolve("HEAD")
    assert git.start_grep_words(["name_after"], head).result() == [("a.py", 1, "x = 1\x0cname_after = 2")]
    assert re.search("name_after", git.start_grep_words(["x"], head).result()[0][2])


def _log(git: GitRepo, commit: str, depth: int) -> Background | None:
    """The log AC203 reads for this history, started (None when there is none)."""
    return git.start_commits_log(git.history_commits(commit, depth))


def _log_text(git: GitRepo, commit: str, depth: int) -> str:
    log = _log(git, commit, depth)
    out = log.output() if log is not None else None
    return "" if out is None else out.decode()


def _removals(git: GitRepo, commit: str, depth: int) -> dict[str, Any]:
    """The removal table read from the whole log, here (no thread, no cache)."""
    from anchorcheck.resolve.definition_events import removals_in_log

    return removals_in_log(_log_text(git, commit, depth), "r")


def test_a_log_parsed_in_its_thread_gives_the_table_parsed_here_and_cancels_cleanly(tmp_path: Path) -> None:
    from anchorcheck.resolve.history import ParsedLog

    path = init_repo(tmp_path / "r", {"a.py": "def gone(): pass\ndef kept(): pass\n"})
    head = commit(path, {"a.py": "def kept(): pass\n"}, "drop gone")
    head = commit(path, {"b.py": "X = 1\n"}, "more")
    git = GitRepo(path)
    log = _log(git, head, 10)
    assert log is not None
    parsed = ParsedLog("r", log)
    assert parsed.result() == _removals(git, head, 10) and set(parsed.result()) == {"gone"}
    parsed.cancel()  # after its result: nothing left to stop
    # Cancelled while git may still run: returns, and nothing is left open.
    running = _log(git, head, 10)
    assert running is not None
    early = ParsedLog("r", running)
    early.cancel()
    assert running._out.closed


_LINE_BITS = st.sampled_from(["def ", "class ", "x", "name", "Name", " = ", "==", " :: ", "import ", "from ",
                              "a.b ", ", ", "  ", "const ", "$n", "\t", "(", ")", "\u00a0", "\x0c", "é",
                              "\r", "\x0b", ".", "type", "data\tx", "var", "let name", "fn ", " name", "$"])


@settings(max_examples=600, deadline=None)
@given(lines=st.lists(st.lists(_LINE_BITS, max_size=8).map("".join), max_size=12),
       name=st.sampled_from(["x", "name", "Name", "xname", "a", "b", "$n", "import", "from", "def", "type", "let"]))
# A keyword after a bracket (the keyword is among the names), an import list without
# blanks, a carriage return as the blank after a keyword:
@example(lines=["(def x"], name="def")
@example(lines=["import a,name"], name="name")
@example(lines=["def\rname"], name="name")
# The test that spares most lines the pattern: a second use after a first, a keyword
# mid-line, blanks of every kind, a `$` before the name.
@example(lines=["x name; data \x0b name"], name="name")
@example(lines=["f name = let\t name"], name="name")
@example(lines=["data $n", "var xname"], name="n")
@example(lines=["  name = 1", "name== 2", "xdef name"], name="name")
def test_a_name_is_defined_on_the_lines_as_in_their_joined_text(lines: list[str], name: str) -> None:
    """DefinedAmong asks name by name, only the lines holding it, stopping at a
    definition: the same answer as names_defined_in over all the lines joined (its
    matches never span lines)."""
    from anchorcheck.resolve.defined_among import _defining_line

    joined = "\n".join(lines)
    assert (_defining_line(name, joined) >= 0) == (name in names_defined_in(joined))


@pytest.mark.parametrize("keyword", ["def", "class", "func", "fn", "function", "struct", "enum", "trait",
                                     "interface", "type", "data", "newtype", "macro", "module", "const",
                                     "let", "var"])
def test_a_name_after_any_keyword_mid_line_is_defined(keyword: str) -> None:
    from anchorcheck.resolve.defined_among import _defining_line

    line = f"x = 1; {keyword} \t name"
    assert "name" in names_defined_in(line)
    assert _defining_line("name", f"use name\n{line}\nname2") >= 0


def test_a_name_one_repo_defines_is_not_asked_of_the_next_and_each_cache_holds_what_was_asked(
    tmp_path: Path,
) -> None:
    first = init_repo(tmp_path / "a", {"a.py": "def shared(): pass\nx = shared\n"})
    second = init_repo(tmp_path / "b", {"b.py": "shared = 1\ndef only_here(): pass\n"})
    gits = {"a": GitRepo(first), "b": GitRepo(second)}
    commits = {name: git.resolve("HEAD") for name, git in gits.items()}
    cache = BlobCache(tmp_path / "cache", extract_options(Settings()))
    assert _defined_among(gits, commits, ["shared", "only_here", "nowhere"], {}, cache) == {"shared", "only_here"}
    assert cache.get_result(f"defined-among:v6:{SEARCHED}:{commits['a']}") == {
        "asked": ["nowhere", "only_here", "shared"], "defined": ["shared"], "settled": [], "files": {"shared": ["a.py"]},
        "all-files": ["shared"]}
    # `shared` was found in a: b was not asked about it; its entry says it was spared it.
    assert cache.get_result(f"defined-among:v6:{SEARCHED}:{commits['b']}") == {
        "asked": ["nowhere", "only_here"], "defined": ["only_here"], "settled": ["shared"],
        "files": {"only_here": ["b.py"]}, "all-files": ["only_here"]}


def test_after_a_repo_moved_the_others_are_asked_only_what_it_no_longer_defines(tmp_path: Path) -> None:
    """The repos spared a name (an earlier repo defined it) are asked it after that
    repo moved only if it no longer defines it; names new to every commit are asked of
    all at once. (A spy on the real searches counts them.)"""
    from unittest import mock

    first = init_repo(tmp_path / "a", {"a.py": "def shared(): pass\ndef kept(): pass\n"})
    second = init_repo(tmp_path / "b", {"b.py": "def shared(): pass\ndef kept(): pass\n"})
    gits = {"a": GitRepo(first), "b": GitRepo(second)}
    cache = BlobCache(tmp_path / "cache", extract_options(Settings()))

    def ask(names: list[str]) -> tuple[set[str], list[tuple[str, list[str]]]]:
        commits = {name: git.resolve("HEAD") for name, git in gits.items()}
        with mock.patch.object(GitRepo, "start_grep_words", autospec=True,
                               side_effect=GitRepo.start_grep_words) as searches:
            defined = _defined_among(gits, commits, names, {}, cache)
        return defined, [(Path(c.args[0].git_dir).parent.name, list(c.args[1])) for c in searches.call_args_list]

    # Nothing known: every repo searched at once.
    assert ask(["shared", "kept"]) == ({"shared", "kept"}, [("a", ["kept", "shared"]), ("b", ["kept", "shared"])])
    # a moves and keeps both: b, spared them, is not searched.
    commit(first, {"a.py": "def shared(): pass\ndef kept(): pass\n# moved\n"}, "move")
    assert ask(["shared", "kept"]) == ({"shared", "kept"}, [("a", ["kept", "shared"])])
    # a drops `shared`: b is asked it, in a second round, and defines it; a name new to
    # both is asked of both in the first. (a, moved, is asked the names of its last
    # entry in its changed file alone: that file was all that defined them.)
    commit(first, {"a.py": "def kept(): pass\n"}, "drop shared")
    assert ask(["shared", "kept", "fresh"]) == (
        {"shared", "kept"}, [("a", ["kept", "shared"]), ("a", ["fresh"]), ("b", ["fresh"]), ("b", ["shared"])])
    # Nothing moved: nothing is searched.
    assert ask(["shared", "kept", "fresh"]) == ({"shared", "kept"}, [])


def _asking(gits: dict[str, GitRepo], names: list[str], cache: BlobCache | None) -> tuple[
        set[str], list[tuple[str, list[str], tuple[str, ...]]]]:
    """DefinedAmong's answer at every repo's HEAD, and the searches it started: (repo,
    names, pathspecs), through a spy on the real searches."""
    from unittest import mock

    commits = {name: git.resolve("HEAD") for name, git in gits.items()}
    with mock.patch.object(GitRepo, "start_grep_words", autospec=True,
                           side_effect=GitRepo.start_grep_words) as searches:
        defined = _defined_among(gits, commits, names, {}, cache)
    return defined, [(Path(c.args[0].git_dir).parent.name, list(c.args[1]), tuple(c.args[3]))
                     for c in searches.call_args_list]


def test_a_moved_repo_is_asked_again_only_in_its_changed_files(tmp_path: Path) -> None:
    """After a repo moved, a name one of the files found defining it still defines (one
    that did not change) is not searched for; the other names are asked of the changed
    files, and a name whose files all changed and no longer define it is searched for
    in every file."""
    path = init_repo(tmp_path / "a", {"defs.py": "def kept(): pass\n", "notes.md": "x\n",
                                      **{f"f{i}.py": "def moving(): pass\n" for i in range(1, 6)}})
    gits = {"a": GitRepo(path)}
    cache = BlobCache(tmp_path / "cache", extract_options(Settings()))
    names = ["kept", "moving", "later"]
    assert _asking(gits, names, cache) == ({"kept", "moving"}, [("a", ["kept", "later", "moving"], READ_PATHSPECS)])
    # A file that defines nothing asked changes: nothing is searched whole; `later`,
    # defined nowhere before, is asked of the changed files only.
    commit(path, {"notes.md": "y\n", "new.py": "x = 1\n"}, "docs")
    assert _asking(gits, names, cache) == (
        {"kept", "moving"}, [("a", ["later"], (":(literal)new.py", ":(literal)notes.md"))])
    # A changed file now defines `later`; the four files kept for `moving` drop it:
    # asked of the changed files, then of every file (f5.py still defines it).
    four = {f"f{i}.py": "pass\n" for i in range(1, 5)}
    commit(path, {"new.py": "def later(): pass\n", **four}, "move")
    assert _asking(gits, names, cache) == (
        {"kept", "moving", "later"},
        [("a", ["later", "moving"], tuple(f":(literal){p}" for p in [*four, "new.py"])),
         ("a", ["moving"], READ_PATHSPECS)])
    # Nothing moved: nothing is searched, the answer stands.
    assert _asking(gits, names, cache) == ({"kept", "moving", "later"}, [])
    # The one file found defining `moving` changes and still defines it: only that file
    # is searched.
    commit(path, {"f5.py": "x = 1\ndef moving(): pass\n"}, "edit")
    assert _asking(gits, names, cache) == ({"kept", "moving", "later"}, [("a", ["moving"], (":(literal)f5.py",))])
    # A file whose name git grep prints quoted changed: every name is searched for again.
    commit(path, {"caf\u00e9.py": "pass\n"}, "quoted")
    assert _asking(gits, names, cache) == (
        {"kept", "moving", "later"}, [("a", ["kept", "later", "moving"], READ_PATHSPECS)])


def test_the_files_kept_for_a_name_are_all_only_when_every_line_naming_it_was_read() -> None:
    from anchorcheck.resolve.defined_among import _FILES_KEPT, _LINES_FURTHER, _Lines

    def lines(uses: int, defining: int) -> _Lines:
        out = [("a.py", 1, "def name(): pass")]
        out += [("b.py", n, "    return name") for n in range(1, uses + 1)]
        out += [(f"c{n}.py", 1, "def name(): pass") for n in range(defining)]
        return _Lines(out)

    assert lines(10, 1).defining("name") == (["a.py", "c0.py"], True)
    assert lines(10, 0).defining("other") == ([], True)
    # More uses than are read past the first file: the second file is not known.
    assert lines(_LINES_FURTHER + 1, 1).defining("name") == (["a.py"], False)
    # More files than are kept.
    assert lines(0, _FILES_KEPT).defining("name") == (["a.py", "c0.py", "c1.py", "c2.py"], False)
    assert lines(0, _FILES_KEPT - 1).defining("name") == (["a.py", "c0.py", "c1.py", "c2.py"], True)



def test_a_minified_line_is_read_as_the_names_it_defines() -> None:
    """A line past _LONG_LINE (a minified bundle) is matched once, and answers as the
    whole line would: a name it defines, not one it only uses or holds inside another."""
    from anchorcheck.resolve.defined_among import _LONG_LINE, _Lines

    bundle = "!function(){var used=1;" + "used();" * (_LONG_LINE // 7) + "function show(e){return e}}();"
    lines = _Lines([("min.js", 1, bundle), ("app.py", 3, "def shown(): pass"), ("b.js", 1, "var late = 2;")])
    assert lines.defining("show") == (["min.js"], True)
    assert lines.defining("used") == (["min.js"], True)
    assert lines.defining("shown") == (["app.py"], True)
    assert lines.defining("late") == (["b.js"], True)  # the files after a long line keep their place
    assert lines.defining("return") == ([], True)
    assert lines.defining("e") == ([], True)

# (More files than a name's kept files, _FILES_KEPT.)
_EDITS = st.lists(st.tuples(st.sampled_from(["a.py", "b.py", "c.md", "d/e.py", "f.py", "g.py", "h.py"]),
                            st.sampled_from([None, "", "def one(): pass\n", "two = 2\n", "one()\n",
                                             "def two(): pass\ndef three(): pass\n", "import one\n"])),
                  min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
@given(steps=st.lists(_EDITS, min_size=1, max_size=4), names=st.lists(
    st.sampled_from(["one", "two", "three", "four"]), min_size=1, max_size=4, unique=True))
def test_answers_derived_from_a_moved_repos_last_entry_are_those_of_a_search_of_every_file(
    tmp_path_factory: pytest.TempPathFactory, steps: list[list[tuple[str, str | None]]], names: list[str],
) -> None:
    tmp = tmp_path_factory.mktemp("moves")
    path = init_repo(tmp / "a", {"a.py": "def one(): pass\n", "c.md": "two\n",
                                 **{f"{x}.py": "def one(): pass\ntwo = 2\n" for x in "fgh"}})
    gits = {"a": GitRepo(path)}
    cache = BlobCache(tmp / "cache", extract_options(Settings()))
    assert _defined_among(gits, {"a": gits["a"].resolve("HEAD")}, names, {}, cache) == \
        _defined_among(gits, {"a": gits["a"].resolve("HEAD")}, names, {}, None)
    for edits in steps:
        head = commit(path, dict(edits), "step")
        assert _defined_among(gits, {"a": head}, names, {}, cache) == \
            _defined_among(gits, {"a": head}, names, {}, None)


def test_changed_files_are_told_only_as_git_grep_names_them(tmp_path: Path) -> None:
    path = init_repo(tmp_path / "r", {"a.py": "x\n", "b.txt": "x\n"})
    git = GitRepo(path)
    first = git.resolve("HEAD")
    second = commit(path, {"a.py": "y\n", "b.txt": "y\n", "d/c.py": "z\n", "gone.py": None}, "move")
    assert git.changed_between(first, second, READ_PATHSPECS, 10) == ["a.py", "d/c.py"]
    assert git.changed_between(first, second, (), 10) == ["a.py", "b.txt", "d/c.py"]
    assert git.changed_between(first, second, (), 2) is None  # more than the limit
    assert git.changed_between("0" * 40, second, (), 10) is None  # a commit this repo lacks
    third = commit(path, {"a.py": None}, "delete")
    assert git.changed_between(second, third, READ_PATHSPECS, 10) == ["a.py"]  # a deleted file is one
    for name in ("caf\u00e9.py", 'q"uote.py', "co:lon.py", "tab\t.py"):
        head = commit(path, {name: "x\n"}, "odd name")
        assert git.changed_between(third, head, READ_PATHSPECS, 10) is None, name


_DIFF_BITS = st.sampled_from(["def ", "type ", "data ", "class", " ", "\t", "\r", "x", "Name", "NAME", " = ", "=",
                              "==", " :: ", "::", "(", "é", "+", "-", "diff --git a/x b/y"])
_DEFINING = st.tuples(st.sampled_from(["", "the ", "x "]), st.sampled_from(["def ", "type\t", "data", "class "]),
                      st.sampled_from(["x", "Name", "NAME", "", " "])).map("".join) | \
    st.tuples(st.sampled_from(["x", "Name", "NAME", "x(", ""]), st.sampled_from([" = ", " =", "=", "==", " :: ", ":"])).map(
        "".join)
_DIFF_LINES = st.one_of(
    st.tuples(st.sampled_from(["+", "-", "++", "--", "+++", "---", "@@ ", ""]),
              st.lists(_DEFINING | _DIFF_BITS, max_size=3)).map(lambda t: t[0] + "".join(t[1])),
    st.sampled_from(["index 0000000..1111111", "new file mode 100644", "\\ No newline at end of file"]),
)
_SECTIONS = st.tuples(st.sampled_from(["a.py", "b.hs", "notes.txt"]), st.lists(_DIFF_LINES, max_size=8))
_COMMITS = st.lists(st.tuples(st.sampled_from(["s1", "s2"]), st.lists(_SECTIONS, max_size=3)), max_size=4)


def _patch_log(commits: list[tuple[str, list[tuple[str, list[str]]]]]) -> str:
    """A log as `git log -p -U0 --format=%x00%H %s` prints it."""
    return "".join(
        f"\0{i:040x} subject {subject}\n"
        + "".join(f"\ndiff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n" + "\n".join(lines)
                  for path, lines in sections)
        + "\n"
        for i, (subject, sections) in enumerate(commits)
    )


@settings(max_examples=300, deadline=None)
@given(commits=_COMMITS)
# The cases a random log seldom holds: a `+--` comment line is an added line, not a
# header (and its `type variable` is prose); `NAME =` at a line's end assigns nothing; "diff --git" inside a line starts no
# file; the last line of a file's diff has no line break after it.
@example(commits=[("s1", [("a.hs", ["+-- a type variable"])]), ("s2", [("a.hs", ["-type variable"])])])
@example(commits=[("s1", [("a.py", ["-the type", "index 00..11"])])])
@example(commits=[("s1", [("a.py", ["-NAME =", "+x"])])])
@example(commits=[("s1", [("a.py", ["+diff --git a/x b/notes.txt", "-def gone"])])])
@example(commits=[("s1", [("a.hs", ["-x ::"]), ("b.hs", ["+y"])])])
# By file: rewritten in place in one commit; moved to another file, in two.
@example(commits=[("s1", [("a.py", ["-def x(a)", "+def x(a, b)"])])])
@example(commits=[("s1", [("a.py", ["-def x"])]), ("s2", [("b.hs", ["+data x"])])])
def test_removals_read_from_the_whole_log_are_those_read_line_by_line(
    commits: list[tuple[str, list[tuple[str, list[str]]]]],
) -> None:
    """removals_in_log matches over each file's diff at once; the same table as taking
    the log line by line (a NUL and the sha, `diff --git` headers, +/- lines), each
    line's first definition event counting, file headers (+++, ---) not lines: a name
    is removed when in every file its newest commit's events there add nothing, and
    the newest such removal is named."""
    from anchorcheck.extract.languages import language_of
    from anchorcheck.resolve.definition_events import Removal, removals_in_log
    from anchorcheck.resolve.definition_shapes import KEYWORDS

    log = _patch_log(commits)
    # A keyword on a comment line (after its sign: blanks, then #, //, /*, *, --, ; or {-)
    # is prose, not a definition.
    event = re.compile(rf"^(?P<sign>[-+])(?:(?!\s*(?:#|//|/\*|\*|--|;|\{{-)).*?\b"
                       rf"{KEYWORDS.replace('(', '(?:', 1)}\s+(?P<a>[A-Za-z_$][\w$]*)"
                       r"(?![\w$])|(?P<b>[A-Za-z_][A-Za-z0-9_]*)\s*(?:=[^=]|::))")
    # (name, path) -> the signs of its events in the newest commit that has any there
    newest: dict[tuple[str, str], tuple[int, str, str, set[str]]] = {}
    order: list[tuple[str, str]] = []  # (name, path) in the order the log first shows them
    sha = subject = path = ""
    n = -1
    for line in log.split("\n"):
        if line.startswith("\0"):
            sha, _, subject = line[1:].partition(" ")
            n += 1
        elif line.startswith("diff --git "):
            path = line.rsplit(" b/", 1)[-1]
        elif line.startswith(("+", "-")) and not line.startswith(("+++", "---")) and language_of(path):
            m = event.match(line)
            if m is None:
                continue
            name = m.group("a") or m.group("b")
            if m.group("b") and not (name.isupper() or "::" in line):
                continue
            if (name, path) not in newest:
                newest[(name, path)] = (n, sha, subject, set())
                order.append((name, path))
            if newest[(name, path)][0] == n:
                newest[(name, path)][3].add(m.group("sign"))
    alive = {name for (name, _), (_, _, _, signs) in newest.items() if "+" in signs}
    found: dict[str, tuple[int, Removal]] = {}
    for name, where in order:
        if name in alive:
            continue
        n, sha, subject, _ = newest[(name, where)]
        if name not in found or n < found[name][0]:
            found[name] = (n, Removal("r", sha, subject, where))
    assert removals_in_log(log, "r") == {k: v for k, (_, v) in found.items()}


def test_a_history_of_roots_only_starts_no_log_and_a_root_is_left_out_of_a_longer_one(tmp_path: Path) -> None:
    from anchorcheck.resolve.history import ParsedLog

    path = init_repo(tmp_path / "r", {"a.py": "def first(): pass\n"})
    git = GitRepo(path)
    assert _log(git, git.resolve("HEAD"), 10) is None  # one commit: no git log at all
    nothing = ParsedLog("r", None)  # as start_history keeps it
    assert nothing.result() == {}
    nothing.cancel()
    head = commit(path, {"a.py": "def second(): pass\n"}, "rename")
    log = _log_text(git, head, 10)
    # The second commit's diff only: the root's (adding `first`) is not shown.
    assert log.count("\0") == 1 and "-def first" in log and "+def first" not in log
    assert set(_removals(git, head, 10)) == {"first"}
    # A depth that cuts the history: the commits within it, the root still left out.
    third = commit(path, {"a.py": "def third(): pass\n"}, "again")
    assert _log_text(git, third, 2).count("\0") == 1 and _log_text(git, third, 3).count("\0") == 2
    # A commit git cannot list: its message, not an empty history.
    with pytest.raises(GitError, match="bad object"):
        git.history_commits("0" * 40, 10)


def test_the_patch_log_keeps_its_shape_whatever_the_users_diff_config(tmp_path: Path) -> None:
    """diff.noprefix drops the `a/` and `b/` the log's parser splits paths at; an
    external diff tool or signatures would change the text too. The log fixes them."""

    path = init_repo(tmp_path / "r", {"src/a.py": "def first(): pass\nKEEP = 1\n"})
    head = commit(path, {"src/a.py": "KEEP = 1\n"}, "drop first")
    git = GitRepo(path)
    plain = _log_text(git, head, 10)
    for key, value in (("diff.noprefix", "true"), ("diff.mnemonicPrefix", "true"),
                       ("diff.external", "false"), ("log.showSignature", "true"),
                       ("diff.indentHeuristic", "true")):
        subprocess.run(["git", "-C", str(path), "config", key, value], check=True)
    assert _log_text(git, head, 10) == plain
    assert "diff --git a/src/a.py b/src/a.py" in plain
    assert set(_removals(git, head, 10)) == {"first"}


@settings(max_examples=400, deadline=None)
@given(lines=st.lists(_DIFF_LINES | _DEFINING, max_size=8), trailing=st.booleans())
# A keyword inside a word (`subclass`) is none, but one after it on the line is; two
# keywords: the first that defines decides; an assignment only where no keyword
# defines; the very first line (no line break before it) counts too.
@example(lines=["+subclass type Foo"], trailing=False)
@example(lines=["-x = type", "+data D = D", "-class", "+NAME = 1 where data Q"], trailing=True)
@example(lines=["+NAME = 1"], trailing=False)
@example(lines=["+function run", "-fn x", "---def no", "+++type no"], trailing=False)
def test_events_are_those_the_one_pattern_finds(lines: list[str], trailing: bool) -> None:
    from anchorcheck.resolve.definition_events import _EVENT, _events

    diff = "\n".join(lines) + ("\n" if trailing else "")
    expected = [(m.start(), m.group("a") or m.group("b"), m.group("b") is not None) for m in _EVENT.finditer(diff)]
    assert _events(diff) == expected


def test_a_repo_that_moved_has_only_its_new_commits_logged_and_the_same_table(tmp_path: Path) -> None:
    """Each commit's definition events are cached by sha: the removal table of a later
    commit reads git's log only for the commits since, and is the table a run without
    a cache finds; cached events that are not well formed are read from git again."""
    import sqlite3

    from anchorcheck.resolve.history import _EVENTS_KEY, repo_removals, start_parsed_log

    path = init_repo(tmp_path / "r", {"a.py": "def first(): pass\ndef second(): pass\nKEEP = 1\n"})
    commit(path, {"a.py": "def second(): pass\nKEEP = 1\n"}, "drop first")
    middle = commit(path, {"b.hs": "data Thing = Thing\n"}, "add Thing")
    git = GitRepo(path)
    cache = BlobCache(tmp_path / "c", extract_options(Settings()))
    assert set(repo_removals(git, "r", middle, 10, cache)) == {"first"}
    commit(path, {"a.py": "KEEP = 1\n"}, "drop second")
    commit(path, {"b.hs": "", "a.py": "def first(): pass\nKEEP = 1\n"}, "first back, Thing gone")
    head = commit(path, {"c.py": "X = 1\n"}, "unrelated")
    log = start_parsed_log(git, "r", head, 10, cache)
    assert set(log.fresh()) == set(git.history_commits(head, 10)) - set(git.history_commits(middle, 10))
    assert len(log.fresh()) == 3
    table = repo_removals(git, "r", head, 10, cache, log)
    assert table == repo_removals(git, "r", head, 10)  # no cache: the whole log
    assert set(table) == {"second", "Thing"}  # `first` came back
    # A damaged entry is a miss: that commit is logged again.
    cache.close()
    older = git.history_commits(middle, 10)[0]
    with sqlite3.connect(tmp_path / "c" / "blobs.sqlite3") as db:
        db.execute("UPDATE results SET value = '[\"s\", [[\"x\", \"?\", \"a.py\"]]]' WHERE key = ?",
                   (_EVENTS_KEY + older,))
    again = BlobCache(tmp_path / "c", extract_options(Settings()))
    relog = start_parsed_log(git, "r", head, 10, again)
    assert set(relog.fresh()) == {older}
    assert {k: [r.repo, r.commit, r.subject, r.path] for k, r in relog.result().items()} == table
    again.close()


def test_a_name_is_removed_only_when_every_file_that_defined_it_lost_it(tmp_path: Path) -> None:
    """By file: a definition rewritten in place (its signature's line removed and
    added in one commit), or moved to another file in an earlier commit, is still
    there; a name is removed once every file history saw defining it lost it, and the
    newest of those removals is named."""
    path = init_repo(tmp_path / "r", {
        "a.hs": "rewritten :: Int\nrewritten = 1\nmoved :: Int\nmoved = 2\ntwice :: Int\ntwice = 3\n",
        "b.py": "def kept(): pass\n",
    })
    commit(path, {"a.hs": "rewritten :: Bool\nrewritten = True\nmoved :: Int\nmoved = 2\ntwice :: Int\ntwice = 3\n"},
           "retype rewritten")
    commit(path, {"c.hs": "moved :: Int\nmoved = 2\ntwice :: Int\ntwice = 3\n"}, "copy moved and twice to c")
    commit(path, {"a.hs": "rewritten :: Bool\nrewritten = True\n"}, "drop the copies in a")
    head = commit(path, {"c.hs": "moved :: Int\nmoved = 2\n"}, "drop twice from c")
    git = GitRepo(path)
    table = _removals(git, head, 10)
    assert set(table) == {"twice"}
    assert (table["twice"].subject, table["twice"].path) == ("drop twice from c", "c.hs")
    # One event per name and file and commit: the retyping adds `rewritten` to a.hs.
    from anchorcheck.resolve.definition_events import commit_events

    events = {subject: found for subject, found in commit_events(_log_text(git, head, 10)).values()}
    assert events["retype rewritten"] == [("rewritten", "+", "a.hs")]
    assert events["drop the copies in a"] == [("moved", "-", "a.hs"), ("twice", "-", "a.hs")]


def test_the_log_and_a_prs_hunks_do_not_follow_the_users_diff_algorithm(tmp_path: Path) -> None:
    # Lines myers and histogram pair differently: with histogram, a `def a():` is shown
    # removed and added again (no removal); with git's default, only removed.
    before = ["  return 1", "  return 1", "}", "  return 1", "", "def b():", "def a():", "  return 1", "def a():"]
    after = ["  return 1", "  return 1", "x = 1", "", "", "def a():", "}", "  return 1", "  pass"]
    path = init_repo(tmp_path / "r", {"x.py": "\n".join(before) + "\n"})
    head = commit(path, {"x.py": "\n".join(after) + "\n"}, "rewrite")
    git = GitRepo(path)
    base = git.resolve("HEAD~1")
    log, hunks = _log_text(git, head, 10), git.diff_hunks(base, head, ["x.py"])
    subprocess.run(["git", "-C", str(path), "config", "diff.algorithm", "histogram"], check=True)
    shown = ["git", "-C", str(path), "diff", "-U0", base, head]
    assert subprocess.run(shown, capture_output=True, text=True, check=True).stdout != subprocess.run(
        [*shown, "--diff-algorithm=myers"], capture_output=True, text=True, check=True).stdout
    assert _log_text(git, head, 10) == log
    assert git.diff_hunks(base, head, ["x.py"]) == hunks
