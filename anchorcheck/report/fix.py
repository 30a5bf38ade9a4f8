"""`anchorcheck fix`: rewrite what can be fixed mechanically, and nothing else.

Two kinds of fix: drifted line numbers of a line claim whose text now stands at other
lines (AC201 with a suggestion), and the location of a reference whose heading lives
in another file (AC102). `fix` reads what `check` reads: a repo given no ref as its
work tree on disk (or, with --staged, its index), a repo given a ref at that ref. An
edit lands only on exactly the text that was analysed: the file on disk must still
hash to the blob that was read (and, for a ref, the work tree's HEAD must be it), so
uncommitted edits are kept and fixed, never overwritten.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from anchorcheck.check.on_disk import why_not_as_read
from anchorcheck.check.pipeline import CheckResult
from anchorcheck.extract.modules import is_module, module_of
from anchorcheck.files import OutputError, read_no_follow, replace_if_unchanged, work_tree_file
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.resolve.resolution import Status


@dataclass(frozen=True, slots=True)
class Edit:
    """One rewrite of a reference's text that `fix` would make."""

    repo: str
    path: str
    line: int  # where the reference starts; the text may sit on a following line
    old: str
    new: str
    code: str
    # AC206: `old` is a token, replaced only where it stands alone, once, on `line`.
    token: bool = False


@dataclass(frozen=True, slots=True)
class FilePatch:
    """A file's text before and after its edits."""

    repo: str
    path: str
    target: Path
    before: str
    after: str
    raw: bytes = b""  # the file's bytes when read: it is replaced only if it still holds them

    def diff(self) -> str:
        return "".join(difflib.unified_diff(
            self.before.splitlines(keepends=True), self.after.splitlines(keepends=True),
            fromfile=f"a/{self.repo}/{self.path}", tofile=f"b/{self.repo}/{self.path}",
        ))


def planned_edits(result: CheckResult) -> list[Edit]:
    edits = [
        Edit(c.reference.repo, c.reference.path, c.reference.line, c.fix[0], c.fix[1], c.code)
        for c in result.claims if c.fix is not None and c.fix[0] != c.fix[1]
    ]
    for res in result.resolutions:
        if res.status is Status.WRONG_LOCATION and len(res.anchors) == 1:
            ref = res.reference
            old = ref.location_text
            new = _location_like(ref, res.anchors[0].repo, res.anchors[0].path)
            if old and new != old:
                edits.append(Edit(ref.repo, ref.path, ref.line, old, new, "AC102"))
    return edits


def _location_like(ref: Reference, repo: str, path: str) -> str:
    """The new location, written the way the old one was."""
    written = ref.target_path or ""
    if ref.kind is RefKind.NOTE and is_module(written):
        return module_of(path) or path  # a module named, a module written
    if ref.target_repo:
        return f"{repo}:{path}"
    if written.startswith(f"{repo}/") or (repo != ref.repo and "/" in written and
                                         written.split("/", 1)[0] in (repo, ref.target_repo)):
        return f"{repo}/{path}"
    return path if repo == ref.repo else f"{repo}:{path}"


def make_patches(result: CheckResult, edits: list[Edit]) -> tuple[list[FilePatch], list[str]]:
    """Patches for the edits that can be applied, and a reason for each that cannot."""
    by_file: dict[tuple[str, str], list[Edit]] = defaultdict(list)
    for edit in edits:
        by_file[(edit.repo, edit.path)].append(edit)
    patches: list[FilePatch] = []
    skipped: list[str] = []
    for (repo, path), file_edits in sorted(by_file.items()):
        spec = result.workspace.repo(repo)
        snap = result.index.snapshots[repo]
        assert spec is not None
        reason = why_not_as_read(spec.path, snap.commit, path, snap.oids.get(path), spec.shown_ref)
        if reason:
            skipped.append(f"{repo}:{path}: {reason}")
            continue
        try:
            target = work_tree_file(spec.path, path)
            raw = read_no_follow(target)
            before = raw.decode("utf-8")
        except (OutputError, OSError, UnicodeDecodeError) as exc:
            skipped.append(f"{repo}:{path}: {str(exc).removeprefix(f'{path}: ')}")
            continue
        lines = before.splitlines(keepends=True)
        for edit in sorted(file_edits, key=lambda e: e.line):
            if not _apply(lines, edit):
                why = (f"`{edit.old}` does not stand alone, once, on its line" if edit.token
                       else "the text to rewrite spans lines")
                skipped.append(f"{repo}:{path}:{edit.line}: {edit.code}: {why}; fix it by hand")
        after = "".join(lines)
        if after != before:
            patches.append(FilePatch(repo, path, target, before, after, raw))
    return patches, skipped


def _apply(lines: list[str], edit: Edit) -> bool:
    if edit.token:
        return _apply_token(lines, edit)
    for i in range(edit.line - 1, min(len(lines), edit.line + 3)):
        if edit.old in lines[i]:
            lines[i] = lines[i].replace(edit.old, edit.new, 1)
            return True
    return False


def _apply_token(lines: list[str], edit: Edit) -> bool:
    """Replace the token where it stands alone: once on its line, not inside a longer
    name, number or dotted path."""
    if not 0 < edit.line <= len(lines):
        return False
    line = lines[edit.line - 1]
    spots = list(re.finditer(rf"(?<![\w$.-]){re.escape(edit.old)}(?![\w$]|[.-]\w)", line))
    if len(spots) != 1:
        return False
    at = spots[0]
    lines[edit.line - 1] = line[:at.start()] + edit.new + line[at.end():]
    return True


def write(patches: list[FilePatch]) -> list[str]:
    """Apply the patches; the files changed since they were read are left alone and
    named in the list returned."""
    kept = []
    for patch in patches:
        # A fresh temp file beside, renamed over the file only if it is unchanged: an
        # interrupted fix never leaves half a file, and an edit saved meanwhile wins.
        if not replace_if_unchanged(patch.target, patch.raw, patch.after.encode("utf-8")):
            kept.append(f"{patch.repo}:{patch.path}: changed while fix ran; left as it is")
    return kept
