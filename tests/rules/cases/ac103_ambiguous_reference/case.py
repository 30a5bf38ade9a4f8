"""AC103: a heading cited without a location is defined in two repos, so the citation
cannot tell which is meant; the citation beside it, naming one repo's file, resolves."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("backend", {"worker/retry.py": "# RETRY POLICY FOR UPLOADS\n# Three tries, then give up.\nRETRIES = 3\n"})
    ws.repo("frontend", {"upload.py": "# RETRY POLICY FOR UPLOADS\n# One try; the user retries.\nRETRIES = 1\n"})
    ws.repo("runtime", {"jobs.py": '# see "RETRY POLICY FOR UPLOADS"\n'
                                   "# see RETRY POLICY FOR UPLOADS in backend:worker/retry.py\n"
                                   "PORT = 8080\n"})
    ws.config()
    return ["check", "--select", "AC103"]
