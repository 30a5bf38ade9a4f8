"""The reference rules (AC101-AC120) end to end: real workspaces of several repos, a
heading or Note cited right, wrongly, ambiguously, or not at all."""

from __future__ import annotations

import json

from tests.check.test_check import CITE, DEPLOY, codes, findings
from tests.conftest import WorkspaceBuilder, run_cli


def test_heading_on_unmerged_branch_dangles_until_that_branch_is_the_ref(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY.replace("  # ROLLBACK ON THE DEGRADED PATH\n", "")})
    ws.pr("client", "pr/791", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"jobs.py": CITE})
    assert codes(ws) == [("AC101", "jobs.py", 3)]
    assert codes(ws, client="pr/791") == []
    assert codes(ws, client="refs/heads/pr/791") == []


def test_wrong_file_names_the_right_file(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY, "templates/cron.yaml": "kind: CronJob\n"})
    ws.repo("runtime", {"jobs.py": CITE.replace("deploy.yaml", "cron.yaml")})
    [(code, repo, path, line, message)] = findings(ws)
    assert (code, repo, path, line) == ("AC102", "runtime", "jobs.py", 3)
    assert "client:templates/deploy.yaml:4" in message
    assert "client/templates/cron.yaml" in message


def test_missing_file_with_heading_elsewhere_is_wrong_location(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"jobs.py": CITE.replace("deploy.yaml", "gone.yaml")})
    assert codes(ws) == [("AC102", "jobs.py", 3)]


def test_dangling_path(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"jobs.py": "# see NO SUCH HEADING HERE in client/templates/gone.yaml\n"})
    [(code, _, _, _, message)] = findings(ws)
    assert code == "AC105"
    assert "client/templates/gone.yaml" in message


def test_duplicate_headings_in_one_file(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY + "  # ROLLBACK ON THE DEGRADED PATH\n  # again\n"})
    # Cited, the second is a trap: the citation can only mean one of them.
    ws.repo("runtime", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in client/templates/deploy.yaml\n"})
    [(code, _, path, line, message)] = findings(ws)
    assert (code, path, line) == ("AC110", "templates/deploy.yaml", 8)
    assert "first defined at client:templates/deploy.yaml:4" in message


def test_an_uncited_caps_line_repeated_in_a_file_is_a_label(ws: WorkspaceBuilder) -> None:
    values = ("updateStrategy:\n  ## ONLY FOR DAEMONSETS:\n  ## Can be RollingUpdate or OnDelete\n"
              "  type: RollingUpdate\n## ONLY FOR DAEMONSETS:\n## @param updateStrategy.type the type\n"
              "x: 1\n")
    ws.repo("charts", {"values.yaml": values})
    assert codes(ws) == []


def test_same_heading_in_two_files_is_not_a_duplicate(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"a.yaml": DEPLOY, "b.yaml": DEPLOY})
    assert codes(ws) == []


def test_duplicate_note_across_repos(ws: WorkspaceBuilder) -> None:
    note = "-- Note [Strictness]\n-- ~~~~~~~~~~~~~~~~~~\n-- Text.\nx = 1\n"
    ws.repo("a", {"A.hs": note})
    ws.repo("b", {"B.hs": note})
    assert codes(ws) == [("AC110", "B.hs", 1)]



def test_a_template_note_heading_nothing_cites_is_no_duplicate(ws: WorkspaceBuilder) -> None:
    # longhorn's enhancement proposals each copy the template's `## Note [optional]`
    # (one writes `## Note[optional]`: a heading, no citation of the others); a Note
    # heading that is cited, repeated, is still one.
    proposal = "# Proposal\n\n## Note [optional]\n\nNone.\n\n## Note [Lazy reads]\n\nText.\n"
    ws.repo("longhorn", {"enhancements/a.md": proposal, "enhancements/b.md": proposal,
                         "enhancements/c.md": proposal, "src/x.hs": "-- see Note [Lazy reads]\nx = 1\n",
                         "enhancements/d.md": "# Proposal\n\n## Note[optional]\n\nNone.\n"})
    assert [c for c in codes(ws) if c[0] == "AC110"] == [("AC110", "enhancements/b.md", 7),
                                                         ("AC110", "enhancements/c.md", 7)]

def test_unknown_repo_and_did_you_mean(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY})
    ws.repo("runtime", {"jobs.py": (
        "# see ROLLBACK ON THE DEGRADED PATH in clinet:templates/deploy.yaml\n"
        '# see "Rollback On The Degraded Path" in client:templates/deploy.yaml\n'
        "# see ROLLBACK ON THE DEGRADED PTAH in client:templates/deploy.yaml\n"
    )})
    out = findings(ws)
    assert [o[0] for o in out] == ["AC104", "AC101", "AC101"]
    assert "did you mean 'client'?" in out[0][4]
    assert "did you mean 'ROLLBACK ON THE DEGRADED PATH'?" in out[1][4]
    assert "did you mean 'ROLLBACK ON THE DEGRADED PATH'?" in out[2][4]


def test_ambiguous_path_and_heading_disambiguation(ws: WorkspaceBuilder) -> None:
    ws.repo("a", {"deploy/values.yaml": "# SHARED PORT NUMBER\n# The runtime reads it too.\nport: 1\n"})
    ws.repo("b", {"chart/values.yaml": "x: 1\n", "z.py": (
        "# see SHARED PORT NUMBER in values.yaml\n"  # only a's values.yaml has it: resolves
        "# see OTHER MISSING THING in values.yaml\n"  # neither has it: ambiguous
    )})
    ws.repo("c", {"docs/values.yaml": "x: 1\n"})
    assert codes(ws) == [("AC103", "z.py", 2)]


def test_a_file_named_bare_is_the_one_beside_the_citing_file(ws: WorkspaceBuilder) -> None:
    ws.repo("loki", {
        "pkg/compactor/index_set.go": "package compactor\n",
        "pkg/downloads/index_set.go": "package downloads\n\nfunc f() {}\n",
        "pkg/downloads/index_set_test.go": "// as index_set.go:3 does\npackage downloads\n",
        "pkg/other/x_test.go": "// as index_set.go:3 does\npackage other\n",  # 2: which one?
    })
    assert codes(ws) == [("AC103", "pkg/other/x_test.go", 1)]


def test_unreferenced_anchor_is_off_by_default_and_can_be_enabled(ws: WorkspaceBuilder) -> None:
    ws.repo("r", {"a.py": "# LONELY HEADING HERE\n# Nobody cites this.\nx = 1\n"})
    assert codes(ws) == []
    r = ws.check("--enable", "AC120", "--fail-on", "info")
    assert r.code == 1
    assert "r:a.py:1:3: AC120 'LONELY HEADING HERE' is not cited anywhere in the workspace" in r.out


def test_a_caps_heading_is_not_moved_to_a_markdown_title_that_matches_but_for_case(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/jobs.yaml": "# STRATEGY\n# Recreate, so the old pod is gone.\nkind: Deployment\n"})
    ws.repo("backend", {"docs/rollback.md": "# Runbook\n\n## Rollback on the degraded path\n\nSteps.\n"})
    ws.repo("runtime", {"jobs.py": "# see ROLLBACK ON THE DEGRADED PATH in client/templates/jobs.yaml\nx = 1\n"})
    run = ws.check("--format", "json", "--no-cache")
    [found] = json.loads(run.out)["findings"]
    assert found["code"] == "AC101", found
    assert found["message"].endswith("(did you mean 'Rollback on the degraded path'?)"), found["message"]
    # A caps heading that did move, as a caps heading, is AC102 with its place.
    ws.pr("client", "moved", {"templates/jobs.yaml": "kind: Deployment\n",
                              "templates/rollback.yaml": "# ROLLBACK ON THE DEGRADED PATH\n# Keep the old pod.\nx: 1\n"})
    run = run_cli("check", "--format", "json", "--no-cache", "--ref", "client=moved", cwd=ws.root)
    [moved] = json.loads(run.out)["findings"]
    assert moved["code"] == "AC102" and "client:templates/rollback.yaml" in moved["message"], moved


def test_a_note_copied_into_another_repo_is_reported_on_the_copy(ws: WorkspaceBuilder) -> None:
    note = "{- Note [Fold inlining]\n~~~~~~~~~~~~~~~~~~~~~~~\nGHC only inlines saturated calls.\n-}\nf = 1\n"
    ws.repo("aaa-app", {"third_party/bytestring/Fold.hs": note, "ghc-9.2/Fold.hs": note})  # first by name
    ws.repo("bytestring", {"Data/Fold.hs": note})
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert sorted((f["code"], f["severity"], f["repo"], f["path"]) for f in found) == [
        ("AC110", "warning", "aaa-app", "ghc-9.2/Fold.hs"), ("AC110", "warning", "aaa-app", "third_party/bytestring/Fold.hs")]
    assert "in a copy of bytestring:Data/Fold.hs:1" in found[0]["message"]
    # Two repos with no copy to tell: information only, never a warning on either.
    ws.repo("other", {"Fold.hs": note})
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert sorted((f["repo"], f["path"], f["severity"]) for f in found) == [
        ("aaa-app", "ghc-9.2/Fold.hs", "warning"), ("aaa-app", "third_party/bytestring/Fold.hs", "warning"),
        ("other", "Fold.hs", "info")]


def test_haddocks_quoted_identifier_is_no_heading(ws: WorkspaceBuilder) -> None:
    ws.repo("lib", {"Run.hs": "-- | Run it; see 'process' and 'Data.Map.insert' for the details.\nf = 1\n"})
    ws.repo("docs", {"guide.md": "# Guide\n\n## Process\n\nText.\n"})
    ws.config()
    refs = json.loads(run_cli("refs", "--all", "--format", "json", "--no-cache", cwd=ws.root).out)["references"]
    # It resolved, silently, to the other repo's `## Process`; Haddock links the identifier.
    assert [(r["text"], r["status"]) for r in refs if r["path"] == "Run.hs"] == [("see 'process'", "external")]


def test_the_seeds_own_wording_resolves(ws: WorkspaceBuilder) -> None:
    """Hidden cases from the seed thread's wording: a caps line standing alone right
    above code, cited with its file; a path wrapped after a `/`; Markdown prose citing
    a chart heading ("recorded under X in PATH")."""
    ws.repo("client", {
        "templates/jobs-manager-deployment.yaml": "kind: Deployment\n# ROLLBACK ON THE DEGRADED PATH\nstrategy:\n"
                                                  "  type: Recreate\n",
        "templates/auto-upgrade-cronjob.yaml": "# ATOMIC UPGRADES IMPLY WAIT\n# --atomic implies --wait.\nx: 1\n",
    })
    ws.repo("runtime", {"jobs.py": (
        "# see ROLLBACK ON THE DEGRADED PATH in client/templates/jobs-manager-deployment.yaml\nx = 1\n"
        "# see ATOMIC UPGRADES IMPLY WAIT in client/templates/\n# auto-upgrade-cronjob.yaml\ny = 2\n"
        "# see NO SUCH LINE ANYWHERE in client/templates/jobs-manager-deployment.yaml\nz = 3\n")})
    ws.repo("backend", {"docs/decisions.md": (
        "# Decisions\n\nThe choice is recorded under ROLLBACK ON THE DEGRADED PATH in\n"
        "client/templates/jobs-manager-deployment.yaml.\n")})
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["repo"], f["line"]) for f in found] == [("AC101", "runtime", 6)], found
    # The lone line is no anchor of its own: not listed, not a duplicate, not unreferenced.
    anchors = run_cli("anchors", "--no-cache", cwd=ws.root).out
    assert "ROLLBACK ON THE DEGRADED PATH" not in anchors and "ATOMIC UPGRADES IMPLY WAIT" in anchors



def test_a_quoted_title_cited_with_its_file_is_a_comment_line_there(ws: WorkspaceBuilder) -> None:
    """libjpeg-turbo's NEON code says `See "Creation of 2-D sample arrays" in
    jmemmgr.c`: a block comment there opens ` * Creation of 2-D sample arrays.`. A
    comment line that is the title but for case and a closing stop is the section; a
    title no comment line of that file is stays a finding."""
    ws.repo("jpeg", {
        "src/jmemmgr.c": "/*\n * Creation of 2-D sample arrays.\n *\n * To minimize overhead...\n */\nint x;\n",
        "simd/neon.c": ("/* No overflow here.  See \"Creation of 2-D sample\n * arrays\" in jmemmgr.c for details. */\n"
                        "int a;\n/* See \"Destruction of 2-D sample arrays\" in jmemmgr.c for more. */\nint b;\n"),
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert [(f["code"], f["line"]) for f in found] == [("AC101", 4)], found

def test_per_version_copies_in_one_repo_cite_and_repeat_their_upstream(ws: WorkspaceBuilder) -> None:
    note = "{- Note [Filter bindings]\n~~~~~~~~~~~~~~~~~~~~~~~~\nKeep the user's.\n-}\nf = 1\n-- See Note [TcRnExprMode]\n"
    ws.repo("clash", {"clash-ghc/src-bin-9.6/UI.hs": note, "clash-ghc/src-bin-9.8/UI.hs": note,
                      "src/Own.hs": "-- See Note [Nowhere at all]\ng = 2\n"})
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    # GHC's Notes, cited from Clash's copies of GHCi, are GHC's to check; the copies'
    # repeat of a Note is information; a citation in Clash's own code is still checked.
    assert sorted((f["code"], f["severity"], f["path"]) for f in found) == [
        ("AC101", "error", "src/Own.hs"), ("AC110", "info", "clash-ghc/src-bin-9.8/UI.hs")]


def test_a_repo_that_titles_its_notes_alone_on_a_line_defines_them_so(ws: WorkspaceBuilder) -> None:
    # Clash: 40 of its 42 Notes are `-- Note [X]` alone on a line over the body.
    clash_subst = ("-- Note [Extending the Subst]\n-- The subst maps old to new.\nf = 1\n\n"
                   "g = 2 -- See Note [Extending the Subst]\n-- See Note [Never written]\nh = 3\n")
    ws.repo("clash", {"Subst.hs": clash_subst, "Case.hs": "c x = do\n  -- Note [CaseLet deshadow]\n  -- Imagine\n  pure x\n"
                                                             "-- similar to Note [CaseLet deshadow]\nd = 4\n"})
    # GHC: its Notes are ruled (thousands; here twelve, more than ten times its title-
    # shaped ones); a title-shaped `-- Note [X]` there is a citation of one.
    ruled = "".join(f"{{- Note [Ruled {i}]\n~~~~~~~~~~~~~~~~\nBody.\n-}}\nx{i} = {i}\n" for i in range(12))
    ws.repo("ghc", {"A.hs": ruled + "-- Note [Gone since]\n-- explains y\ny = 1\n"})
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert sorted((f["repo"], f["path"], f["line"]) for f in found if f["code"] == "AC101") == [
        ("clash", "Subst.hs", 6), ("ghc", "A.hs", 61)]


def test_notes_located_by_module_abbreviated_or_elsewhere_and_notes_in_a_note_file(ws: WorkspaceBuilder) -> None:
    ws.repo("bytestring", {
        "Data/ByteString/Internal/Type.hs": "{- Note [Float error calls out of INLINABLE things]\n"
                                            "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\nBody.\n-}\nx = 1\n",
        "Data/ByteString/Lazy.hs": "-- See Note [Float error calls out of INLINABLE things] in D.B.Internal.Type\n"
                                   "y = 1\n-- in Note [unsafePerformIO and strictness] in GHC.IO.Unsafe.\nz = 2\n",
    })
    ws.repo("containers", {
        "note-template-haskell-deps.md": "-- Note [ Template Haskell Dependencies ]\n-- ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                                         "--\n-- Modules in containers use DeriveLift.\n",
        "src/Data/Graph.hs": "-- See Note [ Template Haskell Dependencies ]\ng = 1\n",
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    # D.B is Data.ByteString; GHC.IO.Unsafe is base's, not in the workspace; the note
    # file's GHC-style Note defines it.
    assert found == [], found


def test_shapes_from_primitive_and_vitepress(ws: WorkspaceBuilder) -> None:
    # primitive: one ruled Note, one titled alone on its line over its body.
    ws.repo("primitive", {
        "Array.hs": "{- Note [fromListN]\n~~~~~~~~~~~~~~~~~~\nBody.\n-}\nx = 1\n\n"
                    "-- Note [Forgiving Array Read Instance]\n-- We're really forgiving here.\ny = 2\n",
        "SmallArray.hs": "-- See Note [Forgiving Array Read Instance]\nz = 3\n-- See Note [fromListN] in Array\nw = 4\n",
    })
    # vitepress: prose about changelog sections, and a snippet import shown as code.
    ws.repo("vitepress", {
        "CHANGELOG.md": "# Changelog\n\n## 1.1.0\n\n### Bug Fixes\n\n- a\n\n## 1.0.0\n\n### Bug Fixes\n\n- b\n",
        "commit-convention.md": 'Appears under "Bug Fixes" header, with a link.\n\n'
                                "Write `<<< ./my#file.js#region` rather than `<<< ./my#file.js`.\n",
    })
    found = json.loads(ws.check("--format", "json", "--no-cache").out)["findings"]
    assert found == [], found
