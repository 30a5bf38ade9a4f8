"""The advisory as one comment per change (`merge-order --post`), kept current.

The comment opens with a hidden marker (forge.base.MARKER); every later run finds it
by that marker and by its author, the token's own login (`Forge.me`), and edits it in
place, so a change never gets a second one. A comment with the marker that someone
else wrote is never edited (a PR's author could otherwise have their own comment
overwritten, or keep the advisory from being posted). A change
the advisory has nothing to tell gets no comment, and one it told something before
has that comment edited to say there is nothing left. `--dry-run` says what would be
posted where, and posts nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from anchorcheck.forge.base import MARKER, Forge
from anchorcheck.report.merge_order import Advisory, render_merge_markdown, says_something

_NOTHING_LEFT = ("### anchorcheck: merge order\n\nNothing left to say about this change: its references "
                 "resolve whatever the order, and no open change conflicts or races with it.\n")


@dataclass(frozen=True, slots=True)
class Posted:
    label: str
    action: str  # "created", "edited", "unchanged", "skipped"
    where: str  # forge repo and number, or why skipped


def post(advisory: Advisory, labels: Iterable[str], clients: Mapping[str, Forge], dry_run: bool,
         echo: Callable[[str], None]) -> list[Posted]:
    """Create or edit the advisory comment on each of `labels` (REPO#N)."""
    done: list[Posted] = []
    foreign = 0  # comments with the marker that others wrote: never edited
    specs = {c.label: c.spec for c in advisory.analysis.changes}
    for label in labels:
        spec = specs.get(label)
        client = clients.get(spec.repo) if spec is not None else None
        number = spec.number if spec is not None else None
        if spec is None or client is None or number is None:
            why = "not placed" if spec is None else "no forge for its repo" if client is None else "no number"
            done.append(Posted(label, "skipped", why))
            continue
        where = f"{client.repo}#{number}"
        speaks = says_something(advisory, label)
        body = f"{MARKER}\n{render_merge_markdown(advisory, label) if speaks else _NOTHING_LEFT}"
        me = client.me()
        if me is None:
            # Whose comment is ours cannot be told: editing one found by its marker alone
            # would edit whoever wrote it (a PR's author), and posting anew would add one
            # comment a run.
            done.append(Posted(label, "skipped", f"{where}: the forge will not say whom the token is"))
            continue
        marked = [c for c in client.comments(number) if c.body.startswith(MARKER)]
        ours = [c for c in marked if c.author == me]
        foreign += len(marked) - len(ours)
        if ours and ours[0].body == body:
            done.append(Posted(label, "unchanged", where))
            continue
        if not ours and not speaks:
            done.append(Posted(label, "skipped", "nothing to say"))
            continue
        action = "edited" if ours else "created"
        if dry_run:
            echo(f"would have {action} the comment on {where}:\n{body}")
        elif ours:
            client.edit_comment(number, ours[0].id, body)
        else:
            client.create_comment(number, body)
        done.append(Posted(label, action, where))
    if foreign:
        echo(f"anchorcheck: {foreign} comment{'s' if foreign != 1 else ''} carrying the advisory's marker "
             "were written by others and left alone")
    return done
