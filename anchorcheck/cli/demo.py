"""`anchorcheck demo`: the seed review thread, replayed on three small real repos.

A Helm chart repo (`client`), a Python runtime repo (`client-runtime`) and a backend
repo (`backend`), each with a PR branch:

- client#791 adds the ROLLBACK ON THE DEGRADED PATH heading to the jobs-manager
  deployment template, and bumps the chart to 1.9.59, which develop has meanwhile
  reached (client#784) while client#787 takes 1.9.60: a version race;
- client-runtime#359 adds a comment citing that heading;
- client-runtime#360 moves the ingestion port that the chart restates;
- backend#1923 cites a chart heading in the wrong file.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from anchorcheck.check.pipeline import run_check
from anchorcheck.config.workspace import load_workspace
from anchorcheck.git.repobuilder import branch, commit, init_repo
from anchorcheck.pr.change import ChangeSpec
from anchorcheck.pr.mergeorder import analyse
from anchorcheck.report.graph_export import collapse, export_graph, to_mermaid
from anchorcheck.report.merge_order import advise, render_merge_text
from anchorcheck.report.text import render_text

DEPLOYMENT = """\
# Jobs manager: polls the scheduler, runs training, serves ingestion on 8080.
apiVersion: apps/v1
kind: Deployment
metadata:
  name: jobs-manager
spec:
  replicas: 1
  # WHY RECREATE AND NOT ROLLING
  # Two jobs managers would both poll the scheduler and double-run jobs, so the
  # old pod is deleted before the new one starts.
  strategy:
    type: Recreate
  template:
    spec:
      containers:
        - name: jobs-manager
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          ports:
            - containerPort: 8080  # restates client-runtime:jobs_manager.py::env.INGESTION_HTTP_PORT
          {{- if not .Values.env.INGESTION_HTTP_DISABLED }}
          # tcpSocket rather than httpGet /healthz: see the runtime's
          # submit_ingestion_run.py for what /healthz reports.
          readinessProbe:
            tcpSocket:
              port: 8080
            initialDelaySeconds: 10
          {{- end }}
"""

ROLLBACK_NOTE = """\
  # ROLLBACK ON THE DEGRADED PATH
  # When the ingestion server fails to bind 8080, jobs-manager keeps running but
  # never becomes Ready. Under Recreate plus the auto-upgrade CronJob's
  # `helm upgrade --atomic`, --wait then times out and the release rolls back to
  # the last good revision (backend#1922 accepted this trade).
"""

CRONJOB = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: auto-upgrade
spec:
  schedule: "*/30 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
            - name: upgrade
              # ATOMIC UPGRADES IMPLY WAIT
              # --atomic implies --wait: a release that never becomes Ready is
              # rolled back when --timeout expires.
              args: ["helm", "upgrade", "--install", "--atomic", "--timeout", "10m"]
"""

JOBS_MANAGER = """\
\"\"\"Jobs manager: scheduler polling, training, and the ingestion HTTP server.\"\"\"

import os


def main() -> None:
    port = int(os.getenv("INGESTION_HTTP_PORT", "8080"))
    try:
        serve_ingestion(port)
    except OSError:
        # Keep polling and training even when ingestion cannot bind.
        pass
    poll_forever()


def serve_ingestion(port: int) -> None: ...


def poll_forever() -> None: ...
"""

JOBS_MANAGER_PR = JOBS_MANAGER.replace(
    "        # Keep polling and training even when ingestion cannot bind.\n",
    "        # Keep polling and training even when ingestion cannot bind. The chart\n"
    "        # then never sees the pod Ready; during a rollout that is a rollback,\n"
    "        # see ROLLBACK ON THE DEGRADED PATH in\n"
    "        # client/templates/jobs-manager-deployment.yaml.\n",
)

SUBMIT = """\
def _healthz_report() -> tuple[int, dict[str, bool]]:
    \"\"\"Readiness: authz_mount, schema and metadata_db; 503 when any is broken.\"\"\"
    checks = {"authz_mount": True, "schema": True, "metadata_db": True}
    return (200 if all(checks.values()) else 503), checks
"""

DECISIONS = """\
# Decisions

## 1922: degraded jobs-manager

We accept a rollback over serving a half-broken image. The mechanism is written
down next to the probe in the chart (`type: Recreate` at
client/templates/jobs-manager-deployment.yaml:12); the runtime side is in
[jobs_manager.py](https://github.com/example/client-runtime/blob/main/jobs_manager.py).

See also [the upgrade CronJob](#upgrades).

## Upgrades

Upgrades are atomic.
"""

UPGRADE_SCRIPT = """\
#!/bin/sh
# Manual upgrade for edges without the CronJob. Flags match the CronJob's:
# see ATOMIC UPGRADES IMPLY WAIT in client/templates/jobs-manager-deployment.yaml.
helm upgrade --install --atomic --timeout 10m jobs-manager ./client
"""

VALUES = "env: {}\nimage:\n  repository: jobs-manager\n  tag: latest\n"
VALUES_VERSION = "1.9.58"


def _chart(version: str) -> str:
    return f"apiVersion: v2\nname: client\nversion: {version}\n"


CONFIG = """\
# The demo workspace: three repos checked together.
[[repo]]
name = "client"
path = "client"
ref = "develop"
url = "https://github.com/example/client"

[[repo]]
name = "client-runtime"
path = "client-runtime"
ref = "main"
url = "https://github.com/example/client-runtime"

[[repo]]
name = "backend"
path = "backend"
ref = "main"
"""


def build_demo_workspace(root: Path) -> Path:
    """Lay out the three repos and their PR branches under `root`; return the config."""
    chart = init_repo(root / "client", {
        "Chart.yaml": _chart(VALUES_VERSION),
        "templates/jobs-manager-deployment.yaml": DEPLOYMENT,
        "templates/auto-upgrade-cronjob.yaml": CRONJOB,
        "values.yaml": VALUES,
    }, branch="develop")
    with_note = DEPLOYMENT.replace("  strategy:\n", ROLLBACK_NOTE + "  strategy:\n", 1)
    # client#791 branched from develop at 1.9.58 and bumps to 1.9.59 ...
    branch(chart, "pr/791", {
        "templates/jobs-manager-deployment.yaml": with_note,
        "Chart.yaml": _chart("1.9.59"),
    }, base="develop", message="docs(chart): record that Recreate + --atomic rolls back")
    # ... while client#784 landed 1.9.59 on develop, and client#787 takes 1.9.60.
    commit(chart, {"Chart.yaml": _chart("1.9.59"), "values.yaml": VALUES + "replicas: 1\n"},
           "client#784: values: replicas")
    branch(chart, "pr/787", {
        "Chart.yaml": _chart("1.9.60"),
        "values.yaml": VALUES + "replicas: 1\nresources: {}\n",
    }, base="develop", message="client#787: values: resources")
    runtime = init_repo(root / "client-runtime", {
        "jobs_manager.py": JOBS_MANAGER,
        "submit_ingestion_run.py": SUBMIT,
    })
    branch(runtime, "pr/359", {"jobs_manager.py": JOBS_MANAGER_PR},
           message="jobs_manager: cite the chart's rollback note")
    branch(runtime, "pr/360", {"jobs_manager.py": JOBS_MANAGER.replace('"8080"', '"9090"')},
           message="jobs_manager: ingestion on 9090")
    backend = init_repo(root / "backend", {"docs/decisions.md": DECISIONS})
    branch(backend, "pr/1923", {"scripts/upgrade.sh": UPGRADE_SCRIPT},
           message="scripts: manual upgrade for edges")
    config = root / "anchorcheck.toml"
    config.write_text(CONFIG, encoding="utf-8")
    return config


def run_demo(keep: Path | None, colour: bool, echo: Callable[[str], None]) -> None:
    root = keep if keep is not None else Path(tempfile.mkdtemp(prefix="anchorcheck-demo-"))
    try:
        root.mkdir(parents=True, exist_ok=True)
        config = build_demo_workspace(root)
        echo(f"Demo workspace: {root} (client @ develop, client-runtime @ main, backend @ main)\n")
        steps = [
            ("The default branches are consistent.", {}),
            ("client-runtime#359 cites ROLLBACK ON THE DEGRADED PATH, which only client#791 adds:",
             {"client-runtime": "pr/359"}),
            ("With client#791 landed first, the citation resolves on arrival; the lines it\n"
             "   inserts make a line claim in backend's docs stale (`anchorcheck fix` rewrites it):",
             {"client-runtime": "pr/359", "client": "pr/791"}),
            ("client-runtime#360 moves the ingestion port the chart restates:",
             {"client-runtime": "pr/360"}),
            ("backend#1923 cites a chart heading in the wrong file; anchorcheck names the right one:",
             {"backend": "pr/1923"}),
        ]
        # The commands as they would run: in the workspace kept, or with DIR for one
        # that this run deletes at its end.
        shown = config if keep is not None else Path("DIR") / config.name
        memo: dict = {}  # type: ignore[type-arg]
        for title, refs in steps:
            flags = " ".join(f"--ref {name}={ref}" for name, ref in refs.items())
            echo(f"== {title}")
            echo(f"$ anchorcheck check --config {shown} {flags}".rstrip())
            ws = load_workspace(config, (), [f"{k}={v}" for k, v in refs.items()])
            result = run_check(ws, memo=memo)
            echo(render_text(result.findings, colour))
        prs = ["client#791=pr/791", "client#787=pr/787", "client-runtime#359=pr/359",
               "client-runtime#360=pr/360", "backend#1923=pr/1923"]
        echo("== The merge-order advisory for the open PRs (posted on each PR as Markdown):")
        echo(f"$ anchorcheck merge-order --config {shown} " + " ".join(f"--pr {p}" for p in prs))
        ws = load_workspace(config)
        specs = [ChangeSpec.parse(p, ws) for p in prs]
        advisory = advise(analyse(ws, specs, {}, memo=memo))
        echo(render_merge_text(advisory, colour))
        echo("== The reference graph of the default branches (GitHub renders this Mermaid):")
        echo(f"$ anchorcheck graph --config {shown} --collapse files --format mermaid")
        result = run_check(load_workspace(config), memo=memo)
        echo(to_mermaid(collapse(export_graph(result), "files")))
        echo("(`--format html -o graph.html` gives an interactive page; dot, json and graphml too.)")
        if keep is None:
            echo("To run these commands yourself, keep the workspace: anchorcheck demo --keep DIR")
        else:
            echo(f"The workspace is kept in {root}: the commands above run as shown.")
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
