"""AC105 dangling-path: a reference or link to a file that does not exist."""

from __future__ import annotations

import posixpath
from collections.abc import Iterator

from anchorcheck.model.finding import Finding, Severity
from anchorcheck.patterns import compiled_on_use
from anchorcheck.resolve.resolution import Resolution, Status
from anchorcheck.rules import rule
from anchorcheck.rules.base import CheckContext, Rule
from anchorcheck.rules.wording import did_you_mean


@rule("AC105", "dangling-path", Severity.ERROR)
def check(ctx: CheckContext, self: Rule) -> Iterator[Finding]:
    """A cited file does not exist.

    What: the path of a reference (a heading's location, a Markdown link, a GitHub
    blob URL into a workspace repo) matches no file: not in the named repo, not in
    the citing repo, not under a repo-name prefix, not as a unique suffix. A
    relative link that leaves its repo lands in the sibling repo whose folder holds
    it; where none does, the message says what would have resolved. The message
    offers the files of the cited name, and names an e-mail or web address written
    without `mailto:` or `https://` for what it is.
    Why: files get moved and renamed; the comment still points at the old place.
    Example: `[runbook](docs/runbook.md)` after `docs/runbook.md` moved to
    `docs/ops/runbook.md`.
    How to fix: point the reference at the file's new path (`git log -- OLD_PATH`
    shows the commit that moved or deleted it), or drop it if the file is gone for
    good. A relative link that leaves its repo takes the path the message says would
    resolve; an empty link needs its target written.
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
        hint = _leaving(ctx, res) or _not_a_path(ref.target_path or "") or did_you_mean(_same_name(ctx, res))
        yield self.at(res, f"no file {where}{at}{hint}")


def _leaving(ctx: CheckContext, res: Resolution) -> str:
    """For a relative link that leaves its repo and lands in no repo's folder: that it
    does, and the links to the repos holding the rest of its path (what would have
    resolved), else the folders the workspace's repos are in beside this one."""
    ref = res.reference
    if res.files or not ref.relative or not (ref.target_path or "").startswith("../"):
        return ""
    if res.suggestions:
        return f": the link leaves repo {ref.repo}; {' or '.join(res.suggestions)} would resolve"
    here = ctx.index.repos.get(ref.repo)
    beside = sorted(posixpath.relpath(spec.path.resolve(), here.path.resolve().parent)
                    for name, spec in ctx.index.repos.items() if name != ref.repo) if here else []
    places = ", ".join(f"../{b}" for b in beside)
    held = f"; the workspace's other repos are at {places} from it" if beside else ""
    return f": the link leaves repo {ref.repo}, into no repo's folder{held}"


def _same_name(ctx: CheckContext, res: Resolution) -> tuple[str, ...]:
    """The files of the cited name elsewhere, for a did-you-mean: a moved file keeps its
    name more often than its folder. Those in the repo cited first (as paths), else
    those of other repos (as repo:path); none when more than three share the name
    (README.md, index.md): a guess among many is noise."""
    ref = res.reference
    base = posixpath.basename((ref.target_path or "").rstrip("/"))
    if not base:
        return ()
    repo = res.files[0][0] if res.files else ref.repo
    found = ctx.index.ending_with(base)
    here = tuple(path for r, path in found if r == repo)
    there = tuple(f"{r}:{path}" for r, path in found if r != repo)
    named = here or there
    return named if len(named) <= 3 else ()


# An e-mail address, and a host's name (a dot, then letters) leading a path: what a
# link with no `mailto:` or `https://` leaves, which GitHub follows as a file.
_EMAIL = compiled_on_use(r"[^\s/@:]+@[^\s/@:]+\.[A-Za-z]{2,}")
_HOST_FIRST = compiled_on_use(
    r"(?:www\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|io|dev|edu|gov|co)(?:/|$)")


def _not_a_path(target: str) -> str:
    """What the target is, when it is an address written without its scheme (helm/
    charts: `[us](askcoin@microsoft.com)`, `[volume](kubernetes.io/docs/...)`)."""
    if _EMAIL.fullmatch(target):
        return f": an e-mail address, which a link writes as mailto:{target}"
    if _HOST_FIRST.match(target):
        return f": a web address, which a link writes as https://{target}"
    return ""
