"""Recall of AC206 on real comment updates: the commits whose author replaced a token in
the code and the same token in a comment over it, replayed as if the comment had been
forgotten.

    python benchmarks/stale_cochange.py NAME=GITDIR ... [--commits 1000] [--out /tmp/stale-cochange]

For each of the last COMMITS first-parent commits of each repo, and each code file the
commit changes (its diff against the first parent), a hunk is a *comment update* when
its own-line comment lines, as many before as after, differ only in that a token of
the old comment became another token, and the code lines of the same hunk replace
that very token by that very token (`timeout` -> `deadline` in both). Such an update is
what a stale comment's fix looks like. The file is then rebuilt with the commit's code
and the parent's comment lines in that hunk (the update withheld), and AC206's reading
of one file (pr/stale.py: file_change, stale_in_file) is run on parent -> rebuilt. The
update is *found* when AC206 names the withheld comment with that token.

Only comments inside the hunk are withheld, so the "above it" and "docstring" cases
are what this measures; comments citing lines or headings from elsewhere are not.
OUT/cochange.jsonl lists each update, found or missed, with its commit.
"""

from __future__ import annotations

import argparse
import difflib
import json
import subprocess
from pathlib import Path

from anchorcheck.extract.languages import language_of
from anchorcheck.extract.scanners import scan
from anchorcheck.git.output import Hunk
from anchorcheck.git.repo import GitRepo
from anchorcheck.pr.stale import _CONFIG, _CONFIG_TOKEN, _TOKEN, file_change, stale_in_file


def git(gitdir: str, *args: str) -> str:
    return subprocess.run(["git", f"--git-dir={gitdir}", *args], capture_output=True, text=True,
                          errors="replace", check=True).stdout


def comment_lines(text: str, family: str) -> set[int]:
    """Lines of own-line comments (docstrings included)."""
    return {cl.line for c in scan(text, family) if c.own_line or c.kind == "docstring" for cl in c.lines}


def hunks(old: list[str], new: list[str]) -> list[Hunk]:
    """`git diff -U0`'s hunks, from difflib (the rebuilt file is in no commit)."""
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op != "equal":
            out.append(Hunk(i1 + (1 if i2 > i1 else 0), tuple(old[i1:i2]), j1 + (1 if j2 > j1 else 0),
                            tuple(new[j1:j2])))
    return out


def one_token_swap(a: str, b: str, family: str) -> tuple[str, str] | None:
    pattern = _CONFIG_TOKEN if family in _CONFIG else _TOKEN
    ta, tb = pattern.findall(a), pattern.findall(b)
    ops = [o for o in difflib.SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes() if o[0] != "equal"]
    if len(ops) == 1 and ops[0][0] == "replace" and ops[0][2] - ops[0][1] == 1 == ops[0][4] - ops[0][3]:
        return ta[ops[0][1]], tb[ops[0][3]]
    return None


def replay(name: str, gitdir: str, commits: int, sink: object) -> dict[str, int]:
    repo = GitRepo(Path(gitdir))
    counts = {"commits": 0, "updates": 0, "found": 0}
    for sha in git(gitdir, "rev-list", "--first-parent", f"--max-count={commits}", "HEAD").split():
        parents = git(gitdir, "rev-list", "--parents", "-n1", sha).split()[1:]
        if not parents:
            continue
        counts["commits"] += 1
        base = parents[0]
        paths = [p for p in repo.changed_paths(base, sha) if language_of(p) not in (None, "markdown")]
        for path, file_hunks in repo.diff_hunks(base, sha, paths).items():
            family = language_of(path)
            old_text, new_text = repo.text_at(base, path), repo.text_at(sha, path)
            if family is None or old_text is None or new_text is None:
                continue
            old_c, new_c = comment_lines(old_text, family), comment_lines(new_text, family)
            rebuilt = new_text.split("\n")
            withheld: list[tuple[int, str, str]] = []
            for h in file_hunks:
                olds = [(h.old_start + i, t) for i, t in enumerate(h.old) if h.old_start + i in old_c]
                news = [(h.new_start + i, t) for i, t in enumerate(h.new) if h.new_start + i in new_c]
                if not olds or len(olds) != len(news):
                    continue
                swaps = [(one_token_swap(a, b, family), n) for (_, a), (n, b) in zip(olds, news, strict=True)
                         if a != b]
                if not swaps or any(s is None for s, _ in swaps):
                    continue
                code_old = "\n".join(t for i, t in enumerate(h.old) if h.old_start + i not in old_c)
                code_new = "\n".join(t for i, t in enumerate(h.new) if h.new_start + i not in new_c)
                for swap, line in swaps:
                    assert swap is not None
                    if one_token_swap(code_old, code_new, family) == swap or (
                            swap[0] in code_old and swap[1] in code_new and swap[0] not in code_new):
                        withheld.append((line, *swap))
                for (_, a), (n, _) in zip(olds, news, strict=True):
                    rebuilt[n - 1] = a
            if not withheld:
                continue
            text = "\n".join(rebuilt)
            fc = file_change(name, path, hunks(old_text.split("\n"), rebuilt), old_text, text)
            named = {(s.line, s.replaced.old) for s in stale_in_file(fc)} if fc is not None else set()
            for line, old, new in withheld:
                counts["updates"] += 1
                hit = (line, old) in named
                counts["found"] += hit
                sink.write(json.dumps({"repo": name, "commit": sha, "path": path, "line": line,  # type: ignore[attr-defined]
                                       "old": old, "new": new, "found": hit}) + "\n")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repos", nargs="+", metavar="NAME=GITDIR")
    parser.add_argument("--commits", type=int, default=1000)
    parser.add_argument("--out", type=Path, default=Path("/tmp/stale-cochange"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    summary = {}
    with (args.out / "cochange.jsonl").open("w", encoding="utf-8") as sink:
        for item in args.repos:
            name, _, path = item.partition("=")
            summary[name] = replay(name, path, args.commits, sink)
            print(name, summary[name], flush=True)
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
