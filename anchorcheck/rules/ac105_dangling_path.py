from __future__ import annotations

from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.resolve.resolver import Status
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule


@rule("AC105", "dangling-path", Severity.ERROR)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """A cited file does not exist.

    What: the path of a reference (a heading's location, a Markdown link, a GitHub
    blob URL into a workspace repo) matches no file: not in the named repo, not in
    the citing repo, not under a repo-name prefix, not as a unique suffix.
    Why: files get moved and renamed; the comment still points at the old place.
    Example: `[runbook](docs/runbook.md)` after `docs/runbook.md` moved to
    `docs/ops/runbook.md`.
    """
    for res in ctx.resolutions(Status.DANGLING_PATH):
        ref = res.reference
        if ref.target_path == "":
            yield self.at(res, "an empty link target: the link goes nowhere")
            continue
        if res.files:
            repo, path = res.files[0]
            where = f"{path} in repo {repo}"
        else:
            where = f"{ref.location_text} in the workspace"
        snap = ctx.index.snapshots.get(res.files[0][0] if res.files else ref.repo)
        spec = ctx.index.repos.get(res.files[0][0] if res.files else ref.repo)
        shown = spec.ref_label if spec is not None else snap.ref if snap is not None else None
        at = f" (at {shown})" if shown else ""
        yield self.at(res, f"no file {where}{at}")
