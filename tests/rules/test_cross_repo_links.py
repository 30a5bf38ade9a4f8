"""Links as people write them across repos: blob-URL fragments, raw and GitLab URLs,
and `#L` links whose text names code."""

from __future__ import annotations

import json

from tests.conftest import WorkspaceBuilder, run_cli

GUIDE = "# Guide\n\n## Install\n\nRun it.\n"
TYPES = "package v1\n\n// types\n\ntype VolumeError struct{}\n"
README = """\
# App

- [install](https://github.com/acme/docs/blob/main/guide.md#install)
- [gone](https://github.com/acme/docs/blob/main/guide.md#instal)
- [VolumeError](https://github.com/acme/api/blob/main/types.go#L5)
- [`VolumeError`](https://github.com/acme/api/blob/main/types.go#L3)
- [raw](https://raw.githubusercontent.com/acme/docs/main/missing.md)
- [gitlab](https://gitlab.com/acme/docs/-/blob/main/guide.md#nowhere)
- [pinned](https://github.com/acme/docs/blob/0123456789abcdef0123456789abcdef01234567/guide.md#old)
- [elsewhere](https://github.com/someone/else/blob/main/guide.md#whatever)
"""


def workspace(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {"guide.md": GUIDE})
    ws.repo("api", {"types.go": TYPES})
    ws.repo("app", {"README.md": README})
    ws.with_urls("acme", "docs", "api")


def test_blob_url_fragments_raw_and_gitlab_urls_are_checked(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    r = run_cli("check", "--fail-on", "never", cwd=ws.root)
    lines = [x for x in r.out.splitlines() if x.startswith("app:")]
    got = sorted((x.split(":")[2], x.split()[1]) for x in lines)
    # 4: a fragment the page lacks; 6: the code the link names moved; 7: no such file;
    # 8: GitLab's blob URL (its repo mapped by owner/name), a fragment the page lacks.
    assert got == [("4", "AC101"), ("6", "AC201"), ("7", "AC105"), ("8", "AC101")], r.out
    assert "did you mean 'install'" in next(x for x in lines if ":4:" in x)
    moved = next(x for x in lines if ":6:" in x)
    assert "VolumeError" in moved and "5" in moved


def test_fix_rewrites_the_lines_of_a_link_whose_code_moved(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    r = run_cli("fix", "--dry-run", cwd=ws.root)
    assert "-- [`VolumeError`](https://github.com/acme/api/blob/main/types.go#L3)" in r.out, r.out + r.err
    assert "+- [`VolumeError`](https://github.com/acme/api/blob/main/types.go#L5)" in r.out


NOTE_DEF = """\
module GHC.Tc.Module where

{- Note [Tidy the result]
~~~~~~~~~~~~~~~~~~~~~~~~~
We tidy before we finish.
-}
x = 1
"""
NOTE_CITES = """\
module GHC.Driver.Main where
-- See Note [Tidy the result] in GHC.Tc.Module, which is right,
-- and Note [Tidy the result] in compiler/GHC/Tc/Module.hs, also right.
-- But Note [Tidy the result] in typecheck/TcRnDriver.hs names no file now,
-- and Note [Tidy the result] in GHC.Types.Id.Make is the wrong module,
-- and Note [Tidy the result] in TcRnDriver is the module before the rename.
-- Note [Tidy the result] in the typechecker says no place.
y = 2
"""


def test_the_place_after_a_note_is_checked(ws: WorkspaceBuilder) -> None:
    ws.repo("ghc", {"compiler/GHC/Tc/Module.hs": NOTE_DEF, "compiler/GHC/Driver/Main.hs": NOTE_CITES,
                    "compiler/GHC/Types/Id/Make.hs": "module GHC.Types.Id.Make where\n"})
    ws.config()
    r = run_cli("check", "--fail-on", "never", cwd=ws.root)
    found = sorted((x.split(":")[2], x.split()[1]) for x in r.out.splitlines() if x.startswith("ghc:"))
    assert found == [("4", "AC102"), ("5", "AC102"), ("6", "AC102")], r.out
    assert "it is defined at ghc:compiler/GHC/Tc/Module.hs:3" in r.out
    fix = run_cli("fix", "--dry-run", cwd=ws.root)
    assert "+-- and Note [Tidy the result] in GHC.Tc.Module is the module before the rename." in fix.out, fix.out
    assert "+-- But Note [Tidy the result] in compiler/GHC/Tc/Module.hs names no file now," in fix.out


def test_an_empty_link_goes_nowhere(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {"README.md": "# Docs\n\nRead [the guide]() first; [](){#anchor} is an anchor.\n"})
    ws.config()
    r = run_cli("check", "--fail-on", "never", cwd=ws.root)
    assert "docs:README.md:3:6: AC105 an empty link target: the link goes nowhere" in r.out, r.out
    assert r.out.count("AC105") == 1


def test_a_fragment_on_a_folder_url_is_checked_in_the_readme_github_shows(ws: WorkspaceBuilder) -> None:
    ws.repo("enhancements", {"keps/277-ephemeral/README.md": "# Ephemeral\n\n## Ephemeral Container Lifecycle\n"})
    base = "https://github.com/acme/enhancements/tree/master/keps/277-ephemeral"
    ws.repo("community", {"notes.md": f"[ok]({base}#ephemeral-container-lifecycle) and [gone]({base}#identifying-pods)\n"
                                      "[source](https://github.com/acme/enhancements/blob/master/keps/277-ephemeral/"
                                      "README.md?plain=1#L9)\n"})
    ws.with_urls("acme", "enhancements", "community")
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    found = [(f["code"], f["line"], f["message"]) for f in json.loads(run.out)["findings"]]
    assert [(c, line) for c, line, _ in found] == [("AC101", 1), ("AC201", 2)], found
    assert "#identifying-pods in enhancements:keps/277-ephemeral/README.md" in found[0][2]
    assert "line 9 is past the end" in found[1][2]  # `?plain=1` shows the source: `#L9` is a line


def test_html_links_and_images_in_markdown_are_checked(ws: WorkspaceBuilder) -> None:
    page = (
        "# Notes\n\n"
        '<p id="gdcalert2">See <a href="#gdcalert3">the next alert</a> and <a href="#gdcalert2">this one</a>.</p>\n\n'  # 3
        '<img src="media/image1.png" style="width:4in" /> <img src="https://example.com/x.png">\n\n'  # 5
        "<a href='other.md#usage'>usage</a>, <a href=other.md#nope>nope</a>\n\n"  # 7
        "```html\n<a href=\"gone.md\">in code</a>\n```\n\n<!-- <img src=\"hidden.png\"> -->\n"
    )
    ws.repo("docs", {"notes.md": page, "other.md": "# Other\n\n## Usage\n"})
    run = ws.check("--format", "json", "--no-cache")
    found = [(f["code"], f["line"]) for f in json.loads(run.out)["findings"]]
    assert found == [("AC101", 3), ("AC105", 5), ("AC101", 7)], run.out


def test_link_shapes_from_kubernetes_community_are_read_as_github_shows_them(ws: WorkspaceBuilder) -> None:
    base = "https://github.com/acme/community"
    notes = (
        f"- [<u>{base}/tree/master/sig-release</u>]({base}/tree/master/sig-release)\n"  # 1: markup ends a URL
        f"- [{base}/blob/master/mail.md\\#creation]({base}/blob/master/mail.md#creation)\n"  # 2: an escape too
        f"- [SIG Testing]({base}/tree/master/sig-testing#readme) is GitHub's README box\n"  # 3
        "- [forum](moderation.md#discuss.kubernetes.io) keeps a dot GitHub drops\n"  # 4: broken
        "- [doc](moderation.md#heading=h.x1y2) is a Google Docs leftover\n"  # 5: broken
    )
    ws.repo("community", {"notes.md": notes, "mail.md": "# Mail\n\n## Creation\n", "sig-release/README.md": "# R\n",
                          "sig-testing/README.md": "# T\n", "moderation.md": "# Moderation\n\n## discuss.kubernetes.io\n"})
    ws.with_urls("acme", "community")
    run = run_cli("check", "--format", "json", "--no-cache", cwd=ws.root)
    assert [(f["code"], f["line"]) for f in json.loads(run.out)["findings"]] == [("AC101", 4), ("AC101", 5)], run.out


def test_a_doc_comments_root_relative_link_is_the_sites_page(ws: WorkspaceBuilder) -> None:
    ws.repo("caddy", {
        "caddy.go": "// See [the conventions](/docs/conventions#data-directory) and [here](/README.md).\n"
                    "// And [gone](/missing.md) in a doc comment too.\npackage caddy\n",
        "README.md": "# Caddy\n\n[gone](/missing.md)\n",
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    # caddyserver.com publishes the Go docs: a page not in the repo is the site's; a
    # Markdown file GitHub shows still has its broken link reported.
    assert [(f["code"], f["path"]) for f in found] == [("AC105", "README.md")]
