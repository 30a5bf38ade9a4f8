"""Stale comments (AC206): a change replaces a token on a code line, and a comment it
leaves alone still names the old one.

The change is read as its PR diff shows it (`git diff -U0`). In each hunk the code
tokens of the removed lines are lined up with those of the added lines (difflib, on
tokens, the way HebCup's heuristic reads a code change), and a token replaced one for
one (`Recreate` -> `RollingUpdate`, `8080` -> `9090`, `timeout` -> `deadline`) is a
replacement. A comment speaks of the replaced line when it is

- beside it (a trailing comment the change kept),
- directly above it (an own-line block over the code block holding the line, with no
  blank line between), or a docstring of the definition holding it,
- a comment anywhere in the workspace whose line claim or blob URL cites the line,
- or one citing a heading whose block sits over the line.

It is stale when it names the old token as a token, does not name the new one, and
the code it speaks of no longer holds the old token. Tokens that are words of prose
as often as code (`name`, `data`, `true`) count only when the comment marks them as
code (backticks, quotes, `key: value`); see `_code_like`.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from anchorcheck.extract.languages import language_of
from anchorcheck.extract.scanners import scan
from anchorcheck.git.blobtext import decode_blob
from anchorcheck.git.output import Hunk
from anchorcheck.git.repo import GitRepo
from anchorcheck.model.comment import Comment
from anchorcheck.model.reference import Reference, RefKind
from anchorcheck.patterns import compiled_on_use
from anchorcheck.resolve.resolution import Resolution, Status
from anchorcheck.resolve.workspace_index import WorkspaceIndex

# Config-like families, where `-` joins words of one name (`image-pull-policy`) and a
# `key: value` line's value is data a comment restates.
_CONFIG = frozenset({"yaml", "toml", "ini", "shell", "dockerfile", "make", "hcl", "html", "css"})

_TOKEN = compiled_on_use(r"\d+(?:\.\d+)+|[A-Za-z_$][\w$]*|\d+")
_CONFIG_TOKEN = compiled_on_use(r"\d+(?:\.\d+)+|[A-Za-z_$][\w$]*(?:-[A-Za-z0-9_$]+)*|\d+")

# Words that are language keywords, literals or prose in most languages: a comment
# naming them is rarely naming the code's token.
_NEVER = frozenset((
    "true", "false", "yes", "no", "on", "off", "null", "nil", "none", "True", "False", "None",
    "NULL", "TRUE", "FALSE", "if", "else", "elif", "for", "while", "return", "def", "class",
    "func", "fn", "function", "var", "let", "const", "import", "from", "and", "or", "not", "in",
    "is", "as", "with", "try", "except", "finally", "raise", "pass", "break", "continue",
    "package", "type", "public", "private", "protected", "static", "final", "void", "int", "str",
    "bool", "string", "self", "this", "new",
))

# A replacement is looked for only in hunks this small on each side: a rewritten
# block of code is not a token replaced, and lining up long hunks costs.
_HUNK_LINES_MAX = 12
# A replaced token counts only when the hunk's tokens line up this closely (difflib's
# ratio): otherwise the lines were rewritten, not edited.
_SIMILAR_MIN = 0.5
# Directly above: how many code lines below a comment block it may speak of.
_BLOCK_LINES_MAX = 40


@dataclass(frozen=True, slots=True)
class Replaced:
    """A code token a change replaced: `old` on the base's line became `new` on line
    `line` of the change's head."""

    repo: str
    path: str
    line: int
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class StaleComment:
    """A comment the change left alone that still names a token it replaced."""

    repo: str
    path: str
    line: int  # where the old token stands in the comment
    col: int  # 0-based
    replaced: Replaced
    how: str  # "beside it", "above it", "cites its lines", "cites NAME"

    def message(self) -> str:
        r = self.replaced
        here = (r.repo, r.path) == (self.repo, self.path)
        where = f"{r.path}:{r.line}" if here else f"{r.repo}:{r.path}:{r.line}"
        return (f"comment still says `{r.old}`; the change replaced it with `{r.new}` at {where} "
                f"(the comment {self.how})")


@dataclass(frozen=True, slots=True)
class Citing:
    """A reference elsewhere into a changed file: its lines (a line claim or blob URL)
    or a heading there, by the heading's line."""

    repo: str
    path: str
    line: int  # of the reference, in the citing file
    target_repo: str
    target_path: str
    lines: tuple[int, int] | None = None
    heading_line: int | None = None
    heading: str = ""


@dataclass(frozen=True)
class FileChange:
    """One changed file's replacements and what its head text holds."""

    repo: str
    path: str
    family: str
    replaced: tuple[Replaced, ...]
    lines: tuple[str, ...]  # the head's lines
    comments: tuple[Comment, ...]  # the head's comment blocks
    touched: frozenset[int]  # head lines the change wrote
    _tokens: frozenset[str] | None = field(default=None, compare=False, repr=False)

    def code_tokens(self) -> frozenset[str]:
        """Every token of the head's code, comments left out."""
        found = self._tokens
        if found is None:
            found = frozenset(_TOKEN.findall(self.code(1, len(self.lines))))
            object.__setattr__(self, "_tokens", found)
        return found

    def code(self, first: int, last: int) -> str:
        """The code (comments left out) of head lines `first`..`last`."""
        return "\n".join(_code_part(self.lines, n, self.comments) for n in range(first, last + 1)
                         if 1 <= n <= len(self.lines))


def file_change(repo: str, path: str, hunks: Sequence[Hunk], old_text: str, new_text: str,
                ) -> FileChange | None:
    """The replacements of one file's hunks, or None when its kind holds no code."""
    family = language_of(path)
    if family is None or family == "markdown":
        return None
    old_lines, new_lines = tuple(old_text.split("\n")), tuple(new_text.split("\n"))
    old_comments, new_comments = tuple(scan(old_text, family)), tuple(scan(new_text, family))
    pattern = _CONFIG_TOKEN if family in _CONFIG else _TOKEN
    touched: set[int] = set()
    found: list[Replaced] = []
    for h in hunks:
        touched.update(range(h.new_start, h.new_start + len(h.new)))
        if not h.old or not h.new or len(h.old) > _HUNK_LINES_MAX or len(h.new) > _HUNK_LINES_MAX:
            continue
        old = _tokens(old_lines, h.old_start, len(h.old), old_comments, pattern)
        new = _tokens(new_lines, h.new_start, len(h.new), new_comments, pattern)
        found.extend(_replacements(repo, path, old, new))
    return FileChange(repo, path, family, tuple(found), new_lines, new_comments, frozenset(touched))


def _tokens(lines: Sequence[str], start: int, count: int, comments: Sequence[Comment],
            pattern: re.Pattern[str]) -> list[tuple[str, int]]:
    """(token, line) of the code on `count` lines from `start`; a line break is a token
    of its own, so that tokens line up line by line."""
    out: list[tuple[str, int]] = []
    for n in range(start, start + count):
        out.extend((tok, n) for tok in pattern.findall(_code_part(lines, n, comments)))
        out.append(("\n", n))
    return out


def _replacements(repo: str, path: str, old: list[tuple[str, int]],
                  new: list[tuple[str, int]]) -> Iterator[Replaced]:
    a, b = [t for t, _ in old], [t for t, _ in new]
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.ratio() < _SIMILAR_MIN:
        return
    before, after = set(a), set(b)
    for i1, i2, j1, j2 in _one_for_one(matcher):
        for (old_tok, _), (new_tok, line) in zip(old[i1:i2], new[j1:j2], strict=True):
            if old_tok == "\n" or new_tok == "\n" or old_tok in after or new_tok in before:
                continue  # a token moved or kept elsewhere on these lines is not replaced
            if _worth(old_tok) and new_tok not in _NEVER:
                yield Replaced(repo, path, line, old_tok, new_tok)


def _one_for_one(matcher: difflib.SequenceMatcher[str]) -> Iterator[tuple[int, int, int, int]]:
    """The spans of up to three tokens replaced by as many."""
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1 <= 3:
            yield i1, i2, j1, j2


def _worth(token: str) -> bool:
    """Whether a replaced token is one a comment names only as code: not a keyword,
    and not a one-character name or number."""
    if token in _NEVER or len(token) < 2:
        return False
    return not (token.isdigit() and int(token) < 10)


def _code_like(token: str) -> bool:
    """A token no prose word looks like: it holds `_`, `-`, a digit, a capital past
    its first letter, or is all capitals. Other tokens (`timeout`, `Recreate`) count
    only where the comment writes them as code (_as_code), or as a config file's
    capitalised value (_capital_value)."""
    return (any(c in "_-$." or c.isdigit() for c in token) or any(c.isupper() for c in token[1:])
            or (token.isupper() and len(token) > 2))


_LEADER_TAIL = compiled_on_use(r"[\s#/*;!-]*$")


def _code_part(lines: Sequence[str], n: int, comments: Sequence[Comment]) -> str:
    """Line `n` without its comment: "" for a line of an own-line block, the code
    before it for a trailing one."""
    line = lines[n - 1] if 1 <= n <= len(lines) else ""
    c = _comment_at(comments, n)
    if c is None:
        return line
    if c.own_line or c.kind == "docstring":
        return ""
    first = c.lines[0]
    cut = line[:max(0, first.col - 1)] if first.line == n else ""
    return _LEADER_TAIL.sub("", cut)


def _comment_at(comments: Sequence[Comment], n: int) -> Comment | None:
    """The comment block holding line `n` (blocks are in file order and apart)."""
    i = bisect.bisect_right(comments, n, key=lambda c: c.start_line) - 1
    return comments[i] if i >= 0 and comments[i].end_line >= n else None


_KEY_VALUE = compiled_on_use(r"^\s*-?\s*[\w.\"'/-]+\s*[:=]\s*")


def governed(fc: FileChange, comment: Comment) -> tuple[int, int] | None:
    """The head lines an own-line block speaks of: the code block right under it (no
    blank line between, no other comment, deeper-indented lines of its first line),
    or, for a docstring, the definition it documents."""
    lines = fc.lines
    if comment.kind == "docstring":
        first = comment.start_line
        while first > 1 and lines[first - 2].strip() and _comment_at(fc.comments, first - 1) is None:
            first -= 1
        indent = _indent(lines[comment.start_line - 1])
        last = comment.end_line
        while last < len(lines) and (not lines[last].strip() or _indent(lines[last]) >= indent):
            last += 1
        return (first, last) if first < comment.start_line or last > comment.end_line else None
    if not comment.own_line:
        return None
    top = comment.end_line + 1
    if top > len(lines) or not lines[top - 1].strip() or _comment_at(fc.comments, top) is not None:
        return None
    base = _indent(lines[top - 1])
    last = top
    while last < len(lines) and last - top < _BLOCK_LINES_MAX:
        nxt = lines[last]
        if not nxt.strip() or (_indent(nxt) <= base and fc.family == "yaml"):
            break
        c = _comment_at(fc.comments, last + 1)
        if c is not None and c.own_line:
            break
        last += 1
    return top, last


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def stale_in_file(fc: FileChange) -> Iterator[StaleComment]:
    """Comments beside or above the replaced lines of one file."""
    for c in fc.comments:
        if any(cl.line in fc.touched for cl in c.lines) and (c.own_line or c.kind == "docstring"):
            continue  # the change rewrote the comment: its author read it
        if not c.own_line and c.kind != "docstring":
            line = c.start_line
            hits = [r for r in fc.replaced if r.line == line]
            if hits:
                yield from _named(fc, c, hits, (line, line), "beside it")
            continue
        span = governed(fc, c)
        if span is None:
            continue
        hits = [r for r in fc.replaced if span[0] <= r.line <= span[1]]
        if hits:
            yield from _named(fc, c, hits, span, "is its docstring" if c.kind == "docstring" else "above it")


def _named(fc: FileChange, comment: Comment, hits: Iterable[Replaced], span: tuple[int, int], how: str,
           repo: str | None = None, path: str | None = None, code: str | None = None,
           ) -> Iterator[StaleComment]:
    """The replaced tokens `comment` still names, where the code it speaks of (lines
    `span` of the changed file) no longer holds them."""
    text = comment.text
    # A config value, and a number anywhere, counts where the comment speaks: another
    # Deployment in the same file may keep `Recreate` while this one's strategy
    # changed, and `20` stands in many places of any file.
    near = frozenset((_CONFIG_TOKEN if fc.family in _CONFIG else _TOKEN).findall(
        fc.code(*span) if code is None else code))
    seen: set[str] = set()
    for r in hits:
        # A name still used anywhere in a program's code may be what the comment means
        # (a module renamed on import, still loaded under its name by a helper).
        named_in_file = fc.family not in _CONFIG and not r.old[:1].isdigit() and r.old in fc.code_tokens()
        if r.old in seen or r.old in near or named_in_file:
            continue
        at = _token_in(text, r.old)
        if at is None or _token_in(text, r.new) is not None:
            continue
        if not _code_like(r.old) and not _as_code(text, at, r.old) and not _capital_value(fc, r, text, at):
            continue
        seen.add(r.old)
        line, col = _position(comment, at)
        yield StaleComment(repo or fc.repo, path or fc.path, line, col, r, how)


def _token_in(text: str, token: str) -> int | None:
    """Where `token` stands in `text` as a whole token (not inside a longer name,
    number or dotted path), or None."""
    for m in re.finditer(re.escape(token), text):
        s, e = m.start(), m.end()
        before = text[s - 1] if s else " "
        after = text[e] if e < len(text) else " "
        after2 = text[e + 1] if e + 1 < len(text) else " "
        if before.isalnum() or before in "_$-" or (before == "." and s > 1 and text[s - 2].isalnum()):
            continue
        if after.isalnum() or after in "_$" or (after in "-." and (after2.isalnum() or after2 == "_")):
            continue
        return s
    return None


_QUOTES = ("``", "`", "'", '"', "‘’", "“”")


def _as_code(text: str, at: int, token: str) -> bool:
    """Whether the comment writes the token as code: quoted, in backticks, or as a
    `key: value`, `key=value`, `name(` or `.name`."""
    before, after = text[at - 1:at] if at else "", text[at + len(token):at + len(token) + 1]
    if before and after and any(before == q[0] and after == q[-1] for q in _QUOTES):
        return True
    line_start = text.rfind("\n", 0, at) + 1
    prefix = text[line_start:at].rstrip()
    keyed = prefix.endswith((":", "=", "--", "-")) and bool(_KEY_VALUE.match(text[line_start:at]))
    return after in ("(", "=") or keyed


def _capital_value(fc: FileChange, r: Replaced, text: str, at: int) -> bool:
    """A capitalised value of a config line (`strategy: Recreate`, `pullPolicy: Always`)
    that the comment writes with the same capital: an enum's member, named."""
    return fc.family in _CONFIG and r.old[:1].isupper() and r.old[1:].islower() and len(r.old) > 3 \
        and text[at:at + len(r.old)] == r.old


def _position(comment: Comment, offset: int) -> tuple[int, int]:
    """The (line, 0-based column) of an offset into `comment.text`."""
    for cl in comment.lines:
        if offset <= len(cl.text):
            return cl.line, cl.col + offset
        offset -= len(cl.text) + 1
    last = comment.lines[-1]
    return last.line, last.col


def stale_citing(changes: dict[tuple[str, str], FileChange], citing: Iterable[Citing],
                 read: Callable[[str, str], str | None], untouched: Callable[[str, str, int], bool],
                 ) -> Iterator[StaleComment]:
    """Comments elsewhere that cite the replaced lines, or a heading over them."""
    scanned: dict[tuple[str, str], tuple[Comment, ...]] = {}
    for c in citing:
        fc = changes.get((c.target_repo, c.target_path))
        if fc is None or not fc.replaced:
            continue
        if c.lines is not None:
            span, how = c.lines, "cites its lines"
        elif c.heading_line is not None:
            block = _comment_at(fc.comments, c.heading_line)
            found = governed(fc, block) if block is not None else None
            if found is None:
                continue
            span, how = found, f"cites {c.heading}"
        else:
            continue
        hits = [r for r in fc.replaced if span[0] <= r.line <= span[1]]
        if not hits or not untouched(c.repo, c.path, c.line):
            continue
        key = (c.repo, c.path)
        if key not in scanned:
            text = read(c.repo, c.path)
            family = language_of(c.path)
            if text is None or not family:
                scanned[key] = ()
            elif family == "markdown":
                # A README's paragraph citing the lines is as stale as a code comment
                # would be (the seed: "`strategy: Recreate` at client/templates/...").
                from anchorcheck.extract.markdown import read_markdown  # (markdown-it: on need)

                scanned[key] = tuple(read_markdown(text)[0])
            else:
                scanned[key] = tuple(scan(text, family))
        comment = _comment_at(scanned[key], c.line)
        if comment is None:
            continue
        yield from _named(fc, comment, hits, span, how, c.repo, c.path)


def stale_comments(changes: Sequence[FileChange], citing: Iterable[Citing],
                   read: Callable[[str, str], str | None]) -> list[StaleComment]:
    """Every stale comment of a change: beside or above its replacements, and citing
    them from elsewhere. One finding per comment and token."""
    by_file = {(fc.repo, fc.path): fc for fc in changes}

    def untouched(repo: str, path: str, line: int) -> bool:
        fc = by_file.get((repo, path))
        if fc is None:
            return True
        block = _comment_at(fc.comments, line)
        lines = range(block.start_line, block.end_line + 1) if block is not None else (line,)
        return not any(n in fc.touched for n in lines)

    found: dict[tuple[str, str, int, str], StaleComment] = {}
    for fc in changes:
        for s in stale_in_file(fc):
            found.setdefault((s.repo, s.path, s.line, s.replaced.old), s)
    for s in stale_citing(by_file, citing, read, untouched):
        found.setdefault((s.repo, s.path, s.line, s.replaced.old), s)
    return sorted(found.values(), key=lambda s: (s.repo, s.path, s.line, s.col))


@dataclass(frozen=True, slots=True)
class RepoChange:
    """A change in one repo: the commits it spans and the paths it touches."""

    repo: str
    git: GitRepo
    base: str
    head: str
    paths: tuple[str, ...]


def read_changes(change: RepoChange, max_size: int) -> list[FileChange]:
    """The changed code files of one repo's change, with their replacements: one
    `git diff` and one blob read for the files whose hunks replace lines."""
    code = [p for p in change.paths if language_of(p) not in (None, "markdown")]
    hunks = change.git.diff_hunks(change.base, change.head, code)
    wanted = sorted(p for p, hs in hunks.items() if any(_may_replace(h, p) for h in hs))
    if not wanted:
        return []
    old = {e.path: e for e in change.git.list_paths(change.base, wanted)}
    new = {e.path: e for e in change.git.list_paths(change.head, wanted)}
    pairs = [(p, old[p], new[p]) for p in wanted if p in old and p in new
             and old[p].kind == new[p].kind == "blob" and max(old[p].size, new[p].size) <= max_size]
    texts: dict[str, str | None] = {}
    for oid, data in change.git.read_blobs([o.oid for _, o, _ in pairs] + [n.oid for _, _, n in pairs]):
        texts[oid] = decode_blob(data)[0] if data is not None else None
    out = []
    for path, o, n in pairs:
        old_text, new_text = texts.get(o.oid), texts.get(n.oid)
        if old_text is None or new_text is None:
            continue
        fc = file_change(change.repo, path, hunks[path], old_text, new_text)
        if fc is not None:
            out.append(fc)
    return out


def _may_replace(h: Hunk, path: str) -> bool:
    """Whether a hunk's lines, comments and all, replace a token one for one: the files
    whose hunks cannot are never read (most of a PR's hunks add or rewrite lines)."""
    if not h.old or not h.new or len(h.old) > _HUNK_LINES_MAX or len(h.new) > _HUNK_LINES_MAX:
        return False
    pattern = _CONFIG_TOKEN if language_of(path) in _CONFIG else _TOKEN
    a = [t for line in h.old for t in (*pattern.findall(line), "\n")]
    b = [t for line in h.new for t in (*pattern.findall(line), "\n")]
    return any(True for _ in _one_for_one(difflib.SequenceMatcher(None, a, b, autojunk=False)))


def citations(changes: Sequence[FileChange], refs: Iterable[Reference],
              resolve: Callable[[Reference], Resolution]) -> Iterator[Citing]:
    """The references into the changed files' replaced lines, or to headings there.
    Only those whose text could name such a file or heading are resolved."""
    files = {(fc.repo, fc.path) for fc in changes if fc.replaced}
    if not files:
        return
    names = {path.rsplit("/", 1)[-1] for _, path in files}
    for ref in refs:
        if ref.kind is RefKind.LINES:
            if not ref.lines or not ref.target_path or ref.target_path.rsplit("/", 1)[-1] not in names:
                continue
        elif ref.kind not in (RefKind.HEADING, RefKind.NOTE, RefKind.SLUG):
            continue
        res = resolve(ref)
        if res.status is not Status.RESOLVED:
            continue
        if ref.kind is RefKind.LINES:
            if res.files and res.files[0] in files:
                yield Citing(ref.repo, ref.path, ref.line, *res.files[0], lines=ref.lines)
            continue
        for a in res.anchors:
            if (a.repo, a.path) in files:
                yield Citing(ref.repo, ref.path, ref.line, a.repo, a.path, heading_line=a.line,
                             heading=a.display)


def stale_since(bases: Mapping[str, tuple[GitRepo, str, str]], changed: Mapping[str, Sequence[str]],
                index: WorkspaceIndex, resolutions: Iterable[Resolution], max_size: int,
                ) -> list[StaleComment]:
    """AC206 for `check --changed-only` and `fix --changed-only`: the change since each
    repo's base (check/changed.py's bases), read against the checked workspace."""
    resolved = {res.reference: res for res in resolutions}
    changes = [RepoChange(repo, git, base, commit, tuple(changed[repo]))
               for repo, (git, base, commit) in bases.items()]
    return change_stale(changes, index, resolved.__getitem__, max_size)


def change_stale(repo_changes: Sequence[RepoChange], index: WorkspaceIndex,
                 resolve: Callable[[Reference], Resolution], max_size: int) -> list[StaleComment]:
    """AC206 for a change in one or more repos, read against `index`, the workspace
    as the change leaves it."""
    changes = [fc for rc in repo_changes for fc in read_changes(rc, max_size)]
    if not any(fc.replaced for fc in changes):
        return []
    cited = list(citations(changes, index.references, resolve))
    return stale_comments(changes, cited, index.text)
