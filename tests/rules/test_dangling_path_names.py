"""AC105's did-you-mean: a file that moved usually keeps its name, so the files of the
cited name are offered, those of the cited repo first, and none when the name is
common (more than three files hold it)."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def _line(out: str, prefix: str) -> str:
    return next(x for x in out.splitlines() if x.startswith(prefix))


def test_a_moved_file_is_offered_by_its_name_in_its_repo_first_then_elsewhere(ws: WorkspaceBuilder) -> None:
    ws.repo("app", {"docs/ops/runbook.md": "# Runbook\n", "setup.md": "# Setup\n",
                    "README.md": "[runbook](docs/runbook.md)\n\n[setup](old/setup.md)\n\n[plan](old/plan.md)\n"})
    ws.repo("ops", {"setup.md": "# Setup\n", "deploy/plan.md": "# Plan\n"})
    r = ws.check("--select", "AC105", "--fail-on", "never")
    assert _line(r.out, "app:README.md:1:").endswith("(did you mean 'docs/ops/runbook.md'?)"), r.out
    # setup.md is in app too: the cited repo's own is offered, not ops's.
    assert _line(r.out, "app:README.md:3:").endswith("(did you mean 'setup.md'?)"), r.out
    # plan.md only in ops: named with its repo.
    assert _line(r.out, "app:README.md:5:").endswith("(did you mean 'ops:deploy/plan.md'?)"), r.out


def test_a_common_name_offers_nothing(ws: WorkspaceBuilder) -> None:
    files = {f"part{i}/README.md": f"# Part {i}\n" for i in range(4)}
    ws.repo("app", {**files, "index.md": "[old part](gone/README.md)\n"})
    r = ws.check("--select", "AC105", "--fail-on", "never")
    line = _line(r.out, "app:index.md:1:")
    assert "AC105 no file gone/README.md" in line and "did you mean" not in line, r.out


def test_an_address_written_without_its_scheme_is_named_for_what_it_is(ws: WorkspaceBuilder) -> None:
    # helm/charts: `[us](askcoin@microsoft.com)` and `[volume](kubernetes.io/docs/...)`,
    # which GitHub follows as files of the repo.
    ws.repo("app", {"README.md": "Mail [us](ops@example.com).\n\n"
                                 "A [volume](kubernetes.io/docs/user-guide/persistent-volumes/).\n\n"
                                 "The [notes](notes.txt).\n"})
    r = ws.check("--select", "AC105", "--fail-on", "never")
    assert _line(r.out, "app:README.md:1:").endswith(
        ": an e-mail address, which a link writes as mailto:ops@example.com"), r.out
    assert _line(r.out, "app:README.md:3:").endswith(
        ": a web address, which a link writes as https://kubernetes.io/docs/user-guide/persistent-volumes/"), r.out
    assert _line(r.out, "app:README.md:5:").endswith("(at main)"), r.out  # a plain file: no such hint

