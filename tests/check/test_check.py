"""`check` on real multi-repo workspaces with PR branches."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from anchorcheck.check.pipeline import run_check
from anchorcheck.config.workspace import load_workspace
from anchorcheck.git.repobuilder import commit, git
from tests.conftest import WorkspaceBuilder, run_cli

DEPLOY = """\
apiVersion: apps/v1
kind: Deployment
spec:
  # ROLLBACK ON THE DEGRADED PATH
  # Recreate plus --atomic rolls a degraded pod back.
  strategy:
    type: Recreate
"""

CITE = """\
import os

# Binding can fail; see ROLLBACK ON THE DEGRADED PATH in
# client/templates/deploy.yaml for why that is accepted.
PORT = int(os.getenv("PORT", "8080"))
"""


def findings(ws: WorkspaceBuilder, **refs: str) -> list[tuple[str, str, str, int, str]]:
    config = ws.config()
    workspace = load_workspace(config, (), [f"{k.replace('_', '-')}={v}" for k, v in refs.items()])
    result = run_check(workspace)
    return [
        (f.finding.code, f.finding.repo, f.finding.path, f.finding.line, f.finding.message)
        for f in result.findings
    ]


def codes(ws: WorkspaceBuilder, **refs: str) -> list[tuple[str, str, int]]:
    return [(c, p, line) for c, _, p, line, _ in findings(ws, **refs)]


def test_citation_only_on_pr_branch_is_checked_at_that_ref(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": "kind: Deployment\n"})
    ws.repo("runtime", {"jobs.py": "PORT = 8080\n"})
    ws.pr("runtime", "pr/359", {"jobs.py": CITE})
    assert codes(ws) == []
    assert codes(ws, runtime="pr/359") == [("AC101", "jobs.py", 3)]


def test_wrapped_reference_resolves(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"jobs.go": (
        "package jobs\n\n// Keep serving; see ROLLBACK ON THE\n// DEGRADED PATH in\n"
        "// client:templates/deploy.yaml.\nfunc Serve() {}\n"
    )})
    assert codes(ws) == []
    config = ws.config()
    result = run_check(load_workspace(config))
    [res] = result.resolutions
    assert res.status.value == "resolved"
    assert res.anchors[0].path == "templates/deploy.yaml"


def test_license_block_in_caps_is_not_an_anchor(ws: WorkspaceBuilder) -> None:
    header = (
        "# Copyright 2026 Example Corp.\n#\n# THE SOFTWARE IS PROVIDED AS IS\n"
        "# WITHOUT WARRANTY OF ANY KIND\n\n"
    )
    ws.repo("r", {"x.py": header + "x = 1\n", "y.py": "# see THE SOFTWARE IS PROVIDED AS IS in x.py\n"})
    result = run_check(load_workspace(ws.config()))
    assert list(result.index.anchors) == []
    assert [f.finding.code for f in result.findings] == ["AC101"]


def test_bare_repo_works_as_well_as_work_tree(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"jobs.py": CITE.replace("deploy.yaml", "cron.yaml")})
    work_tree = findings(ws)
    git(tmp_path, "clone", "-q", "--bare", str(ws.repos["client"]), str(tmp_path / "client.git"))
    (tmp_path / "anchorcheck.toml").write_text(
        '[[repo]]\nname = "client"\npath = "client.git"\n\n'
        '[[repo]]\nname = "runtime"\npath = "runtime"\n', encoding="utf-8")
    bare = run_check(load_workspace(tmp_path / "anchorcheck.toml"))
    assert [(f.finding.code, f.finding.message) for f in bare.findings] == [
        (c, m) for c, *_, m in work_tree
    ]
    assert work_tree and work_tree[0][0] == "AC102"


def test_bare_repo_without_config_file(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    mirror = tmp_path / "mirror.git"
    git(tmp_path, "clone", "-q", "--bare", str(ws.repos["client"]), str(mirror))
    (mirror / "config").unlink()
    r = run_cli("anchors", "--repo", f"client={mirror}", "--format", "json", cwd=tmp_path)
    assert r.code == 0, r.err
    assert [a["name"] for a in json.loads(r.out)["anchors"]] == ["ROLLBACK ON THE DEGRADED PATH"]


def test_linked_work_tree_and_a_broken_git_file(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    client = ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    git(client, "worktree", "add", "-q", str(tmp_path / "linked"), "-b", "linked")
    assert (tmp_path / "linked" / ".git").is_file()
    r = run_cli("anchors", "--repo", f"client={tmp_path / 'linked'}", "--format", "json", cwd=tmp_path)
    assert r.code == 0, r.err
    assert [a["name"] for a in json.loads(r.out)["anchors"]] == ["ROLLBACK ON THE DEGRADED PATH"]
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / ".git").write_text("gitdir: ../nowhere\n", encoding="utf-8")
    r = run_cli("anchors", "--repo", f"b={broken}", cwd=tmp_path)
    assert r.code == 2 and "does not point to a git directory" in r.err and "Traceback" not in r.err


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to give the repo to another user")
def test_a_checkout_owned_by_another_user_is_read(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    # CI containers often run as root on a checkout owned by the runner's user: git's
    # own repository discovery refuses it ("dubious ownership"), anchorcheck does not.
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    owned = tmp_path / "owned"
    git(tmp_path, "clone", "-q", str(ws.repos["client"]), str(owned))
    for root, dirs, files in os.walk(owned):
        for name in [*dirs, *files]:
            os.lchown(os.path.join(root, name), 65534, 65534)
    os.lchown(owned, 65534, 65534)
    assert subprocess.run(["git", "-C", str(owned), "rev-parse", "HEAD"], capture_output=True).returncode != 0
    r = run_cli("anchors", "--repo", f"client={owned}", "--format", "json", cwd=tmp_path)
    assert r.code == 0, r.err
    assert [a["name"] for a in json.loads(r.out)["anchors"]] == ["ROLLBACK ON THE DEGRADED PATH"]


def test_files_are_read_from_git_objects_not_the_checkout(ws: WorkspaceBuilder) -> None:
    client = ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"jobs.py": CITE})
    (client / "templates" / "deploy.yaml").write_text("kind: Deployment\n", encoding="utf-8")
    assert codes(ws) == []


def test_bad_ref_exits_2_with_one_line(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    r = ws.check("--ref", "client=no-such-branch")
    assert r.code == 2
    assert r.out == ""
    assert r.err.strip().splitlines() == [r.err.strip()]
    assert "unknown ref 'no-such-branch'" in r.err
    assert "Traceback" not in r.err


def test_ref_starting_with_dash_is_rejected(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"a.py": "x = 1\n"})
    r = ws.check("--ref", "client=--output=/tmp/x")
    assert r.code == 2
    assert "may not be empty or start with '-'" in r.err


def test_quoted_heading_without_location_resolves_anywhere(ws: WorkspaceBuilder) -> None:
    ws.repo("a", {"x.py": "# RETRY POLICY FOR UPLOADS\n# Three tries.\n"})
    ws.repo("b", {"y.py": (
        '# per "RETRY POLICY FOR UPLOADS", give up after three\n'
        '# see "Effective Java" for the pattern\n'  # prose, not a citation
        '# see "RETRY POLICY FOR UPLAODS"\n'
    )})
    out = findings(ws)
    assert [(o[0], o[3]) for o in out] == [("AC101", 3)]
    assert "did you mean 'RETRY POLICY FOR UPLOADS'?" in out[0][4]


def test_a_quoted_word_near_a_heading_is_not_a_citation(ws: WorkspaceBuilder) -> None:
    """One quoted word is code or a word: Haddock's `see 'Step'` links the type Step,
    mypy's `see the "miscellaneous" sections` its option groups. Near a heading
    ("Steps", "Miscellaneous") it is no evidence of a citation; two words near one
    are (a typo)."""
    ws.repo("docs", {"guide.md": "# Steps\n\nText.\n\n# Miscellaneous\n\nMore.\n\n# Deploy order\n"})
    ws.repo("code", {
        "Fold.hs": "-- the next state (see 'Step'). At any point\nx = 1\n",
        "main.py": '# (E.g. see the "miscellaneous" sections).\n# see "Deploy ordr" first\n',
    })
    out = findings(ws)
    assert [(o[0], o[2], o[3]) for o in out] == [("AC101", "main.py", 2)]
    assert "did you mean 'Deploy order'?" in out[0][4]


def test_leading_repo_segment_and_repo_prefix(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"a.py": (
        "# see ROLLBACK ON THE DEGRADED PATH in client/templates/deploy.yaml\n"
        "# see ROLLBACK ON THE DEGRADED PATH in client:templates/deploy.yaml\n"
        "# ROLLBACK ON THE DEGRADED PATH (in templates/deploy.yaml)\n"
        "# client:templates/deploy.yaml § ROLLBACK ON THE DEGRADED PATH\n"
        "# templates/deploy.yaml#rollback-on-the-degraded-path\n"
        "# client:templates/deploy.yaml#ROLLBACK ON THE DEGRADED PATH\n"
    )})
    result = run_check(load_workspace(ws.config()))
    assert [r.status.value for r in result.resolutions] == ["resolved"] * 6
    assert result.findings == ()


def test_markdown_links_slugs_and_blob_urls(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {
        "guide/install.md": "# Install\n\n## Helm `values` & you\n\nText.\n\n## Usage\n\n## Usage\n",
        "README.md": (
            "See [install](guide/install.md#helm-values--you), [again](guide/install.md#usage-1),\n"
            "[bad](guide/install.md#no-such), [gone](guide/missing.md) and [web](https://example.com/x).\n"
            "A [blob](https://github.com/acme/client/blob/main/templates/deploy.yaml#L4-L5), a\n"
            "[moved one](https://github.com/acme/client/blob/main/templates/old.yaml) and a\n"
            "[foreign one](https://github.com/other/thing/blob/main/nothing.yaml).\n"
            "\n```\n[not checked](in/code.md)\n```\n"
        ),
    })
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    out = codes(ws)
    assert out == [("AC101", "README.md", 2), ("AC105", "README.md", 2), ("AC105", "README.md", 4)]


def test_a_blob_url_is_matched_by_the_repos_remote_not_only_its_name(ws: WorkspaceBuilder) -> None:
    values = (
        "config:\n"
        "  # See https://github.com/helm/charts/blob/master/stable/nats/templates/monitoring-svc.yaml\n"
        "  # and https://github.com/prometheus-community/helm-charts/blob/main/charts/gone.yaml\n"
        "  # and https://github.com/Prometheus-Community/helm-charts/blob/main/values.yaml#L1\n"
        "  service: nats\n"
    )
    charts = ws.repo("charts", {"values.yaml": values})
    # Its origin says it is prometheus-community/helm-charts: helm/charts is another repo,
    # whose name only happens to be this one's (before, its URL was checked here: AC105).
    git(charts, "remote", "add", "origin", "git@github.com:prometheus-community/helm-charts.git")
    # No remote on a host: matched by name, as before.
    ws.repo("thing", {"a.yaml": "# https://github.com/other/thing/blob/main/nope.yaml\nk: v\n"})
    client = ws.repo("client", {"b.yaml": "# https://github.com/acme/client/blob/main/gone.yaml\nk: v\n"})
    git(client, "remote", "add", "origin", str(ws.root / "elsewhere" / "client"))  # a local path
    assert sorted(codes(ws)) == [("AC105", "a.yaml", 1), ("AC105", "b.yaml", 1), ("AC105", "values.yaml", 3)]


def test_markdown_link_reference_definitions_are_checked_like_links(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {
        "guide/install.md": "# Install\n\n## Usage\n",
        "README.md": (
            "Read the [guide][g], its [usage][u], the [gone][x] part and [the site][w], [Y].\n\n"
            "[g]: guide/install.md\n"
            "[u]: <guide/install.md#usage> \"Usage\"\n"
            "[x]: guide/install.md#no-such\n"
            "[w]: https://example.com/guide\n"
            "  [y]: guide/missing.md\n"
            "\n```\n[z]: not/checked.md\n```\n"
            # No link uses these, so GitHub renders none: not checked (the first
            # definition of a label wins, so a repeat is unused too).
            "[unused]: guide/nowhere.md\n[g]: guide/also-nowhere.md\n"
        ),
    })
    assert codes(ws) == [("AC101", "README.md", 5), ("AC105", "README.md", 7)]


def test_relative_markdown_links_resolve_from_the_citing_file(ws: WorkspaceBuilder) -> None:
    ws.repo("docs", {
        "a/b/page.md": "# Page\n\nSee [up](../other.md#top) and [root](/README.md) and [self](#page).\n",
        "a/other.md": "# Top\n",
        "README.md": "# Readme\n",
    })
    assert codes(ws) == []


def test_notes_resolve_across_repos(ws: WorkspaceBuilder) -> None:
    ws.repo("compiler", {"Core.hs": (
        "module Core where\n\n{- Note [Join points]\n   ~~~~~~~~~~~~~~~~~~\nA join point is...\n-}\n"
    )})
    ws.repo("tools", {"lint.py": (
        "# See Note [Join\n# points] for the definition.\n# See Note [Join pionts] too.\n"
    )})
    out = findings(ws)
    assert [(o[0], o[3]) for o in out] == [("AC101", 3)]
    assert "did you mean 'Join points'?" in out[0][4]


def test_notes_defined_in_files_not_read_resolve(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    """GHC defines Notes in `primops.txt.pp`, `all.T`, autoconf macros and a `validate`
    script, none of them files anchorcheck scans: git finds their titles (a rule
    under them, as in scanned files), once the repo is seen to use Notes."""
    ws.repo("ghc", {
        "compiler/primops.txt.pp": "-- Note [GHC.Prim]\n-- ~~~~~~~~~~~~~~~\n-- The primops.\n",
        "validate": "#!/bin/sh\n# Note [validate speed]\n# ~~~~~~~~~~~~~~~~~~~~~\necho\n",
        "notes.txt": "Note [No rule here]\nsome text\n",
        "Exts.hs": "-- See Note [GHC.Prim], Note [validate speed] and Note [No rule here].\nx = 1\n",
    })
    ws.repo("lib", {"util.py": "# see Note [validate speed]\n"})
    assert [(c, p, line, m.split(" is ")[0]) for c, _, p, line, m in findings(ws)] == [
        ("AC101", "Exts.hs", 1, "Note [No rule here]")]
    from anchorcheck.config.workspace import Settings
    from anchorcheck.index.cache import BlobCache
    from anchorcheck.index.plan import extract_options

    # Cached by the files not read: a second commit that leaves them alone asks git
    # nothing (the stored answer, damaged here, is used, so the Note is gone)...
    cache_dir = tmp_path / "cache"
    config = ws.config()
    run_check(load_workspace(config, (), []), cache=BlobCache(cache_dir, extract_options(Settings())))
    import sqlite3

    from anchorcheck.index.cache import _sum

    with sqlite3.connect(cache_dir / "blobs.sqlite3") as db:
        (key,) = db.execute("SELECT key FROM results WHERE key LIKE 'unread-notes:%'").fetchone()
        db.execute("UPDATE results SET value = '[]', sum = ? WHERE key = ?", (_sum(key, "[]"), key))
    ws.pr("ghc", "next", {"Exts.hs": "-- See Note [GHC.Prim].\nx = 2\n"})
    moved = run_check(load_workspace(config, (), ["ghc=next"]),
                      cache=BlobCache(cache_dir, extract_options(Settings())))
    assert [(f.finding.code, f.finding.path) for f in moved.findings] == [("AC101", "Exts.hs"), ("AC101", "util.py")]
    # ... and one that changes one of them asks again.
    ws.pr("ghc", "later", {"validate": "#!/bin/sh\n# Note [validate speed]\n# ~~~~~~~~~~~~~~~~~~~~~\n"},
          base="next")
    later = run_check(load_workspace(config, (), ["ghc=later"]),
                      cache=BlobCache(cache_dir, extract_options(Settings())))
    assert [(f.finding.code, f.finding.path) for f in later.findings] == []


def test_a_repo_that_uses_no_notes_is_not_searched_for_them(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    ws.repo("app", {"app.py": "# See DEPLOY ORDER in deploy.md.\n", "deploy.md": "# Deploy order\n",
                    "defs.txt": "Note [Somewhere]\n~~~~~~~~~~~~~~~~\n"})
    from anchorcheck.config.workspace import Settings
    from anchorcheck.index.cache import BlobCache
    from anchorcheck.index.plan import extract_options

    cache = BlobCache(tmp_path / "cache", extract_options(Settings()))
    run_check(load_workspace(ws.config(), (), []), cache=cache)
    cache.close()
    import sqlite3

    with sqlite3.connect(tmp_path / "cache" / "blobs.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM results WHERE key LIKE 'unread-notes:%'").fetchone() == (0,)


def test_skipped_files_binary_nonutf8_and_submodule(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    ws.repo("sub", {"x.py": "x = 1\n"})
    repo = ws.repo("r", {
        "bin.py": b"# see MISSING HEADING THERE in nowhere.py\x00\x01",
        "latin.py": "# see MISSING HEADING THERE in nowhere.py é\n".encode("latin-1"),
        "ok.py": "# fine\n",
    })
    sub = str(ws.repos["sub"])
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/sub")
    git(repo, "commit", "-qm", "submodule")
    workspace = load_workspace(None, [f"r={repo}"], cwd=tmp_path)
    result = run_check(workspace)
    assert result.findings == ()
    skipped = {s.path: s.reason for s in result.index.snapshots["r"].skipped}
    assert skipped == {"bin.py": "binary", "latin.py": "not UTF-8", "vendor/sub": "submodule"}


def test_single_repo_mode_uses_current_repository(ws: WorkspaceBuilder) -> None:
    repo = ws.repo("solo", {"a.py": "# see MISSING HEADING THERE in a.py\n"})
    (repo / "sub").mkdir()
    r = run_cli("check", "--format", "json", cwd=repo / "sub")
    assert r.code == 1, r.err
    doc = json.loads(r.out)
    assert doc["workspace"][0]["name"] == "solo"
    assert [f["code"] for f in doc["findings"]] == ["AC101"]


def test_crlf_line_ends_count_lines_like_editors(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "x = 1\r\n\r\n# see MISSING HEADING THERE in a.py\r\n"})
    assert codes(ws) == [("AC101", "a.py", 3)]


def test_empty_repo_and_non_repo_paths_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    r = run_cli("check", "--repo", f"e={empty}", cwd=tmp_path)
    assert (r.code, r.err.strip()) == (2, f"anchorcheck: error: {empty}: the repository has no commits yet")
    r = run_cli("check", "--repo", f"e={tmp_path / 'missing'}", cwd=tmp_path)
    assert r.code == 2 and "no such directory" in r.err


def test_a_check_runs_with_the_collector_paused_and_gives_it_back(ws: WorkspaceBuilder) -> None:
    import gc
    from unittest import mock

    from anchorcheck.check import pipeline as check_module

    ws.repo("r", {"a.py": "# ROLLBACK ON THE DEGRADED PATH\n# Body.\nx = 1\n# see ROLLBACK ON THE DEGRADED PATH\n"})
    workspace = load_workspace(ws.config())
    during: list[bool] = []
    real = check_module.fingerprint

    def spy(findings: object) -> object:
        during.append(gc.isenabled())
        return real(findings)  # type: ignore[arg-type]

    assert gc.isenabled()
    with mock.patch.object(check_module, "fingerprint", side_effect=spy):
        run_check(workspace)
    assert during == [False] and gc.isenabled()


def test_a_remote_url_is_read_from_the_config_file_as_git_reads_it(ws: WorkspaceBuilder) -> None:
    from anchorcheck.config.workspace import remote_slug
    from anchorcheck.git.repo import GitRepo

    repo = ws.repo("charts", {"a.yaml": "k: v\n"})
    git(repo, "remote", "add", "upstream", "https://github.com/helm/charts")
    git(repo, "remote", "add", "origin", "https://github.com/acme/charts.git")
    git(repo, "config", "remote.origin.pushurl", "git@github.com:someone/else.git")
    assert GitRepo(repo).remote_url() == git(repo, "config", "--get", "remote.origin.url").strip()
    assert GitRepo(repo).remote_url("upstream") == "https://github.com/helm/charts"
    assert GitRepo(repo).remote_url("nope") is None
    # A linked work tree reads the main repository's config.
    git(repo, "worktree", "add", "-q", str(ws.root / "wt"), "-b", "other")
    assert GitRepo(ws.root / "wt").remote_url() == "https://github.com/acme/charts.git"
    assert [remote_slug(u) for u in ("https://github.com/acme/charts.git", "git@github.com:a/b.git",
                                     "/srv/git/charts", "file:///srv/git/a/b", "../charts")] == \
        ["acme/charts", "a/b", None, None, None]


def test_links_into_a_documentation_site_resolve_as_the_site_builds_them(ws: WorkspaceBuilder) -> None:
    page = (
        "# Guide\n\n"
        "![basic](/images/basic.png) and [community](/contributing/community), and its\n"  # 3
        "[index](/contributing/) and [spec](/references/spec/#gateway.k8s.io/v1.Gateway).\n"  # 4
        "[Usage](other.html#usage), [bad](other.html#nope), [gone](/nowhere/page).\n"  # 5
        "[release notes](/#v060), [root](./) and [spec again](spec.md#a.b/C).\n"  # 6
    )
    ws.repo("site", {
        "docs/guide/page.md": page + "![logo](/logo.svg) ::: tip Note\n[`x`](#guide) holds.\n",  # 7-8
        # a site: its rules hold (its build does not fail on a dead link: anchorcheck judges them)
        "docs/.vitepress/config.ts": "export default { title: 'Site', ignoreDeadLinks: true }\n",
        "docs/public/logo.svg": "<svg/>",
        "docs/guide/other.md": "# Other\n\n## Usage\n",
        "docs/guide/spec.md": "REPLACE_WITH_GENERATED_CONTENT\n",
        "docs/images/basic.png": "png",
        "docs/contributing/community.md": "# Community\n",
        "docs/contributing/index.md": "# Contributing\n",
        "docs/references/spec.md": "REPLACE_WITH_GENERATED_CONTENT\n",
    })
    # From the repo's root, as GitHub reads them, else from a directory above the page
    # (the site's root, docs/); `x/` and `x` are x.md, x/index.md or x/README.md, and
    # x.html is x.md. A fragment no heading's slug can be (`gateway.k8s.io/v1.Gateway`)
    # names an HTML id or generated content: only its file is checked. A site's public/
    # is served at its root (VitePress); `Note` over a link cites no Note.
    assert codes(ws) == [("AC101", "docs/guide/page.md", 5), ("AC105", "docs/guide/page.md", 5)]


def test_a_page_no_site_builds_is_judged_as_github_shows_it(ws: WorkspaceBuilder) -> None:
    """The same links where no site config is: GitHub serves root-relative links from
    the repo's root, has no page for `x/` or `x.html` but the file or folder, and
    serves no `public/` folder."""
    page = "# Guide\n\n[index](/docs/contributing/) [community](/contributing/community)\n" \
           "[Usage](other.html#usage) [logo](/logo.svg) [other](other.md#usage) [dir](../contributing/)\n"
    ws.repo("site", {
        "docs/guide/page.md": page,
        "docs/public/logo.svg": "<svg/>",
        "docs/guide/other.md": "# Other\n\n## Usage\n",
        "docs/contributing/community.md": "# Community\n",
    })
    # (`other.html`, no file here, names a page a build may make: not checked.)
    assert codes(ws) == [("AC105", "docs/guide/page.md", 3), ("AC105", "docs/guide/page.md", 4)]


def test_links_a_site_resolves_from_the_page_url_resolve(ws: WorkspaceBuilder) -> None:
    arch = (
        "# Architecture\n\n"
        "See [modes](../deployment-modes/), [components](../components/) and\n"  # 3: siblings
        "![diagram](../diagram.svg), [design](../../community/design/2020-02-push-api/).\n"  # 4
        "[gone](../no-such-page/) and [also gone](../../nowhere/).\n"  # 5: broken either way
        "[a file](../components.md) is read from the file, as MkDocs and GitHub do.\n"  # 6
    )
    ws.repo("loki", {
        "docs/sources/get-started/architecture.md": arch,
        "docs/sources/get-started/deployment-modes.md": "# Modes\n",
        "docs/sources/get-started/components.md": "# Components, the file\n",
        "docs/sources/get-started/components/_index.md": "# Components\n",
        "docs/sources/get-started/diagram.svg": "<svg/>",
        "docs/sources/community/design/2020-02-Push-API.md": "# Push API\n",
        "docs/sources/get-started/_index.md": "[arch](architecture/) and [sibling](../nothing/)\n",
        "CONTRIBUTING.md": "A [changelog entry](../docs/sources/get-started/diagram.svg).\n",  # GitHub's
        "docs/hugo.toml": 'baseURL = "https://example.invalid/"\ncontentDir = "sources"\n',
    })
    # Hugo (and MkDocs, for what is no .md file) publishes architecture.md at
    # architecture/: its `../x/` is a sibling page, found when the file-relative reading
    # finds nothing; `_index.md` is a section's page, and URLs are lower-cased. An index
    # page's URL is its directory already, and a page at the root is GitHub's.
    assert codes(ws) == [("AC105", "CONTRIBUTING.md", 1), ("AC105", "docs/sources/get-started/_index.md", 1),
                         ("AC105", "docs/sources/get-started/architecture.md", 5),
                         ("AC105", "docs/sources/get-started/architecture.md", 5),
                         ("AC105", "docs/sources/get-started/architecture.md", 6)]



def test_a_hugo_page_with_no_link_hook_links_from_its_url_first(ws: WorkspaceBuilder) -> None:
    files = {
        "config.toml": 'baseURL = "https://example.invalid/"\n',
        "content/docs/deploy/_index.md": "# Deploy\n\n## Upgrade\n",
        "content/docs/deploy/install/_index.md": "# Install\n\n## Installation Requirements\n",
        "content/docs/deploy/install/with-helm.md": (
            "See [requirements](../#installation-requirements),\n"  # 1: the section's page
            "[upgrade](../../#upgrade) and [gone](../#gone).\n"),  # 2
    }
    ws.repo("website", files)
    # longhorn.io: with-helm.md is served at deploy/install/with-helm/, so `../` is
    # deploy/install/ (the file's own folder), and `../../` is deploy/.
    assert codes(ws) == [("AC101", "content/docs/deploy/install/with-helm.md", 2)]


def test_a_hugo_link_hook_may_resolve_links_from_the_file(ws: WorkspaceBuilder) -> None:
    ws.repo("website", {
        "config.toml": 'baseURL = "https://example.invalid/"\n',
        "layouts/_default/_markup/render-link.html": '<a href="{{ .Destination | safeURL }}">{{ .Text }}</a>\n',
        "content/docs/deploy/_index.md": "# Deploy\n\n## Upgrade\n",
        "content/docs/deploy/install/_index.md": "# Install\n\n## Installation Requirements\n",
        "content/docs/deploy/install/with-helm.md": "See [upgrade](../#upgrade) and [gone](../#gone).\n",
    })
    # The site's own hook decides: the file's reading stands where it finds the page.
    assert codes(ws) == [("AC101", "content/docs/deploy/install/with-helm.md", 1)]


def test_a_vendored_copys_links_are_its_upstreams_and_an_example_path_is_shown(ws: WorkspaceBuilder) -> None:
    # consul-k8s vendors gateway-api 0.7.1 (`gateway-api-0.7.1-custom/`, with its own
    # LICENSE): its GEPs link pages of gateway-api's own site, the upstream's to keep; a
    # site's versioned docs (`v1.18-docs/`, no licence) are the repo's own.
    # opentelemetry-collector's schema shows a value's form, `(e.g.,
    # "system.md#system-memory-state")`.
    ws.repo("consul", {
        "control-plane/gateway-api-0.7.1-custom/LICENSE": "Apache-2.0\n",
        "content/v1.18-docs/install.md": "# Install\n\n[gone](../releases/README.md)\n",
        "control-plane/gateway-api-0.7.1-custom/geps/gep-724.md": "# GEP\n\n[709](/geps/gep-709) "
                                                                  "![v](../images/view.png)\n",
        "CONTRIBUTING.md": "# Contributing\n\nSee [the entries](../.changelog).\n",
        "cmd/schema.yaml": ('# Relative path to the definition (e.g., "system.md#system-memory-state")\n'
                            "# Details are in gone.md#usage.\nx: 1\n"),
    })
    assert codes(ws) == [("AC105", "CONTRIBUTING.md", 3), ("AC105", "cmd/schema.yaml", 2),
                         ("AC105", "content/v1.18-docs/install.md", 3)]
    run = run_cli("refs", "--unresolved", "--no-cache", cwd=ws.root)
    assert run.out.count("upstream-copy") == 2, run.out

def test_a_translated_page_links_the_english_page_where_no_translation_is(ws: WorkspaceBuilder) -> None:
    ws.repo("fastapi", {
        "docs/en/docs/release-notes.md": "# Release notes\n",
        "docs/en/docs/deployment/versions.md": "See the [notes](../release-notes.md).\n",
        "docs/de/docs/deployment/versions.md": "Siehe [Notizen](../release-notes.md), [weg](../gone.md).\n",
        "docs/zh-hant/docs/index.md": "[notes](release-notes.md)\n",
        "src/ui/page.md": "[x](release-notes.md)\n",  # `ui` is no language here: no en/ beside it
        "docs/en/mkdocs.yml": "site_name: FastAPI\n",  # each language a MkDocs site (docs_dir: docs)
        "docs/de/mkdocs.yml": "INHERIT: ../en/mkdocs.yml\n",
        "docs/zh-hant/mkdocs.yml": "INHERIT: ../en/mkdocs.yml\n",
    })
    # MkDocs' i18n shows the English page where no translation exists.
    assert codes(ws) == [("AC105", "docs/de/docs/deployment/versions.md", 1), ("AC105", "src/ui/page.md", 1)]


def test_fragments_resolve_to_mkdocs_ids_too(ws: WorkspaceBuilder) -> None:
    page = (
        "# Basic auth\n\n"
        "See [GitHub's](#users--usersfile), [MkDocs'](#users-usersfile), [2nd](#example_2),\n"  # 3
        "[3rd](#example-2), [none](#example_3), [café](#cafe-creme) and [gone](#users_1).\n\n"  # 4
        "### users & usersFile\n\n## Example\n\n## Example\n\n## Example\n\n## Café crème\n"
    )
    repo = ws.repo("traefik", {"docs/basicauth.md": page, "mkdocs.yml": "site_name: Traefik\n"})
    # Python-Markdown's toc (MkDocs) collapses runs of dashes, drops accents to ASCII
    # and numbers a repeated title's ids `_1`, `_2`: a site's links use those.
    assert [m for _, _, _, _, m in findings(ws)] == [
        "no heading with fragment #example_3 in traefik:docs/basicauth.md",
        "no heading with fragment #users_1 in traefik:docs/basicauth.md",
    ]
    # Where no site builds the page, GitHub's ids are the ones.
    commit(repo, {"mkdocs.yml": None})
    assert [m.split(" in ")[0] for _, _, _, _, m in findings(ws)] == [
        f"no heading with fragment #{f}" for f in ("users-usersfile", "example_2", "example_3", "cafe-creme", "users_1")
    ]


def test_fragments_resolve_to_vitepress_ids_too(ws: WorkspaceBuilder) -> None:
    ws.repo("vite", {
        "docs/config/build-options.md": "# Build Options\n\n## build.target\n\n## build.target\n\n## 2nd pass\n",
        "docs/.vitepress/config.mts": "export default {}\n",
        "docs/guide/features.md": (
            "See [target](../config/build-options#build-target), [again](../config/build-options#build-target-1),\n"
            "[GitHub's](../config/build-options#buildtarget), [pass](../config/build-options#_2nd-pass) and\n"
            "[none](../config/build-options#build-target-2).\n"  # 3: no third
        ),
    })
    # VitePress: each run of punctuation and spaces is one dash, a leading digit gets
    # an `_`, a repeated title's ids are `-1`, `-2`.
    assert codes(ws) == [("AC101", "docs/guide/features.md", 3)]


def test_a_url_pinned_to_a_tag_or_commit_is_not_checked_against_the_branch(ws: WorkspaceBuilder) -> None:
    ws.repo("loki", {
        "docs/upgrade.md": (
            "See [config](https://github.com/grafana/loki/tree/v1.3.0/docs/configuration#lifecycler_config),\n"
            "[old](https://github.com/grafana/loki/blob/0123abc/pkg/old.go#L3-L9) and\n"
            "[gone](https://github.com/grafana/loki/blob/main/pkg/old.go).\n"  # 3: main moves
        ),
    })
    # (The repo named loki is grafana/loki here: no url or origin says otherwise.)
    assert codes(ws) == [("AC105", "docs/upgrade.md", 3)]


def test_targets_the_workspace_ignores_are_not_checked(ws: WorkspaceBuilder) -> None:
    ws.repo("loki", {"docs/sources/overview.md": (
        "Try [Grafana Cloud](/products/cloud/), ![ILE](/media/docs/loki/ile.svg),\n"  # 1: the site's, not ours
        "[gone](/nowhere/page) and [a section](overview.md#no-such-section).\n"       # 2: still checked
    )})
    config = ws.config()
    config.write_text(config.read_text() + '[settings]\nignore-targets = ["^/(products|media)/", "#no-such"]\n',
                      encoding="utf-8")
    r = run_cli("check", "--format", "json", "--fail-on", "never", cwd=ws.root)
    assert [(f["code"], f["line"]) for f in json.loads(r.out)["findings"]] == [("AC105", 2)]
    config.write_text(config.read_text().replace('"#no-such"', '"(unclosed"'), encoding="utf-8")
    r = run_cli("check", cwd=ws.root)
    assert r.code == 2 and r.err.count("\n") == 1 and "'ignore-targets': '(unclosed' is not a regular expression" in r.err


def test_percent_encoded_links_and_fragments_of_generated_pages(ws: WorkspaceBuilder) -> None:
    options = (
        "/// Like [`fix`](#fix), but see [notes](#deadlock-safety) and [gone](#gone-heading).\n"  # 1
        "pub struct Options;\n"
    )
    ws.repo("ruff", {
        "crates/ws/src/options.rs": options,
        "crates/ws/src/lib.rs": "//! # Deadlock safety\n//!\n//! Lock first.\npub fn f() {}\n",
        "docs/my notes.md": "# Notes\n\n## Café\n",
        "docs/index.md": "[n](my%20notes.md#caf%C3%A9), [x](my%20notes.md#gone)\n"  # 1: the second dangles
                         "<a href='https://github.com/acme/ruff/blob/main/docs%2Fmy%20notes.md'>src</a>\n",
        "Lib.hs": "-- | See [laws](#laws).\nmodule Lib where\n",  # Haddock's anchors are in the source
    })
    # A link is a URL: its percent escapes are decoded. A fragment a code file's doc
    # comment names, which the file does not hold, is an anchor of generated docs.
    assert codes(ws) == [("AC101", "Lib.hs", 1), ("AC101", "docs/index.md", 1)]


def test_a_path_git_ignores_is_a_build_output(ws: WorkspaceBuilder) -> None:
    ws.repo("ruff", {
        ".gitignore": "/target\n*.log\n",
        "docs/.gitignore": "# generate_mkdocs.py\n/settings.md\n/rules/\n!/rules/kept.md\n",
        "docs/formatter.md": (
            "See [settings](settings.md#line-length), [E501](rules/line-too-long.md),\n"
            "[kept](rules/kept.md), [gone](gone.md), [log](../run.log), [bin](../target/x).\n"  # 2: kept, gone
        ),
        "crates/ws/src/options.rs": "/// See [E501](rules/line-too-long.md) and [any rule](rules/any/).\npub struct O;\n",
    })
    # docs/.gitignore lists what the docs build writes: links to those are not
    # checked; a negated rule (!) takes a path back, and what no rule matches is checked.
    # A path looked for anywhere (a doc comment's) is a build's output when it is one
    # under some .gitignore's directory.
    assert codes(ws) == [("AC105", "docs/formatter.md", 2), ("AC105", "docs/formatter.md", 2)]


def test_a_link_to_generated_documentation_is_not_a_file(ws: WorkspaceBuilder) -> None:
    lib = (
        "//! Use a [`Builder`] to make a [`Runtime`].\n"
        "//!\n"
        "//! [`Builder`]: ../tokio/runtime/struct.Builder.html\n"
        "//! [`Runtime`](runtime/struct.Runtime.html), and see\n"
        "//! index.html#driving-the-runtime and cf. config.html#stylesheet-path.\n"
        "pub fn f() {}\n"
    )
    ws.repo("tokio", {"tokio/src/lib.rs": lib, "a/index.html": "<html/>", "b/index.html": "<html/>",
                      "docs/guide.md": "See [the page](missing.html) and [this one](../a/index.html).\n"})
    # No such file here: a page rustdoc or a docs build writes, not a file of the repo
    # (and `index.html` is not looked for as a suffix anywhere). A Markdown link to an
    # HTML page in the repo is still checked as a file.
    assert codes(ws) == []


def test_docs_site_conventions_resolve_and_history_is_not_checked(ws: WorkspaceBuilder) -> None:
    aliases = (
        'class AliasPath:\n'
        '    """Usage docs: [AliasPath](../concepts/alias.md#aliaspath).\n\n'   # 2: as shown in docs/api/
        '    [Unions]: ../concepts/unions.md#discriminated-unions\n'              # 4: no file to be relative to
        '    [Gone](../concepts/gone.md) and [config](config.md).\n'              # 5: gone; config.md twice
        '    """\n'
    )
    ws.repo("pydantic", {
        "pydantic/aliases.py": aliases,
        "docs/concepts/alias.md": "# Alias\n\n## AliasPath\n",
        "docs/concepts/unions.md": "# Unions\n\n## Discriminated unions\n",
        "docs/concepts/config.md": "# Config\n",
        "docs/api/config.md": "::: pydantic.config\n",
        "docs/why.md": (
            "See [hints](#type-hints), [strict](#Strict.Lax), [t](#typeddict), [bad](#nope).\n\n"  # 1
            "## Type hints {#type-hints}\n\nText <span id='Strict.Lax'>x</span>.\n\n[](){#typeddict}\n\n"
            "A note.[^1]\n\n[^1]: This is done unconditionally.\n"                               # 11
        ),
        "HISTORY.md": "## v2\n\n* Remove `old_helper()`; see [docs](docs/removed.md).\n",
        "changelog/v1.md": "* [Gone](../docs/gone.md)\n",
        "notes/pydantic-1.6.0.md": "* [Gone](../docs/gone.md)\n",  # (coredns' release notes: its blog posts)
        "notes/design.md": "* [Gone](../docs/gone.md)\n",  # (a note, not a release's: checked)
        "docs/e2e.md": "[a](https://github.com/acme/pydantic/tree/main//docs/why.md#type-hints)\n",
    })
    assert codes(ws) == [("AC101", "docs/why.md", 1), ("AC105", "notes/design.md", 1),
                         ("AC105", "pydantic/aliases.py", 5)]


def test_a_markdown_heading_is_cited_in_any_case_a_caps_heading_as_written(ws: WorkspaceBuilder) -> None:
    ws.repo("tokio", {
        "src/node.rs": "//! # Deadlock safety\n//!\n//! Lock parents first.\n\n"
                       "// Unlock the node first (see 'deadlock safety').\n"     # 5: resolves
                       "// and see [there](#deadlock-safety).\nfn f() {}\n",      # 6: resolves
        "deploy.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Body.\nk: v\n",
        # Case matters from another file; in its own file, a caps section named in
        # sentence case is that section (test_a_caps_section_named_in_sentence_case...).
        "jobs.py": "# see 'rollback on the degraded path'\nx = 1\n",          # 1: case matters here
    })
    assert codes(ws) == [("AC101", "jobs.py", 1)]


def test_a_title_many_documents_share_named_without_a_location_is_prose(ws: WorkspaceBuilder) -> None:
    ws.repo("core", {
        "CHANGELOG.md": "# 3.5\n\n## Features\n\n# 3.4\n\n## Features\n",
        "docs/guide.md": "## Features\n",
        ".github/commit-convention.md": 'Appears under "Features" header.\n',
        "a.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Body.\nk: v\n",
        "b.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Body.\nk: v\n",
        "c.py": "# per 'ROLLBACK ON THE DEGRADED PATH'\n",  # caps headings: still ambiguous
    })
    assert codes(ws) == [("AC103", "c.py", 1)]


def test_a_myst_target_is_linked_to_by_name_from_any_page(ws: WorkspaceBuilder) -> None:
    ws.repo("black", {
        "docs/the_basics.md": "(labels/line-length)=\n\n### Line length\n\nText.\n",
        "docs/faq.md": "See [line length](labels/line-length) and [gone](labels/no-such-label).\n",
        "docs/conf.py": "extensions = ['myst_parser']\n",  # a Sphinx site, pages in MyST
        "docs/cli/index.md": "[pip](pip) and [gone](nothing)\n",  # a document's name: cli/pip.rst
        "docs/cli/pip.rst": "pip\n===\n",
    })
    assert codes(ws) == [("AC105", "docs/cli/index.md", 1), ("AC105", "docs/faq.md", 1)]


def test_an_upgrade_guide_an_announcement_and_a_blog_post_name_what_was_removed_as_a_record(ws: WorkspaceBuilder) -> None:
    # bubbletea's UPGRADE_GUIDE_V2.md lists the options v2 removed: a record, not a claim
    # (AC203); its links still lead to today's docs, and are checked.
    repo = ws.repo("tea", {"tea.go": "package tea\n\nfunc WithReportFocus() {}\n\nfunc Run() {}\n",
                           "README.md": "# Tea\n\nCall `Run()`.\n"})
    from anchorcheck.git.repobuilder import commit

    commit(repo, {"tea.go": "package tea\n\nfunc Run() {}\n"}, "remove WithReportFocus")
    # (So are a release's announcement and a blog post, written on the day:
    # django-rest-framework's 3.0-announcement.md names the `request.DATA` it deprecated.)
    commit(repo, {"UPGRADE_GUIDE_V2.md": "# Upgrading\n\n## Removed options\n\n- `WithReportFocus()`: gone, see [the guide](nope.md)\n",
                  "docs/community/1.0-announcement.md": "# Tea 1.0\n\n`WithReportFocus()` is deprecated.\n",
                  "site/blog/2023/focus.md": "# Focus\n\nUse `WithReportFocus()` to report focus.\n",
                  "docs/notes.md": "# Notes\n\nUse `WithReportFocus()` to report focus.\n"}, "docs")
    run = ws.check("--format", "json", "--no-cache", "--select", "AC105,AC203")
    found = sorted((f["code"], f["path"]) for f in json.loads(run.out)["findings"])
    assert found == [("AC105", "UPGRADE_GUIDE_V2.md"), ("AC203", "docs/notes.md")]


def test_a_name_still_served_by_its_home_or_a_tests_own_helper_is_no_removal(ws: WorkspaceBuilder) -> None:
    # click's `get_text_stream` became `_get_text_stream`, served by the module's
    # `__getattr__` (PEP 562) under its old name; starlight's test file lost its own
    # `renderMarkdown` helper, while its comments name Astro's API of that name. A
    # name gone from everywhere is still a finding.
    repo = ws.repo("lib", {
        "src/utils.py": "def get_text_stream():\n    pass\n\n\ndef open_file():\n    pass\n",
        "tests/render.test.ts": "function renderMarkdown(s) {\n  return s;\n}\n",
        "README.md": "# Lib\n",
    })
    commit(repo, {
        "src/utils.py": "def _get_text_stream():\n    pass\n\n\ndef __getattr__(name):\n"
                        "    if name == \"get_text_stream\":\n        return _get_text_stream\n"
                        "    raise AttributeError(name)\n",
        "tests/render.test.ts": "// nothing here\n",
    }, "deprecate, drop helpers")
    commit(repo, {"README.md": "# Lib\n\nCall `get_text_stream()` or `open_file()`.\n",
                  "src/md.py": "# The content loader's `renderMarkdown()` API gives no path.\n"}, "docs")
    run = ws.check("--format", "json", "--no-cache", "--select", "AC203")
    found = [(f["path"], f["message"].split(" ")[0]) for f in json.loads(run.out)["findings"]]
    assert found == [("README.md", "open_file")], run.out


def test_a_c_macro_defines_its_name_and_a_vendored_copys_removal_is_not_the_workspaces(
        ws: WorkspaceBuilder) -> None:
    # libgit2: `RMATCH` is a macro in deps/pcre2 (`#define RMATCH(ra, rb)`); deps/pcre,
    # removed, defined `longjmp`, which src/ names as the C library's.
    repo = ws.repo("git2", {
        "src/match.c": "int RMATCH(int a) {\n  return a;\n}\n\nint gone_func(void) {\n  return 0;\n}\n",
        "deps/pcre/exec.c": "void longjmp(int env) {\n  (void)env;\n}\n",
        "README.md": "# git2\n",
    })
    commit(repo, {"src/match.c": "#define RMATCH(a) (a)\n", "deps/pcre/exec.c": None}, "macros; drop pcre")
    commit(repo, {"README.md": "# git2\n\nSee `RMATCH()`, `longjmp()` and `gone_func()`.\n"}, "docs")
    run = ws.check("--format", "json", "--no-cache", "--select", "AC203")
    assert [f["message"].split(" ")[0] for f in json.loads(run.out)["findings"]] == ["gone_func"], run.out


def test_a_caps_section_named_in_sentence_case_in_its_own_file(ws: WorkspaceBuilder) -> None:
    # stb_ds.h: "see 'Compile-time options'" names its own `COMPILE-TIME OPTIONS`; from
    # another file the caps heading is only cited as written.
    ws.repo("stb", {
        "stb_ds.h": "// COMPILE-TIME OPTIONS\n//\n//   Define them first.\n//\n"
                    "// Hashing: see 'Compile-time options' above.\nint x;\n",
        "other.c": "// see 'Compile-time options' in stb_ds.h\nint y;\n",
    })
    assert codes(ws) == [("AC101", "other.c", 1)]
