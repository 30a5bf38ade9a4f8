"""Searching a commit's files with `git grep`: the words a resolution looks for,
fixed strings, patterns, GHC's Note titles, started in the background so that the
searches of several repos run at once. GitRepo's search commands, a concern of their
own (a mixin GitRepo inherits), with the WordSearch they start."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Sequence

from anchorcheck.errors import GitError
from anchorcheck.git.gitdir import GitDir
from anchorcheck.git.output import PATH_ERRORS, grep_records, listed_paths
from anchorcheck.git.oversized import left_out
from anchorcheck.git.process import Background, git_command, git_env

# Strings one `git grep -F` is given at most (grep_fixed).
_GREP_STRINGS = 200


class SearchCommands(GitDir):
    """GitRepo's `git grep` commands."""

    def start_grep_words(self, words: Sequence[str], commit: str, paths: Sequence[str] = ()) -> WordSearch:
        """Start finding every line at `commit` (in files matching the pathspecs
        `paths`, or all) holding one of `words` as a whole word; `result()` gives them
        as (path, line, text). Callers match the exact shape they want on these lines
        in Python: a plain alternation of names is what git searches fastest (PCRE;
        POSIX where git lacks it), and `-F -w` with many words is pathologically slow in
        git. Started in the background: the searches of several repos run at once."""
        return WordSearch(self, words, commit, paths)

    def grep_parts(
        self, perl: str, posix: tuple[str, ...], commit: str, paths: Sequence[str] = ()
    ) -> str:
        """Every line at `commit` (in files matching the pathspecs `paths`, or all),
        without its file name (`git grep -h`), that matches the PCRE `perl`, or where
        git lacks PCRE one of the extended regexes `posix`."""
        found = self._grep(("-h",), "-P", perl, commit, paths)
        if found is not None:
            return found
        return "".join(self._grep(("-h",), "-E", p, commit, paths) or "" for p in posix)

    def _start_grep(
        self, flags: tuple[str, ...], syntax: str, pattern: str, commit: str, paths: Sequence[str],
        threads: int = 0,
    ) -> Background:
        """`threads`: git's grep threads (0: git's default, one per core)."""
        config = ["-c", f"grep.threads={threads}"] if threads else []
        skip = left_out(self.git_dir, commit)
        return Background(git_command(self.git_dir, *config, "grep", *flags, "-I", syntax, "-e", pattern,
                                      commit, "--", *(paths or ((":/",) if skip else ())), *skip),
                          ok=(0, 1))  # 1: nothing found

    def _grep(
        self, flags: tuple[str, ...], syntax: str, pattern: str, commit: str, paths: Sequence[str]
    ) -> str | None:
        """`git grep` output for one pattern; None when git cannot run it (no PCRE)."""
        out = self._start_grep(flags, syntax, pattern, commit, paths).output()
        return None if out is None else out.decode(errors=PATH_ERRORS)

    def grep_files(self, fixed: str, commit: str, ignore_case: bool = False) -> set[str]:
        """Paths at `commit` whose content holds the string `fixed` (binary files too)."""
        case = ["-i"] if ignore_case else []
        skip = left_out(self.git_dir, commit)
        done = subprocess.run(
            git_command(self.git_dir, "grep", "-l", "-z", *case, "-F", "-e", fixed, commit, "--",
                        *((":/", *skip) if skip else ())),
            capture_output=True, check=False, env=git_env(),
        )
        return listed_paths(done.stdout, commit)

    def grep_fixed(self, strings: Sequence[str], commit: str, paths: Sequence[str]) -> set[str]:
        """Paths at `commit` (among the pathspecs `paths`) holding one of `strings`, as
        written; text files only."""
        if not strings or not paths:
            return set()
        skip = left_out(self.git_dir, commit)
        found: set[str] = set()
        # A few hundred strings a command, so that no command line nears the system's
        # limit however many a workspace's documents cite; all started at once.
        searches = [Background(git_command(self.git_dir, "grep", "-l", "-z", "-I", "-F",
                                           *(arg for s in strings[i:i + _GREP_STRINGS] for arg in ("-e", s)),
                                           commit, "--", *paths, *skip), ok=(0, 1))
                    for i in range(0, len(strings), _GREP_STRINGS)]
        for search in searches:
            out = search.output()
            if out is None:
                for other in searches:
                    other.cancel()
                raise GitError(f"git grep failed in {self.git_dir}")
            found |= listed_paths(out, commit)
        return found
    def start_note_titles(self, commit: str, skip: Sequence[str]) -> Background:
        """Start, in the background, `git grep` for the lines holding `Note [` in the
        text files at `commit` outside the pathspecs `skip` (the files anchorcheck
        reads, which the crawl scans itself), each with the line after it:
        `PATH NUL LINE NUL TEXT` lines, the groups separated by `--` lines (-z).
        One thread: it runs beside the crawl's workers."""
        excluded = [*(f":(exclude){spec}" for spec in skip), *left_out(self.git_dir, commit)]
        return Background(git_command(self.git_dir, "-c", "grep.threads=1", "grep", "-n", "-z", "-A1", "-I",
                                      "-F", "-e", "Note [", commit, "--", *excluded),
                          ok=(0, 1))  # 1: nothing found

class WordSearch:
    """GitRepo.start_grep_words's search, running in the background: `result()` waits
    for it."""

    _CHUNK = 300  # words per search: git's regex grows with every alternative

    def __init__(self, git: SearchCommands, words: Sequence[str], commit: str, paths: Sequence[str]) -> None:
        self._git, self._commit, self._paths = git, commit, paths
        self._started: list[tuple[Sequence[str], Background]] = []
        try:
            for i in range(0, len(words), self._CHUNK):
                chunk = words[i:i + self._CHUNK]
                # A name's neighbours are neither word characters nor `$` (JavaScript's
                # `$el`; `\b` would need a word character before its `$`).
                names = "|".join(re.escape(w) for w in chunk)
                self._started.append((chunk, git._start_grep(
                    ("-n",), "-P", rf"(?<![\w$])(?:{names})(?![\w$])", commit, paths, threads=1)))
        except BaseException:
            self.cancel()
            raise

    def result(self) -> list[tuple[str, int, str]]:
        out: list[tuple[str, int, str]] = []
        for chunk, search in self._started:
            found = search.output()
            if found is None:  # git built without PCRE
                names = "|".join(re.escape(w) for w in chunk)
                text = self._git._grep(("-n",), "-E", rf"(^|[^A-Za-z0-9_$])({names})([^A-Za-z0-9_$]|$)",
                                       self._commit, self._paths) or ""
            else:
                text = found.decode(errors=PATH_ERRORS)
            out.extend(grep_records(text, self._commit))
        return out

    def cancel(self) -> None:
        for _, search in self._started:
            search.cancel()
