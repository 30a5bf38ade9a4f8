"""Broken repos, hostile text, odd files: a clear message or finding, never a crash,
never a wrong answer given as right."""

from __future__ import annotations

import json
import os
import re
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from anchorcheck.extract.blob import ExtractOptions, extract
from anchorcheck.extract.families import FAMILIES
from anchorcheck.extract.scanners import scan
from anchorcheck.git.repobuilder import branch, git, init_repo
from tests.conftest import WorkspaceBuilder, run_cli
from tests.linear import assert_linear, repeated

# -- broken repos --------------------------------------------------------------


def test_symlink_loops_in_a_tree_are_listed_not_followed(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("r", {"a.py": "# see MISSING HEADING THERE in a.py\n"})
    os.symlink("b", repo / "a")
    os.symlink("a", repo / "b")
    os.symlink("self", repo / "self")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "symlink loops")
    r = ws.check("--format", "json")
    assert r.code == 1, r.err
    doc = json.loads(r.out)
    assert [(f["code"], f["path"]) for f in doc["findings"]] == [("AC101", "a.py")]


def test_a_file_name_that_is_not_utf8_is_shown_escaped(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("r", {"ok.py": "# see OTHER HEADING in nowhere.py\n"})
    with open(os.path.join(os.fsencode(repo), b"caf\xe9.py"), "wb") as fh:
        fh.write(b"# see MISSING HEADING in nowhere.py\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "a Latin-1 file name")
    for args in (("--no-cache",), ()):  # the cache stores the name too
        r = ws.check("--format", "json", *args)
        assert r.code == 1, r.err
        found = sorted((f["code"], f["path"]) for f in json.loads(r.out)["findings"])
        # The file is read (its reference is checked), and the run goes on.
        assert found == [("AC105", "caf\\xe9.py"), ("AC105", "ok.py")]
    text = ws.check()
    assert text.code == 1 and "r:caf\\xe9.py:1:" in text.out, text.err


def test_a_repo_path_that_is_a_symlink_loop_is_a_one_line_error(tmp_path: Path) -> None:
    os.symlink("loop", tmp_path / "loop")
    r = run_cli("check", "--repo", "x=loop", cwd=tmp_path)
    assert r.code == 2
    assert r.err.count("\n") == 1 and r.err.startswith("anchorcheck: error: --repo x: cannot resolve")
    assert "Traceback" not in r.err


def _corrupt(repo: Path, path: str) -> tuple[Path, bytes]:
    """Overwrite the loose object of `path` at HEAD with garbage; return what was there."""
    oid = git(repo, "rev-parse", f"HEAD:{path}").strip()
    obj = repo / ".git" / "objects" / oid[:2] / oid[2:]
    original = obj.read_bytes()
    obj.chmod(0o644)
    obj.write_bytes(b"not a zlib stream")
    return obj, original


def test_a_corrupt_object_is_warned_about_and_never_cached(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    repo = ws.repo("r", {
        "plan.py": "# ROLLBACK PLAN\n# Roll back by hand.\n",
        "cite.py": "# see ROLLBACK PLAN in plan.py\n",
    })
    obj, original = _corrupt(repo, "plan.py")
    cache = ["--cache-dir", str(tmp_path / "cache")]
    r = ws.check(*cache)
    assert r.code == 1
    assert ("anchorcheck: warning: r:plan.py: unreadable object (missing or corrupt; see git fsck); "
            "the file was not checked") in r.err
    # The finding says why the heading was not found: the file was never read.
    assert "r:plan.py was not read: unreadable object" in r.out
    # Repaired, the same commit checks clean: the broken read was not cached.
    obj.write_bytes(original)
    r = ws.check(*cache)
    assert (r.code, r.out.strip(), r.err) == (0, "No problems found.", "")


def _shallow_workspace(tmp_path: Path) -> Path:
    up = init_repo(tmp_path / "upstream", {
        "plan.py": "# ROLLBACK PLAN\n# Roll back by hand.\n",
        "cite.py": "# see ROLLBACK PLAN in plan.py\n",
    })
    for i in range(3):  # history between the PR's fork point and main's tip
        (up / "log.py").write_text(f"x = {i}\n", encoding="utf-8")
        git(up, "add", "-A")
        git(up, "commit", "-qm", f"main {i}")
    branch(up, "old-pr", {"plan.py": "# ROLLBACK PLAN RENAMED\n# Roll back.\n"}, base="main~3")
    branch(up, "new-pr", {"new.py": "# NEW SECTION HERE\n# Body.\n"})
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "2", "--no-single-branch", f"file://{up}",
                    str(clone)], check=True)
    return clone


def test_shallow_clone_missing_a_merge_base_still_orders_the_rest(tmp_path: Path) -> None:
    clone = _shallow_workspace(tmp_path)
    args = ["merge-order", "--repo", f"r={clone}", "--base", "r=origin/main"]
    r = run_cli(*args, "--pr", "r#1=origin/old-pr", "--pr", "r#2=origin/new-pr",
                "--format", "json", cwd=tmp_path)
    # The others are ordered and printed, and the run exits 2: a PR it could not place
    # is a job not done (issue 31: it exited 0). The CI run of r#2 alone (--for) is fine.
    assert r.code == 2, r.err
    doc = json.loads(r.out)
    assert doc["order"] == ["r#2"]
    alone = run_cli(*args, "--pr", "r#1=origin/old-pr", "--pr", "r#2=origin/new-pr", "--for", "r#2",
                    "--format", "markdown", cwd=tmp_path)
    assert alone.code == 0, alone.err
    assert [u["label"] for u in doc["unplanned"]] == ["r#1"]
    assert "shallow clone? fetch more history" in doc["unplanned"][0]["reason"]
    assert "anchorcheck: warning: r#1 not placed: origin/old-pr and origin/main share no history" in r.err
    # Nothing can be placed: exit 2, one line.
    r = run_cli(*args, "--pr", "r#1=origin/old-pr", cwd=tmp_path)
    assert r.code == 2 and r.err.count("\n") == 1 and "share no history" in r.err
    # --changed-only against a commit the shallow clone lacks: exit 2, one line.
    r = run_cli("check", "--repo", f"r={clone}", "--changed-only", "r=HEAD~2", cwd=tmp_path)
    assert r.code == 2 and r.err.count("\n") == 1 and "HEAD~2" in r.err, r.err


def test_a_prs_files_asked_by_name_are_those_of_the_whole_listing(tmp_path: Path) -> None:
    """A PR's changed files are listed by name (GitRepo.list_paths): a name that reads
    as a pattern (`*`, `[x]`, a leading `:`) is itself only; a deleted path has no
    entry; a directory of the same name is not listed; many paths, the same."""
    from anchorcheck.git import repo as gitio
    from anchorcheck.git.repo import GitRepo

    files = {"a*b.py": "x = 1\n", "aXb.py": "y = 1\n", "[x].py": "z\n", "x.py": "w\n", ":top.py": "t\n",
             "d/e.py": "e\n", "d/e.py.bak": "f\n", "sp ace.md": "# T\n"}
    repo = init_repo(tmp_path / "r", files)
    git_repo = GitRepo(repo)
    head = git_repo.resolve("HEAD")
    whole = {e.path: e for e in git_repo.list_tree(head)}
    asked = ["a*b.py", "[x].py", ":top.py", "d/e.py", "sp ace.md", "gone.py", "d"]
    assert {e.path: e for e in git_repo.list_paths(head, asked)} == {p: whole[p] for p in asked if p in whole}
    many = [*whole, *(f"gone{i}.py" for i in range(gitio._PATHS_ASKED_MAX))]
    assert {e.path: e for e in git_repo.list_paths(head, many)} == whole
    assert git_repo.list_paths(head, []) == []


def test_refs_starting_with_a_dash_are_rejected_everywhere(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "x = 1\n"})
    ws.config()
    for args in (["check", "--changed-only", "r=--output=/tmp/x"],
                 ["merge-order", "--pr", "r#1=--upload-pack=evil"],
                 ["merge-order", "--pr", "r#1=main", "--base", "r=-x"]):
        r = run_cli(*args, cwd=ws.root)
        assert r.code == 2, (args, r.err)
        assert "may not be empty or start with '-'" in r.err, (args, r.err)


@pytest.mark.slow
def test_a_2_gb_file_is_skipped_by_size_without_reading_it(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("r", {"a.py": "# see MISSING HEADING THERE in a.py\n"})
    with open(repo / "huge.py", "wb") as fh:
        fh.truncate(2 * 1024**3)  # sparse: no 2 GB written to the disk
    # Level-1 zlib and streaming into a pack keep this to seconds and megabytes.
    git(repo, "-c", "core.compression=1", "-c", "core.bigFileThreshold=1m", "add", "huge.py")
    git(repo, "commit", "-qm", "a 2 GB file")
    r = ws.check("--format", "json", "--verbose", "--no-cache")
    assert r.code == 1, r.err
    assert [f["code"] for f in json.loads(r.out)["findings"]] == ["AC101"]
    assert "r:huge.py: skipped (too large)" in r.err
    assert "1 read from git" in r.err  # a.py only


def test_a_100000_character_line_and_lone_cr_line_ends(ws: WorkspaceBuilder) -> None:
    long_line = "# see MISSING HEADING THERE in a.py " + "x" * 100_000
    ws.repo("r", {
        "a.py": "x = 1\n" + long_line + "\n# see ALSO MISSING in a.py\n",
        "cr.py": "x = 1\r\r# see MISSING HEADING THERE in cr.py\r",
        "heading.py": "# " + "A " * 50_000 + "\n# body\n",
    })
    r = ws.check("--format", "json")
    assert r.code == 1, r.err
    got = [(f["code"], f["path"], f["line"], f["column"]) for f in json.loads(r.out)["findings"]]
    assert got == [("AC101", "a.py", 2, 3), ("AC101", "a.py", 3, 3), ("AC101", "cr.py", 3, 3)]


# -- bad config -----------------------------------------------------------------


def test_repo_outside_the_config_folder_is_said_under_verbose(tmp_path: Path) -> None:
    init_repo(tmp_path / "elsewhere", {"x.py": "x = 1\n"})
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "anchorcheck.toml").write_text(
        '[[repo]]\nname = "e"\npath = "../elsewhere"\n', encoding="utf-8")
    r = run_cli("check", cwd=tmp_path / "ws")
    assert (r.code, r.err) == (0, "")  # allowed, and quiet by default
    r = run_cli("check", "--verbose", cwd=tmp_path / "ws")
    assert r.code == 0
    assert f"repo 'e' lies outside the config's folder: {tmp_path / 'elsewhere'}" in r.err


# -- hostile text in every output format ------------------------------------------

HOSTILE_NAME = "EVIL <script>x</script> @org/team ](javascript:alert(1)) \x1b[31m HEADING"


def test_hostile_text_is_escaped_in_every_format(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": f'# see "{HOSTILE_NAME}" in a.py\n# ::set-output name=x::y\n'})
    ws.config()
    out = {}
    for fmt in ("text", "json", "sarif", "github", "markdown", "junit"):
        r = run_cli("check", "--format", fmt, cwd=ws.root)
        assert r.code == 1, (fmt, r.err)
        assert "\x1b" not in r.out, fmt  # no terminal escape survives, in any format
        out[fmt] = r.out
    assert "\\x1b[31m" in out["text"]
    # JSON and SARIF are data: markup is kept as text, the escape code shown as \x1b.
    shown = HOSTILE_NAME.replace("\x1b", "\\x1b")
    assert shown in json.loads(out["json"])["findings"][0]["message"]
    sarif = json.loads(out["sarif"])
    assert shown in sarif["runs"][0]["results"][0]["message"]["text"]
    # GitHub workflow commands: one line per finding, nothing can start a new command.
    github_lines = out["github"].splitlines()
    assert len(github_lines) == 1 and github_lines[0].startswith("::error ")
    md = out["markdown"]
    assert "<script>" not in md and "&lt;script&gt;" in md
    assert not re.search(r"(?<!\\)\]\(javascript:", md)  # only as escaped text: \](
    assert "@org/team" not in md  # no mention pings the team
    junit = ET.fromstring(out["junit"])
    assert junit.find(".//script") is None
    assert "<script>x</script>" in ET.tostring(junit, encoding="unicode").replace("&lt;", "<") \
        .replace("&gt;", ">")


# -- patterns on repo text: linear time -------------------------------------------

_UNITS = [*"ab #/*-{}\"'`\n\\|:<>!~[]()$=.@_ AZ", "Note [", "see ", "<<EOF\n", "{{", "{-", "`x`",
          ":12", "](", "http://", "in a/b.py", "::", "'''", '"""']


@settings(max_examples=60, deadline=None)
@given(unit=st.lists(st.sampled_from(_UNITS), min_size=1, max_size=6).map("".join),
       family=st.sampled_from(sorted([*FAMILIES, "markdown"])))
# 8k block comments on one line: each located, tested for code before it and given
# that code by going back to the line's start (0.75 s at 100 KB, 7.2 s at 200 KB).
@example(unit=":12/*/", family="c")
@example(unit="{- :12 -}", family="haskell")
def test_every_pattern_is_linear_on_100_kb_of_a_repeated_unit(unit: str, family: str) -> None:
    assert_linear(lambda text: extract(text, family, ExtractOptions()), repeated(unit), label=(family, unit))


# Openers that a family's rule rejects, repeated on one long line: a rejected opener
# once matched to the end of its line and was retried one character later, which made
# shell, Make, Dockerfile and INI quadratic (hypothesis found `a#` in a Dockerfile: 3.4 s).
_REJECTED_OPENERS = ["a#", "\\#", "-#", "a;", "a--", "!--", "a//", "x/*", "a#\"", "a{-", "a<!--"]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_rejected_openers_on_one_long_line_stay_linear(family: str) -> None:
    for unit in _REJECTED_OPENERS:
        assert_linear(lambda text: extract(text, family, ExtractOptions()), repeated(unit),
                      label=(family, unit))


# -- fuzz: well-formed comment blocks in each language family ---------------------

# How each family writes a one-line comment; block-only families wrap the text.
_COMMENT = {
    "python": "# {}", "hash": "# {}", "yaml": "# {}", "shell": "# {}", "dockerfile": "# {}",
    "toml": "# {}", "ini": "; {}", "make": "# {}", "c": "// {}", "js": "// {}",
    "rust": "// {}", "css": "/* {} */", "hcl": "# {}", "haskell": "-- {}", "sql": "-- {}",
    "html": "<!-- {} -->", "m4": "dnl {}",
}
_CODE = {"html": "<p>x</p>", "css": "a { color: red; }", "dockerfile": "RUN true",
         "ini": "[x]", "make": "all:", "yaml": "x: 1", "toml": "x = 1"}
_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)


def test_every_family_has_a_comment_form() -> None:
    assert set(_COMMENT) == set(FAMILIES)


@settings(max_examples=200, deadline=None)
@given(family=st.sampled_from(sorted(FAMILIES)),
       lines=st.lists(st.one_of(st.none(), st.lists(_WORD, min_size=1, max_size=4).map(" ".join)),
                      min_size=1, max_size=25))
def test_each_comment_line_is_found_at_its_line(family: str, lines: list[str | None]) -> None:
    code = _CODE.get(family, "x = 1")
    source = [code if words is None else _COMMENT[family].format(words) for words in lines]
    text = "\n".join(source) + "\n"
    found = {(cl.line, cl.text.strip()) for c in scan(text, family) for cl in c.lines}
    expected = {(i, words) for i, words in enumerate(lines, start=1) if words is not None}
    assert {x for x in found if x[1]} == expected


@settings(max_examples=150, deadline=None)
@given(family=st.sampled_from(sorted(FAMILIES)),
       chunks=st.lists(st.sampled_from([
           "ROLLBACK PLAN", "see ROLLBACK PLAN in a.py", "Note [x y]", "a.py:3-4", "`f()`",
           "restates r:a.yaml::k", "{-", "-}", "/*", "*/", '"', "'", "<!--", "-->", "\n",
           "~~~~~~", "anchorcheck: ignore[AC101]", "\r\n", "\t",
       ]), max_size=40))
def test_extraction_never_raises_and_everything_lies_inside_the_file(family: str, chunks: list[str]) -> None:
    opener = _COMMENT[family].split("{}")[0]
    text = "".join(opener + c if c not in ("\n", "\r\n") else c for c in chunks)
    text = text.replace("\r\n", "\n")
    index = extract(text, family, ExtractOptions())
    lines = text.count("\n") + 1
    for item in (*index.anchors, *index.references):
        assert 1 <= item.line <= lines
    for _, line, _ in index.mentions:
        assert 1 <= line <= lines


def test_nothing_runs_through_a_shell() -> None:
    """Refs and paths reach git as argument lists: no shell anywhere in the package."""
    import ast

    package = Path(__file__).resolve().parent.parent / "anchorcheck"
    offenders = []
    for source in package.rglob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.keyword) and node.arg == "shell":
                offenders.append(f"{source.name}:{node.lineno} shell=")
            if isinstance(node, ast.Attribute) and node.attr in ("system", "popen", "getoutput", "getstatusoutput"):
                offenders.append(f"{source.name}:{node.lineno} .{node.attr}")
    assert offenders == []


# Every claim and reference form, repeated in one comment: the "last path named" once
# rescanned the whole comment at each `on lines N-M of` (16 s at 48 KB, 253 s at 192 KB).
_CLAIM_FORMS = ["on lines 1-2 of ", "on lines 1-2 of a/b.py ", "`x` at :12 ", "at :3 ", "a/b.py#L3 ",
                "a/b.py:4-5 ", "see ROLLBACK PLAN in a/b.py ", "see ROLLBACK PLAN in ",
                "https://github.com/o/r/blob/main/a.py#L1-L2 ", "[x](a/b.md#y) "]
_CLAIM_FAMILIES = {"python": "# ", "markdown": ""}  # (the other families share these paths)


@pytest.mark.parametrize("form", _CLAIM_FORMS)
@pytest.mark.parametrize("family", sorted(_CLAIM_FAMILIES))
def test_every_claim_form_repeated_is_linear_at_200_kb(form: str, family: str) -> None:
    lead = _CLAIM_FAMILIES[family]
    # One comment block of many lines, and one long comment line: both shapes.
    for unit in (f"{lead}{form}\n", form):
        make = repeated(unit) if unit.endswith("\n") else (lambda n, u=unit: lead + repeated(u)(n))
        assert_linear(lambda text: extract(text, family, ExtractOptions()), make, size=200_000,
                      label=(family, unit))


def test_the_claim_forms_at_200_kb_go_through_the_whole_command_line(ws: WorkspaceBuilder) -> None:
    files = {"a/b.py": "x = 1\n" * 10}
    for i, form in enumerate(_CLAIM_FORMS):
        files[f"c{i}.py"] = repeated(f"# {form}\n")(200_000)
        files[f"l{i}.py"] = "# " + repeated(form)(200_000) + "\n"
    ws.repo("r", files)
    r = ws.check("--no-cache", "--format", "json", "--fail-on", "never")
    assert r.code == 0, r.err
    assert "Traceback" not in r.err


# Repo text that would act if printed raw: a forged GitHub annotation on a line of its
# own (a `%0A` in a link target, a newline in a file name), OSC 8 hyperlinks, a bell, a
# carriage return that rewrites the line, a bidi override, XML's forbidden characters.
_FORGED = "::error file=README.md,line=1::Forged annotation"
_HOSTILE = [f"\n{_FORGED}", "\x1b]8;;https://evil.example\x07click\x1b]8;;\x07", "\x07", "\rOK ",
            "\u202etxt.exe", "\x0b\x0c\x1f"]


def test_a_corpus_of_hostile_strings_is_escaped_by_every_command_and_format(ws: WorkspaceBuilder) -> None:
    files = {"README.md": "".join(f"[x{i}](missing{quote(s)}.md)\n" for i, s in enumerate(_HOSTILE))}
    for i, s in enumerate(_HOSTILE):
        files[f"evil{i}{s.replace(chr(0), '')}.py"] = f"# see NO SUCH HEADING {i} in nowhere.py\nx = 1\n"
        files[f"h{i}.py"] = f"# HEADING{s}END NUMBER {i}\n# Body.\nx = 1\n"
    ws.repo("r", files)
    ws.config()
    runs = {f"check {fmt}": run_cli("check", "--format", fmt, "--fail-on", "never", cwd=ws.root)
            for fmt in ("text", "github", "markdown")}
    runs["check text --show-source"] = run_cli("check", "--show-source", "--fail-on", "never", cwd=ws.root)
    runs["refs"] = run_cli("refs", cwd=ws.root)
    runs["anchors"] = run_cli("anchors", cwd=ws.root)
    runs["graph mermaid"] = run_cli("graph", "--format", "mermaid", cwd=ws.root)
    runs["graph dot"] = run_cli("graph", "--format", "dot", cwd=ws.root)
    for name, r in runs.items():
        assert r.code == 0, (name, r.err)
        for stream in (r.out, r.err):
            assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f\u202e]", stream), name
            lines = stream.splitlines()
            forged = [line for line in lines if line.startswith("::error file=README.md,line=1::Forged")]
            assert not forged, name
    # GitHub's format: every line is one of its own commands.
    assert all(line.startswith("::") for line in runs["check github"].out.splitlines())
    # GraphML parses, with what XML cannot hold shown as text.
    graphml = run_cli("graph", "--format", "graphml", cwd=ws.root)
    assert graphml.code == 0, graphml.err
    ET.fromstring(graphml.out)
    assert "\\x1f" in graphml.out


def test_git_searches_and_the_history_read_nothing_over_the_size_limit(ws: WorkspaceBuilder) -> None:
    # A Note defined in a file anchorcheck does not scan is found by `git grep`; over
    # max-file-size the file is not read, by the grep either.
    big = "Note [Kept in a big file]\n~~~~~~~~~~~~~~~~~~~~~~~~\nBody.\n" + "filler line\n" * 400
    ws.repo("r", {"notes.txt": big, "a.hs": "-- See Note [Kept in a big file]\nx = 1\n",
                  "small.txt": "Note [Small one]\n~~~~~~~~~~~~~~~~\nBody.\n",
                  "b.hs": "-- See Note [Small one]\ny = 2\n"})
    config = ws.config()
    r = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert json.loads(r.out)["findings"] == [], r.out
    config.write_text(config.read_text() + "\n[settings]\nmax-file-size = 2000\n")
    r = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    found = json.loads(r.out)["findings"]
    assert [(f["code"], f["path"]) for f in found] == [("AC101", "a.hs")], r.out
    # The history's `git log -p` diffs a blob over the limit as binary, unread.
    from anchorcheck.git.oversized import note_oversized
    from anchorcheck.git.repo import GitRepo

    repo = GitRepo(ws.repos["r"])
    head = repo.resolve("HEAD")
    note_oversized(repo.git_dir, head, (), 2000)
    log = repo.start_commits_log([head])
    assert log is not None
    out = (log.output() or b"").decode()
    assert "Binary files /dev/null and b/notes.txt differ" in out and "filler line" not in out
    assert "+Note [Small one]" in out


def test_settings_out_of_range_are_a_one_line_error(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "x = 1\n"})
    config = ws.config()
    for key, value in (("max-file-size", -5), ("max-file-size", 0), ("history-depth", -1),
                       ("heading-min-words", 0)):
        config.write_text(f'[[repo]]\nname = "r"\npath = "r"\n\n[settings]\n{key} = {value}\n')
        r = run_cli("check", cwd=ws.root)
        assert r.code == 2 and r.err.count("\n") == 1, (key, r.err)
        assert f"'{key}' must be at least" in r.err and str(value) in r.err


def test_a_read_only_cache_says_so_and_the_run_goes_on(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    ws.repo("r", {"a.py": "# see NO SUCH HEADING HERE in a.py\n"})
    cache = tmp_path / "cache"
    assert ws.check("--cache-dir", str(cache)).code == 1
    db = cache / "blobs.sqlite3"
    if os.geteuid() != 0:
        for p in (db, cache):
            p.chmod(0o555 if p.is_dir() else 0o444)
        undo = [lambda: cache.chmod(0o755), lambda: db.chmod(0o644)]
    else:  # root writes through permissions: the immutable attribute stops it
        done = subprocess.run(["chattr", "+i", str(db), str(cache)], capture_output=True, check=False)
        if done.returncode != 0:
            pytest.skip(f"running as root without chattr (+i): {done.stderr.decode().strip()}")
        undo = [lambda: subprocess.run(["chattr", "-i", str(db), str(cache)], check=True)]
    try:
        r = ws.check("--cache-dir", str(cache))
    finally:
        for step in undo:
            step()
    assert r.code == 1, r.err
    assert f"anchorcheck: warning: cache {db} is read-only; not cached" in r.err
    assert "busy" not in r.err
