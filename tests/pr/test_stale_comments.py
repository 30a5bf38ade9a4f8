"""AC206 stale-comment: a change replaces a code token and a comment it leaves alone
still names the old one. Real repos with PR branches; merge-order, `check
--changed-only` and `fix --changed-only` through the command line."""

from __future__ import annotations

import json

from anchorcheck.config.workspace import load_workspace
from anchorcheck.git.output import parse_hunks
from anchorcheck.pr.change import ChangeSpec
from anchorcheck.pr.mergeorder import analyse
from anchorcheck.pr.stale import file_change, stale_in_file
from anchorcheck.report.merge_order import advise
from tests.conftest import WorkspaceBuilder, git, run_cli

# The seed's deployment: the comment over the strategy names the value it explains.
DEPLOY = """apiVersion: apps/v1
kind: Deployment
spec:
  replicas: 1
  # ROLLBACK ON THE DEGRADED PATH
  # Recreate (below) guarantees the old pod is gone before the new one starts,
  # so two managers never hold the queue at once.
  strategy:
    type: Recreate
  template:
    spec:
      containers:
        - name: manager
          ports:
            - containerPort: 8080  # INGESTION_HTTP_PORT defaults to 8080
"""
ROLLING = DEPLOY.replace("type: Recreate", "type: RollingUpdate")
CITES = ("# The manager relies on it: see ROLLBACK ON THE DEGRADED PATH in client:templates/deploy.yaml\n"
         "# (Recreate): never two managers.\n"
         "# Its port is client:templates/deploy.yaml:15 (8080).\n"
         "PORT = 8080\n")


def seed(ws: WorkspaceBuilder, head: str) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY, "Chart.yaml": "name: client\nversion: 1.9.58\n"})
    ws.pr("client", "pr/791", {"templates/deploy.yaml": head, "Chart.yaml": "name: client\nversion: 1.9.59\n"})
    ws.repo("runtime", {"jobs.py": CITES})


def stale(ws: WorkspaceBuilder, *prs: str) -> list[tuple[str | None, str, str, int, str | None, str]]:
    workspace = load_workspace(ws.config())
    adv = advise(analyse(workspace, [ChangeSpec.parse(p, workspace) for p in prs], {}))
    return [(f.finding.change, f.finding.repo, f.finding.path, f.finding.line, f.finding.suggestion,
             f.finding.message) for f in adv.findings if f.finding.code == "AC206"]


def test_a_strategy_change_under_a_comment_that_still_says_recreate(ws: WorkspaceBuilder) -> None:
    seed(ws, ROLLING)
    found = stale(ws, "client#791=pr/791")
    assert [f[:5] for f in found] == [
        ("client#791", "client", "templates/deploy.yaml", 6, "RollingUpdate"),
        ("client#791", "runtime", "jobs.py", 2, "RollingUpdate"),
    ]
    assert found[0][5] == ("comment still says `Recreate`; the change replaced it with `RollingUpdate` at "
                           "templates/deploy.yaml:9 (the comment above it)")
    # The citing comment in another repo: it cites the heading whose block holds the line.
    assert found[1][5].endswith("at client:templates/deploy.yaml:9 (the comment cites ROLLBACK ON THE DEGRADED PATH)")


def test_the_comment_rewritten_with_the_code_is_not_stale(ws: WorkspaceBuilder) -> None:
    fixed = ROLLING.replace("# Recreate (below) guarantees the old pod is gone before the new one starts,",
                            "# RollingUpdate (below) keeps one pod serving while the new one starts,")
    seed(ws, fixed)
    # (The runtime's citing comment still says Recreate, which the chart no longer has.)
    assert [f[1:4] for f in stale(ws, "client#791=pr/791")] == [("runtime", "jobs.py", 2)]


def test_a_port_beside_and_a_line_claim_citing_it(ws: WorkspaceBuilder) -> None:
    seed(ws, DEPLOY.replace("containerPort: 8080", "containerPort: 9090"))
    found = stale(ws, "client#791=pr/791")
    assert [f[1:5] for f in found] == [("client", "templates/deploy.yaml", 15, "9090"),
                                       ("runtime", "jobs.py", 3, "9090")]
    assert found[0][5].endswith("(the comment beside it)")
    assert found[1][5].endswith("(the comment cites its lines)")


def test_check_changed_only_tells_it_and_fix_applies_it(ws: WorkspaceBuilder) -> None:
    seed(ws, ROLLING)
    config = ws.config({"client": "pr/791"})
    run = run_cli("check", "--changed-only", "client=main", "--format", "json", "--fail-on", "never", cwd=ws.root)
    assert run.code == 0, run.err
    doc = json.loads(run.out)
    assert [(f["code"], f["repo"], f["path"], f["line"], f["suggestion"]) for f in doc["findings"]] == [
        ("AC206", "client", "templates/deploy.yaml", 6, "RollingUpdate"),
        ("AC206", "runtime", "jobs.py", 2, "RollingUpdate"),
    ]
    # `fix` edits the work tree of the commit checked: check the PR branch out.
    git(ws.repos["client"], "checkout", "-q", "pr/791")
    run = run_cli("fix", "--changed-only", "client=main", "--write", "--config", str(config), cwd=ws.root)
    assert run.code == 0, run.err
    text = (ws.repos["client"] / "templates/deploy.yaml").read_text()
    assert "# RollingUpdate (below) guarantees the old pod is gone" in text
    assert "type: RollingUpdate" in text and "Recreate" not in text
    cites = (ws.repos["runtime"] / "jobs.py").read_text()
    assert "# (RollingUpdate): never two managers." in cites
    # Nothing else was touched.
    assert cites.replace("RollingUpdate", "Recreate") == CITES


def test_merge_order_json_names_the_change(ws: WorkspaceBuilder) -> None:
    seed(ws, ROLLING)
    ws.config()
    doc = json.loads(run_cli("merge-order", "--pr", "client#791=pr/791", "--format", "json", cwd=ws.root).out)
    codes = [(f["code"], f["change"], f["path"]) for f in doc["findings"]]
    assert ("AC206", "client#791", "templates/deploy.yaml") in codes


def replaced(ws: WorkspaceBuilder, old: str, new: str, path: str = "a.py") -> list[tuple[str, str]]:
    """What AC206 finds in one file's change from `old` to `new` (a repo of its own)."""
    name = f"r{len(ws.repos)}"
    repo = ws.repo(name, {path: old})
    ws.pr(name, "pr", {path: new})
    fc = file_change(name, path, parse_hunks(git(repo, "diff", "-U0", "main", "pr", "--"))[path], old, new)
    assert fc is not None
    return [(s.replaced.old, s.replaced.new) for s in stale_in_file(fc)]


def test_a_renamed_parameter_named_in_the_docstring(ws: WorkspaceBuilder) -> None:
    old = 'def wait(timeout_s: float) -> None:\n    """Sleep for `timeout_s` seconds."""\n    sleep(timeout_s)\n'
    new = old.replace("timeout_s", "deadline_s").replace("Sleep for `deadline_s`", "Sleep for `timeout_s`")
    assert replaced(ws, old, new) == [("timeout_s", "deadline_s")]


def test_prose_words_count_only_written_as_code(ws: WorkspaceBuilder) -> None:
    old = "# wait for the timeout, then retry\nretry(timeout)\n"
    assert replaced(ws, old, old.replace("retry(timeout)", "retry(deadline)")) == []
    quoted = "# wait for `timeout`, then retry\nretry(timeout)\n"
    assert replaced(ws, quoted, quoted.replace("retry(timeout)", "retry(deadline)")) == [("timeout", "deadline")]


def test_a_token_still_in_the_code_below_is_not_stale(ws: WorkspaceBuilder) -> None:
    old = "# MAX_RETRIES bounds both loops\nA = MAX_RETRIES\nB = MAX_RETRIES\n"
    new = "# MAX_RETRIES bounds both loops\nA = RETRY_LIMIT\nB = MAX_RETRIES\n"
    assert replaced(ws, old, new) == []
    assert replaced(ws, old, new.replace("B = MAX_RETRIES", "B = RETRY_LIMIT")) == [("MAX_RETRIES", "RETRY_LIMIT")]


def test_a_comment_naming_both_tokens_or_past_a_blank_line_is_not_stale(ws: WorkspaceBuilder) -> None:
    both = "# was MAX_RETRIES, now RETRY_LIMIT\nA = MAX_RETRIES\n"
    assert replaced(ws, both, both.replace("A = MAX_RETRIES", "A = RETRY_LIMIT")) == []
    apart = "# MAX_RETRIES bounds the loop\n\nA = MAX_RETRIES\n"
    assert replaced(ws, apart, apart.replace("A = MAX_RETRIES", "A = RETRY_LIMIT")) == []


def test_booleans_and_one_character_tokens_are_never_replacements(ws: WorkspaceBuilder) -> None:
    old = "# enabled: true turns it on; x is the count\nenabled: true\nx: 1\n"
    new = "# enabled: true turns it on; x is the count\nenabled: false\nx: 2\n"
    assert replaced(ws, old, new, "values.yaml") == []


def test_a_rewritten_block_is_not_a_replacement(ws: WorkspaceBuilder) -> None:
    old = "# BUFFER_SIZE is the chunk read\nchunk = read(fd, BUFFER_SIZE)\n"
    new = "# BUFFER_SIZE is the chunk read\nwith open(path) as f:\n    data = f.read()\n"
    assert replaced(ws, old, new) == []


def test_a_number_counts_near_the_comment_not_anywhere_in_the_file(ws: WorkspaceBuilder) -> None:
    old = ("LIMITS = {'ip': 20}\n\n\n"
           "def login(key):\n    # 20 login attempts for one address per hour:\n"
           "    return authorize(key, 20, 3600)\n")
    new = old.replace("authorize(key, 20, 3600)", "authorize(key, 10, 3600)")
    assert replaced(ws, old, new) == [("20", "10")]
