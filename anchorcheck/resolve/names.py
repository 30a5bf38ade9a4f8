"""Names: anchors found by their name anywhere in the workspace, with no file to look
in. A quoted heading cited with no location, where a heading cited in a file that
lacks it is instead, GHC's `Note [X]` citations, and the did-you-mean of each, from
suggest.py."""

from __future__ import annotations

from collections import defaultdict

from anchorcheck.extract.headings import caps_heading_text
from anchorcheck.extract.locations import copied_path
from anchorcheck.extract.modules import defines_module, is_module
from anchorcheck.index.plan import is_history
from anchorcheck.model.anchor import Anchor, AnchorKind
from anchorcheck.model.reference import Reference
from anchorcheck.resolve.resolution import Resolution, Status, Unchecked
from anchorcheck.resolve.resolver_base import ResolverBase
from anchorcheck.resolve.suggest import Suggester


def caps_shaped(name: str) -> bool:
    """Whether a heading's name is written in capitals (ROLLBACK ON THE DEGRADED PATH)."""
    return name == name.upper() and any(ch.isalpha() for ch in name)


class Names(ResolverBase):
    def _suggest_heading(self, name: str) -> list[str]:
        if self._heading_names is None:
            self._heading_names = Suggester(self.index.by_name)
        return self._heading_names.suggest(name)

    def _suggest_note(self, name: str) -> list[str]:
        if self._note_names is None:
            self._note_names = Suggester(self.index.notes)
        return self._note_names.suggest(name)

    def _moved_to(self, name: str) -> tuple[list[Anchor], list[str]]:
        """Where a heading cited in a file that lacks it is instead, and the names of
        near misses. A caps heading is only ever a caps heading: a Markdown heading
        whose text matches it but for case (a backend doc's `## Rollback on the
        degraded path`) is another page's title, not where it moved; at most a
        did-you-mean."""
        found = self._named(name)
        if not caps_shaped(name):
            return found, []
        moved = [a for a in found if a.kind is not AnchorKind.MARKDOWN or a.name == name]
        near = sorted({a.name for a in found if a not in moved})
        return moved, near

    def _named(self, name: str) -> list[Anchor]:
        """The anchors named `name`: caps headings and Notes as written, Markdown
        headings in any case (prose titles: tokio cites its `//! # Deadlock safety` as
        'deadlock safety'; GitHub's fragments ignore case too)."""
        exact = list(self.index.by_name.get(name, []))
        if self._folded is None:
            self._folded = defaultdict(list)
            for key, anchors in self.index.by_name.items():
                for a in anchors:
                    if a.kind is AnchorKind.MARKDOWN:
                        self._folded[key.casefold()].append(a)
        return exact + [a for a in self._folded.get(name.casefold(), ()) if a.name != name]

    def _anywhere(self, ref: Reference) -> Resolution:
        """A quoted heading with no location: resolves anywhere in the workspace,
        preferring the citing file, then the citing repo."""
        name = ref.name or ""
        found = self._named(name)
        if not found:
            # A section of its own file, named in sentence case (stb_ds.h's "see
            # 'Compile-time options'" for its `COMPILE-TIME OPTIONS`).
            found = [a for a in self.index.by_file.get((ref.repo, ref.path), [])
                     if a.kind is AnchorKind.CAPS and a.name.casefold() == name.casefold()]
        for scope in (
            [a for a in found if (a.repo, a.path) == (ref.repo, ref.path)],
            [a for a in found if a.repo == ref.repo],
            found,
        ):
            if len(scope) == 1:
                return Resolution(ref, Status.RESOLVED, tuple(scope))
            if len(scope) > 1:
                files = {(a.repo, a.path) for a in scope}
                if (len(files) > 1 or all(is_history(path) for _, path in files)) \
                        and all(a.kind is AnchorKind.MARKDOWN for a in scope):
                    # A title many documents share, named with no location ('Appears
                    # under "Features" header': vue's 100 changelog sections, vitepress's
                    # in its one CHANGELOG.md), is prose about such sections, not a
                    # citation of one.
                    return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.SHARED_TITLE)
                return Resolution(ref, Status.AMBIGUOUS, tuple(scope))
        suggestions = self._suggest_heading(name)
        # Quoted prose ("see 'Effective Java'") is not a citation: only a heading-shaped
        # quote, or one close to a real heading, is reported as dangling. A quoted word
        # alone is most often code or a word (Haddock's `see 'Step'` links the type
        # Step; mypy's `see the "miscellaneous" sections`, its option groups): close to
        # a heading ("STEPS", "Miscellaneous") it is no evidence of a citation.
        if (suggestions and len(name.split()) > 1) or caps_heading_text(name, self.headings) == name:
            return Resolution(ref, Status.DANGLING, suggestions=tuple(suggestions))
        return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.QUOTED_PROSE)

    @staticmethod
    def _note_in(anchor: Anchor, written: str) -> bool:
        """Whether a Note defined at `anchor` is in the place written after it."""
        if is_module(written):
            return defines_module(anchor.path, written)
        path = written.removeprefix("./")
        return anchor.path == path or anchor.path.endswith("/" + path)

    def _module_here(self, module: str) -> bool:
        """Whether some repo of the workspace holds the source of this module."""
        base = module.rpartition(".")[2]
        return any(defines_module(path, module) for _, path in self.index.ending_with_stem(base))

    def _note(self, ref: Reference) -> Resolution:
        name = ref.name or ""
        found = self.index.notes.get(name)
        if not found and ref.target_path and is_module(ref.target_path) \
                and not self._module_here(ref.target_path):
            # `Note [async] in GHC.IO.Handle.Internals`: a module of another project
            # (base's), whose Notes are its own to check.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.FOREIGN_MODULE)
        if found and ref.target_path and not any(self._note_in(a, ref.target_path) for a in found):
            # `Note [X] in typecheck/TcRnDriver.hs`, `in MkId`: the Note is elsewhere (a
            # module renamed, a Note moved), or the place names no file at all.
            return Resolution(ref, Status.WRONG_LOCATION, tuple(found))
        if found:
            return Resolution(ref, Status.RESOLVED, tuple(found))
        titled = self.index.titled_notes(ref.repo).get(name)
        if titled is not None:
            return Resolution(ref, Status.RESOLVED, (titled,))
        if copied_path(ref.path):
            # A copy of another project's code cites its upstream's Notes (Clash's
            # `src-bin-9.10.1/` copy of GHCi cites GHC's): not ours to check.
            return Resolution(ref, Status.EXTERNAL, unchecked=Unchecked.UPSTREAM_COPY)
        return Resolution(ref, Status.DANGLING, suggestions=tuple(self._suggest_note(name)))
