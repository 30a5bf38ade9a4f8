"""A corrupt blob (a bit flipped in its loose object) is unreadable: never scanned,
never cached, and the rest of the run goes on, whether it is read first or last."""

from __future__ import annotations

import json
import os
import shutil
import zlib
from pathlib import Path

import pytest

from anchorcheck.git.repo import GitRepo
from anchorcheck.git.repobuilder import git, init_repo
from tests.conftest import run_cli

# Many findings in the corrupt file when scanned (dangling references), one elsewhere.
BIG = "".join(f"# see MISSING HEADING NUMBER {i} in other.py\nx{i} = {i}\n" for i in range(3000))
FILES = {"big.py": BIG, "a.py": "# see NO SUCH HEADING HERE in b.py\nx = 1\n", "b.py": "y = 2\n"}


def corrupt(repo: Path, path: str) -> tuple[Path, bytes]:
    """Flip a byte in the middle of the object's deflated stream; (its file, the bytes
    it had) to repair it with."""
    oid = git(repo, "rev-parse", f"HEAD:{path}").strip()
    obj = repo / ".git" / "objects" / oid[:2] / oid[2:]
    good = obj.read_bytes()
    assert zlib.decompress(good)  # a loose object, not packed
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0xFF
    os.chmod(obj, 0o644)
    obj.write_bytes(bytes(bad))
    return obj, good


def findings(root: Path, *args: str) -> tuple[int, list[tuple[str, str]], str]:
    run = run_cli("check", "--format", "json", "--fail-on", "never", *args, cwd=root)
    doc = json.loads(run.out) if run.out else {"findings": []}
    return run.code, sorted((f["path"], f["code"]) for f in doc["findings"]), run.err


@pytest.mark.parametrize("order", ["first", "last"])
def test_a_corrupt_blob_is_unreadable_and_not_cached(tmp_path: Path, order: str) -> None:
    # Blobs are read in path order: a name before the others puts it first. (Its text
    # differs per case: the cache is keyed by blob id, and a blob once read whole
    # rightly answers from it.)
    name = "0big.py" if order == "first" else "zbig.py"
    repo = init_repo(tmp_path / "r", {**FILES, name: BIG + f"# {order}\n", "big.py": "z = 3\n"})
    obj, good = corrupt(repo, name)
    code, found, err = findings(repo)
    assert code == 0, err
    assert found == [("a.py", "AC101")]
    assert "unreadable" in err and name in err
    # Repaired, the file is read whole: nothing of the corrupt read was kept.
    obj.write_bytes(good)
    code, found, err = findings(repo)
    assert code == 0, err
    assert len([f for f in found if f[0] == name]) == 3000
    assert ("a.py", "AC101") in found


def test_the_blob_reader_goes_on_past_a_corrupt_blob(tmp_path: Path) -> None:
    repo = init_repo(tmp_path / "r", FILES)
    oids = [git(repo, "rev-parse", f"HEAD:{p}").strip() for p in ("a.py", "big.py", "b.py")]
    corrupt(repo, "big.py")
    got = dict(GitRepo(repo).read_blobs(oids))
    assert got[oids[0]] == FILES["a.py"].encode()
    assert got[oids[1]] is None
    assert got[oids[2]] == FILES["b.py"].encode()
    shutil.rmtree(tmp_path / "r")
