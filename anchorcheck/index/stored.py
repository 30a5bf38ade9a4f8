"""How a snapshot is stored: the snapshot cache's rows and the index files' documents.

The index stage (crawl.py) looks a whole snapshot up by snapshot_key before it lists
a tree, and stores each new one after; index files (check/index_file.py) hold the
same documents. Decoding is lazy where a run may not need a part (lazy.py)."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from anchorcheck.config.workspace import RepoSpec, Settings
from anchorcheck.errors import CacheError
from anchorcheck.extract.blob import BlobIndex
from anchorcheck.index.cache import (
    decode_blob_index,
    decode_reference,
    encode_blob_index,
    encode_reference,
    options_key,
)
from anchorcheck.index.lazy import LazyMapping, LazyPaths, LazyReferences, LazyTuple
from anchorcheck.index.plan import extract_options
from anchorcheck.model.reference import Reference
from anchorcheck.model.snapshot import Mention, SkippedFile, SnapshotIndex


def snapshot_key(spec: RepoSpec, commit: str, settings: Settings) -> str:
    excluded = json.dumps(settings.excluded_in(spec), separators=(",", ":"))
    # (A snapshot of some kinds only, and of some other files, is another snapshot:
    # `:kinds=markdown:` and a digest of those files after the rest.)
    kinds = ""
    if settings.read_kinds is not None:
        also = "\n".join(sorted(path for repo, path in settings.read_also if repo == spec.name))
        digest = hashlib.sha256(also.encode(errors="surrogateescape")).hexdigest()[:16]
        kinds = f":kinds={','.join(settings.read_kinds)}:{digest}"
    return (f"snap4:{spec.name}:{commit}:{options_key(extract_options(settings))}:{settings.max_file_size}:"
            f"{excluded}{kinds}")


def snapshot_to_json(snap: SnapshotIndex) -> dict[str, Any]:
    """A snapshot as stored (the snapshot cache, index files). Laid out for a cheap
    load: blob ids as one string and line counts as a list, both beside the list of
    paths (two dicts of 25k entries were a third of decoding GHC's), and the
    references as a JSON text of their own, decoded only when used (lazy.py)."""
    files = list(snap.oids)
    oids = [snap.oids[p] for p in files]
    blob = BlobIndex(tuple(snap.anchors), (), 0, 0, tuple((m.name, m.line, m.col) for m in snap.mentions),
                     tuple(snap.suppressions))
    refs = tuple(snap.references)
    doc: dict[str, Any] = {
        "commit": snap.commit,
        "files": files,
        "skipped": [[s.path, s.reason] for s in snap.skipped],
        "excluded": list(snap.excluded),
        "index": encode_blob_index(blob),
        "anchor_paths": [a.path for a in snap.anchors],
        "mention_paths": [m.path for m in snap.mentions],
        "suppression_paths": [s.path for s in snap.suppressions],
        # ASCII (other characters escaped): see snapshot_to_packed.
        "refs": json.dumps([[r.path for r in refs], [encode_reference(r) for r in refs]],
                           separators=(",", ":")),
    }
    if len({len(o) for o in oids}) <= 1:
        doc["oids"] = "".join(oids)
    else:  # (ids of one width in any real repo; kept whole otherwise)
        doc["oids"] = dict(snap.oids)
    if snap.line_counts.keys() <= snap.oids.keys():
        doc["lines"] = [snap.line_counts.get(p) for p in files]
    else:
        doc["lines"] = dict(snap.line_counts)
    if snap.paths != snap.oids.keys():
        # A crawl's paths are its blob ids' keys: stored only where they differ.
        doc["paths"] = sorted(snap.paths)
    return doc


def snapshot_from_json(doc: Any, spec: RepoSpec) -> SnapshotIndex | None:
    """None when the stored value is not what this version writes (then: rebuild).
    Reads the layout of snapshot_to_json and the one before it (index files of
    formats 1 and 2: blob ids and line counts as dicts, references in the index)."""
    try:
        name = spec.name
        if "files" in doc:
            files: Any = doc["files"]
            oids = _stored_oids(files, doc["oids"])
            lines = _stored_lines(files, doc["lines"])
            if oids is None or lines is None or not isinstance(doc["refs"], str):
                return None
            references: Sequence[Reference] | None = LazyReferences(doc["refs"], name, decode_reference)
        else:
            files, lines, oids = doc["oids"], doc["lines"], doc["oids"]
            if not (isinstance(lines, dict) and isinstance(oids, dict)
                    and set(map(type, lines.values())) <= {int} and set(map(type, oids.values())) <= {str}):
                return None
            references = None  # in the index (formats 1 and 2)
        paths = _stored_paths(doc.get("paths", files))
        if paths is None:
            return None
        return _snapshot(doc, spec, paths, oids, lines, references)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _stored_paths(paths: Any) -> frozenset[str] | None:
    # Checked, not converted: tens of thousands of paths per repo, and JSON already
    # gives str and int. The types are gathered by map (no Python loop).
    if not (isinstance(paths, list | dict) and set(map(type, paths)) <= {str}):
        return None
    return frozenset(paths)


def _snapshot(
    doc: Any, spec: RepoSpec, paths: AbstractSet[str], oids: Mapping[str, str], lines: Mapping[str, int],
    references: Sequence[Reference] | None,
) -> SnapshotIndex | None:
    """The snapshot of a stored document whose paths, blob ids, line counts and (unless
    None: then the index's) references are read already. Raises KeyError, TypeError or
    ValueError on a document of another shape."""
    name = spec.name
    places = {"a": doc["anchor_paths"], "r": doc.get("ref_paths", []), "s": doc["suppression_paths"]}
    encoded, mention_paths = doc["index"], doc["mention_paths"]
    if not (isinstance(encoded, dict) and isinstance(mention_paths, list)
            and all(isinstance(v, list) for v in places.values())):
        return None
    excluded = doc.get("excluded", [])
    if not (isinstance(excluded, list) and set(map(type, excluded)) <= {str}):
        return None

    # Anchors, mentions and suppressions are built when first read (lazy.LazyTuple):
    # a warm run answered by its stored result reads none of them.
    @functools.cache
    def blob() -> BlobIndex:
        found = decode_blob_index(encoded, name, places)
        if not (isinstance(found, BlobIndex)
                and (len(found.anchors), len(found.mentions), len(found.suppressions))
                == (len(places["a"]), len(mention_paths), len(places["s"]))):
            raise CacheError.damaged_snapshot(name, ValueError("its anchors"))
        return found

    def mentions() -> tuple[Mention, ...]:  # (blob() checked that the counts match)
        return tuple(Mention(m[0], name, str(p), m[1], m[2])
                     for m, p in zip(blob().mentions, mention_paths, strict=True))

    return SnapshotIndex(
        repo=name, ref=spec.ref, commit=str(doc["commit"]),
        paths=paths,
        anchors=LazyTuple(lambda: blob().anchors, len(places["a"])),
        # (References in the index part: formats 1 and 2, read as before.)
        references=references if references is not None else blob().references,
        line_counts=lines,
        oids=oids,
        skipped=tuple(SkippedFile(str(p), str(r)) for p, r in doc["skipped"]),
        mentions=LazyTuple(mentions, len(mention_paths)),
        suppressions=LazyTuple(lambda: blob().suppressions, len(places["s"])),
        excluded=tuple(excluded),
    )


# The snapshot cache's layout: snapshot_to_json's document without its four largest
# parts, on one line (JSON holds no raw line break), then those parts as they are, one
# after the other, their lengths in the document ("packed"): the paths joined by NUL
# (no git path holds one), the blob ids, the references' JSON text, the line counts'
# JSON list. Parsing them as JSON was 10.7 of the 11.9 ms of loading GHC's document,
# and a merge order reads none of them of a repo its changes do not touch.
def snapshot_to_packed(snap: SnapshotIndex) -> str:
    doc = snapshot_to_json(snap)
    if not (isinstance(doc["oids"], str) and isinstance(doc["lines"], list)):
        return json.dumps(doc, separators=(",", ":"))  # read as a document
    parts = ["\0".join(doc.pop("files")), doc.pop("oids"), doc.pop("refs"),
             json.dumps(doc.pop("lines"), separators=(",", ":"))]
    doc["packed"] = [len(part) for part in parts]
    # In ASCII, other characters escaped (the paths aside): one character beyond it makes
    # the whole value a wider string in Python, and every part sliced from it is scanned
    # and copied again (GHC's headings hold a few: loading its snapshot took 15% more).
    return json.dumps(doc, separators=(",", ":")) + "\n" + "".join(parts)


def snapshot_from_packed(text: str, spec: RepoSpec) -> SnapshotIndex | None:
    """snapshot_to_packed's snapshot; None when the text is not what it writes."""
    cut = text.find("\n")
    try:
        doc = json.loads(text if cut < 0 else text[:cut])
        if not isinstance(doc, dict):
            return None
        if "packed" not in doc:
            return snapshot_from_json(doc, spec)
        lengths = doc.pop("packed")
        if not (isinstance(lengths, list) and len(lengths) == 4 and set(map(type, lengths)) <= {int}
                and min(lengths) >= 0 and cut >= 0 and sum(lengths) == len(text) - cut - 1):
            return None
        parts, at = [], cut + 1
        for n in lengths:
            parts.append(text[at:at + n])
            at += n
        files, oids, refs, lines = parts
        count = files.count("\0") + 1 if files else 0
        width = len(oids) // count if count else 0
        if width * count != len(oids) or (count and width not in (40, 64)):
            return None
        paths = _stored_paths(doc["paths"]) if "paths" in doc else LazyPaths(files)
        if paths is None:
            return None
        name = spec.name
        # The paths in stored order, split once for blob ids and line counts alike.
        in_order = functools.cache(lambda: files.split("\0") if count else [])
        return _snapshot(
            doc, spec, paths,
            LazyMapping(lambda: _packed_oids(in_order(), oids, width)),
            LazyMapping(lambda: _packed_lines(in_order(), lines, name)),
            LazyReferences(refs, name, decode_reference),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _packed_oids(files: list[str], oids: str, width: int) -> dict[str, str]:
    """Blob ids by path, when first read (snapshot_from_packed checked their width)."""
    ids = [oids[i:i + width] for i in range(0, len(oids), width)]
    return dict(zip(files, ids, strict=True))


def _packed_lines(files: list[str], lines: str, repo: str) -> dict[str, int]:
    """Line counts by path (none for a file not read), when first read."""
    try:
        found = json.loads(lines)
        if not (isinstance(found, list) and len(found) == len(files)
                and set(map(type, found)) <= {int, type(None)}):
            raise ValueError("line counts do not match the paths")
    except ValueError as exc:
        # The rest of the snapshot was read and checked; this part only now.
        raise CacheError.damaged_snapshot(repo, exc) from None
    return {p: n for p, n in zip(files, found, strict=True) if n is not None}


def _stored_oids(files: Any, stored: Any) -> Mapping[str, str] | None:
    """Blob ids by path, built when first read, from ids of one width in one string."""
    if not (isinstance(files, list) and set(map(type, files)) <= {str}):
        return None
    if isinstance(stored, dict):
        return stored if set(map(type, stored.values())) <= {str} else None
    if not isinstance(stored, str):
        return None
    if not files:
        return {} if not stored else None
    width = len(stored) // len(files)
    if width * len(files) != len(stored) or width not in (40, 64):
        return None
    return LazyMapping(lambda: dict(zip(files, [stored[i:i + width] for i in range(0, len(stored), width)],
                                        strict=True)))


def _stored_lines(files: list[str], stored: Any) -> Mapping[str, int] | None:
    """Line counts by path (None for a file not read), built when first read."""
    if isinstance(stored, dict):
        return stored if set(map(type, stored.values())) <= {int} else None
    if not (isinstance(stored, list) and len(stored) == len(files)
            and set(map(type, stored)) <= {int, type(None)}):
        return None
    return LazyMapping(lambda: {p: n for p, n in zip(files, stored, strict=True) if n is not None})
