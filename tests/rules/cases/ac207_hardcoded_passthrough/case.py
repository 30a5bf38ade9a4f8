"""AC207: a chart passes `.Values.env` through to its container, yet hardcodes the
containerPort 8080 that the runtime reads from APP_PORT; the probe's `port: 8080`
beside it, marked `restates`, is left alone."""

from __future__ import annotations

from tests.conftest import WorkspaceBuilder


def build(ws: WorkspaceBuilder) -> list[str]:
    ws.repo("chart", {"values.yaml": "env: {}\n", "templates/deploy.yaml": (
        "spec:\n  template:\n    spec:\n      containers:\n        - name: app\n"
        "          env:\n          {{- range $k, $v := .Values.env }}\n            - name: {{ $k }}\n"
        "              value: {{ $v | quote }}\n          {{- end }}\n"
        "          ports:\n            - containerPort: 8080\n"
        "          readinessProbe:\n            tcpSocket:\n"
        "              port: 8080  # restates runtime:app.py::env.APP_PORT\n")})
    ws.repo("runtime", {"app.py": 'import os\n\nPORT = int(os.getenv("APP_PORT", "8080"))\n'})
    ws.config()
    return ["check", "--select", "AC207"]
