"""Stale claims: line claims, symbol claims and restated values, across repos."""

from __future__ import annotations

import json
import re
import tomllib

from hypothesis import example, given, settings
from hypothesis import strategies as st

from anchorcheck.check.pipeline import run_check
from anchorcheck.config.workspace import load_workspace
from anchorcheck.extract.claims import _call_mentions, _tick_mentions
from anchorcheck.extract.facts import facts_of
from tests.conftest import WorkspaceBuilder, run_cli

CLAIMS = (
    "# ROLLBACK ON THE DEGRADED PATH\n"
    "# Verified against this file: strategy: Recreate at :27-28 and\n"
    "# readinessProbe: tcpSocket: 8080 at :220-222, and `--atomic` at\n"
    "# auto-upgrade-cronjob.yaml:121 (it implies --wait).\n"
)


def deployment(claims: str = CLAIMS, shift: int = 0) -> str:
    """A template laid out like the seed's: strategy at 27-28, the probe at 220-222."""
    lines = claims.splitlines()
    lines += [f"# filler {i}" for i in range(len(lines) + 1, 27 + shift)]
    lines += ["strategy:", "  type: Recreate"]  # 27-28 (+ shift)
    lines += [f"k{i}: v{i}" for i in range(29 + shift, 220 + shift)]
    lines += ["readinessProbe:", "  tcpSocket:", "    port: 8080"]  # 220-222 (+ shift)
    lines += ["containerPort: 8080  # restates runtime:jobs_manager.py::env.INGESTION_HTTP_PORT"]
    return "\n".join(lines) + "\n"


def cronjob() -> str:
    lines = [f"# line {i}" for i in range(1, 121)] + ['args: ["helm", "upgrade", "--atomic"]']
    return "\n".join(lines) + "\n"


RUNTIME = 'import os\n\n\ndef main():\n    port = int(os.getenv("INGESTION_HTTP_PORT", "8080"))\n'
SUBMIT = "def _healthz_report():\n    return 200\n"


def seed(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {
        "templates/jobs-manager-deployment.yaml": deployment(),
        "templates/auto-upgrade-cronjob.yaml": cronjob(),
    })
    ws.repo("runtime", {"jobs_manager.py": RUNTIME, "submit_ingestion_run.py": SUBMIT})


def findings(ws: WorkspaceBuilder, **refs: str) -> list[tuple[str, str, int, str, str | None]]:
    workspace = load_workspace(ws.config(), (), [f"{k}={v}" for k, v in refs.items()])
    return [(f.finding.code, f.finding.path, f.finding.line, f.finding.message, f.finding.suggestion)
            for f in run_check(workspace).findings]


def test_seed_claims_hold(ws: WorkspaceBuilder) -> None:
    seed(ws)
    assert findings(ws) == []
    result = run_check(load_workspace(ws.config()))
    kinds = sorted(r.reference.kind.value for r in result.resolutions)
    assert kinds == ["lines", "lines", "lines", "restates"]


def test_inserted_lines_make_claims_stale_with_suggestions(ws: WorkspaceBuilder) -> None:
    seed(ws)
    ws.pr("client", "shifted", {"templates/jobs-manager-deployment.yaml": deployment(shift=4)})
    out = findings(ws, client="shifted")
    assert [(c, line, s) for c, _, line, _, s in out] == [
        ("AC201", 2, "31-32"), ("AC201", 3, "224-226"),
    ]
    assert "strategy: Recreate' is no longer at client:templates/jobs-manager-deployment.yaml:27-28; it is now at 31-32" in out[0][3]


def test_line_past_the_end(ws: WorkspaceBuilder) -> None:
    seed(ws)
    ws.pr("client", "short", {"templates/auto-upgrade-cronjob.yaml": "args: [--atomic]\n"})
    [(code, _path, line, msg, _)] = findings(ws, client="short")
    assert (code, line) == ("AC201", 4)  # where the location starts, after the claim's text
    assert "line 121 is past the end of client:templates/auto-upgrade-cronjob.yaml (1 line)" in msg


def test_text_gone_everywhere(ws: WorkspaceBuilder) -> None:
    seed(ws)
    ws.pr("client", "rolling", {"templates/jobs-manager-deployment.yaml": deployment().replace("type: Recreate", "type: RollingUpdate")})
    [(code, _, line, msg, suggestion)] = findings(ws, client="rolling")
    assert (code, line, suggestion) == ("AC201", 2, None)
    assert msg.endswith("it is nowhere in the file")


def test_text_now_at_several_places_names_them(ws: WorkspaceBuilder) -> None:
    seed(ws)
    moved = deployment(shift=4).replace("k100: v100", "strategy:\n  type: Recreate")
    ws.pr("client", "twice", {"templates/jobs-manager-deployment.yaml": moved})
    out = findings(ws, client="twice")
    [msg] = [m for c, _, line, m, _ in out if (c, line) == ("AC201", 2)]
    assert msg.endswith("it is at 2 places now: 31-32 and 100-101"), msg


def test_symbol_renamed_in_runtime_flags_the_chart_comment(ws: WorkspaceBuilder) -> None:
    seed(ws)
    ws.repo("docs", {"ops.md": "The probe: submit_ingestion_run.py:_healthz_report() checks authz_mount.\n"})
    assert findings(ws) == []
    ws.pr("runtime", "renamed", {"submit_ingestion_run.py": None, "readiness.py": SUBMIT.replace("_healthz_report", "_readiness_report"),
                                 "health.py": "def _healthz_report():\n    return 503\n"})
    [(code, path, line, msg, suggestion)] = findings(ws, runtime="renamed")
    assert (code, path) == ("AC105", "ops.md")  # the file itself is gone
    ws.pr("runtime", "renamed2", {"submit_ingestion_run.py": SUBMIT.replace("_healthz_report", "_readiness_report"),
                                  "health.py": "def _healthz_report():\n    return 503\n"})
    [(code, path, line, msg, suggestion)] = findings(ws, runtime="renamed2")
    assert (code, path, line) == ("AC202", "ops.md", 1)
    assert "runtime:submit_ingestion_run.py does not define _healthz_report(); it is defined at runtime:health.py:1" in msg
    assert suggestion == "runtime:health.py"


def test_a_c_function_cited_in_the_wrong_file_is_found_where_its_return_type_shares_its_line(
        ws: WorkspaceBuilder) -> None:
    # git's dir.c cites commit.c#git_status_config(), defined in builtin/commit.c as
    # `static int git_status_config(const char *k, ...` (types and name on one line,
    # the common C style): the finding says where, not that no file defines it. A call
    # in an indented line, `return git_status_config(k, v);`, is no definition.
    ws.repo("git", {"commit.c": "int commit(void)\n{\n\treturn 0;\n}\n",
                    "builtin/commit.c": "static int git_status_config(const char *k, const char *v,\n"
                                        "\t\t\t     void *cb)\n{\n\treturn 0;\n}\n",
                    "builtin/status.c": "int run(void)\n{\n\treturn git_status_config(0, 0, 0);\n}\n",
                    "dir.c": "/*\n * the config setting in commit.c#git_status_config()\n */\nint d;\n"})
    [(code, path, line, msg, suggestion)] = findings(ws)
    assert (code, path, line) == ("AC202", "dir.c", 2)
    assert msg == "git:commit.c does not define git_status_config(); it is defined at git:builtin/commit.c:1"
    assert suggestion == "git:builtin/commit.c"


def test_symbol_in_backticks_form(ws: WorkspaceBuilder) -> None:
    ws.repo("runtime", {"a.py": "def real():\n    pass\n", "b.py": "# see `real()` in a.py and `gone()` in a.py\n"})
    out = findings(ws)
    assert [(c, line) for c, _, line, _, _ in out] == [("AC202", 1)]
    assert "does not define gone(), and no file in the workspace does" in out[0][3]


def test_a_symbol_named_as_absent_is_no_claim(ws: WorkspaceBuilder) -> None:
    # golang-migrate's FAQ: "Why is there no `source/driver.go:Last()`?" says it is not there.
    ws.repo("migrate", {"source/driver.go": "package source\n\nfunc First() {}\n",
                        "FAQ.md": "#### Why is there no `source/driver.go:Last()`?\n\n"
                                  "Call `source/driver.go:Next()` instead.\n"})  # 3
    out = findings(ws)
    assert [(c, line) for c, _, line, _, _ in out] == [("AC202", 3)]


def test_runtime_default_changed_makes_restated_port_drift(ws: WorkspaceBuilder) -> None:
    seed(ws)
    ws.pr("runtime", "port", {"jobs_manager.py": RUNTIME.replace('"8080"', '"9090"')})
    [(code, path, line, msg, suggestion)] = findings(ws, runtime="port")
    assert (code, path, line) == ("AC204", "templates/jobs-manager-deployment.yaml", 223)
    assert msg == ("this line restates '8080', but runtime:jobs_manager.py::env.INGESTION_HTTP_PORT "
                   "is now '9090' (at line 5)")
    assert suggestion == "9090"


def test_contracts_across_three_repos(ws: WorkspaceBuilder) -> None:
    ws.repo("chart", {"values.yaml": "service:\n  port: 8080\nimage:\n  tag: v1\n"})
    ws.repo("runtime", {"settings.py": 'PORT = 8080\nNAME = "x"\n'})
    ws.repo("backend", {"config.json": '{"upstream": {"port": 8080}}\n', "pyproject.toml": '[tool.x]\nport = 8080\n'})
    contract = (
        '\n[[contract]]\nname = "ingestion port"\nfacts = ["chart:values.yaml::service.port", '
        '"runtime:settings.py::PORT", "backend:config.json::upstream.port", "backend:pyproject.toml::port"]\n'
    )
    config = ws.config()
    config.write_text(config.read_text() + contract)
    assert run_check(load_workspace(config)).findings == ()
    ws.pr("runtime", "drift", {"settings.py": 'PORT = 9090\nNAME = "x"\n'})
    text = config.read_text().replace('name = "runtime"\npath = "runtime"\nref = "main"', 'name = "runtime"\npath = "runtime"\nref = "drift"')
    config.write_text(text)
    [f] = run_check(load_workspace(config)).findings
    assert (f.finding.code, f.finding.repo, f.finding.path, f.finding.line) == ("AC204", "runtime", "settings.py", 1)
    assert f.finding.message == ("contract 'ingestion port': runtime:settings.py::PORT is '9090', "
                                 "but chart:values.yaml::service.port is '8080'")


def test_bad_contract_config_exits_2(ws: WorkspaceBuilder) -> None:
    ws.repo("a", {"x.py": "X = 1\n"})
    config = ws.config()
    config.write_text(config.read_text() + '[[contract]]\nfacts = ["a:x.py::X", "zz:y.py::Y"]\n')
    r = run_cli("check", cwd=ws.root)
    assert r.code == 2 and "names unknown repo 'zz'" in r.err


def test_facts_of_yaml_helm_json_toml_python() -> None:
    helm = (
        "spec:\n  {{- if .Values.x }}\n  replicas: {{ .Values.replicas }}\n  {{- end }}\n"
        "  template:\n    spec:\n      containers:\n        - name: app\n          ports:\n"
        "            - containerPort: 8080 # the port\n  strategy:\n    type: Recreate\n"
        "run: |\n  key: not a fact\n"
    )
    facts = facts_of("templates/x.yaml", helm)
    assert facts["spec.strategy.type"].value == "Recreate"
    assert facts["spec.template.spec.containers.ports.containerPort"].value == "8080"
    assert facts["spec.template.spec.containers.ports.containerPort"].line == 10
    assert facts["spec.replicas"].value == "{{ .Values.replicas }}"
    assert "run.key" not in facts
    assert facts_of("p.json", '{"a": {"b": [1, true]}}')["a.b[1]"].value == "true"
    assert facts_of("p.toml", '[project]\nversion = "1.2"\n')["project.version"].value == "1.2"
    py = facts_of("m.py", 'import os\nX = 3\nY: str = "y"\nos.environ.setdefault("Z", "z")\n'
                          'p = os.environ.get("P", 5)\n')
    assert {k: v.value for k, v in py.items()} == {"X": "3", "Y": "y", "env.Z": "z", "env.P": "5"}


def test_facts_command(ws: WorkspaceBuilder) -> None:
    seed(ws)
    ws.config()
    r = run_cli("facts", "runtime:jobs_manager.py", cwd=ws.root)
    assert r.code == 0, r.err
    assert "runtime:jobs_manager.py::env.INGESTION_HTTP_PORT = 8080  (line 5)" in r.out
    doc = json.loads(run_cli("facts", "client:templates/jobs-manager-deployment.yaml::containerPort", "--format", "json", cwd=ws.root).out)
    assert doc["facts"] == [{"address": "client:templates/jobs-manager-deployment.yaml::containerPort",
                             "value": "8080", "line": 223}]


def test_fix_rewrites_drifted_line_numbers(ws: WorkspaceBuilder) -> None:
    client = ws.repo("client", {
        "templates/jobs-manager-deployment.yaml": deployment(shift=4),
        "templates/auto-upgrade-cronjob.yaml": cronjob(),
    })
    ws.repo("runtime", {"jobs_manager.py": RUNTIME, "submit_ingestion_run.py": SUBMIT})
    ws.config()
    dry = run_cli("fix", "--dry-run", cwd=ws.root)
    assert dry.code == 0, dry.err
    assert "-# Verified against this file: strategy: Recreate at :27-28 and" in dry.out
    assert "+# Verified against this file: strategy: Recreate at :31-32 and" in dry.out
    assert "+# readinessProbe: tcpSocket: 8080 at :224-226, and `--atomic` at" in dry.out
    target = client / "templates" / "jobs-manager-deployment.yaml"
    assert ":27-28" in target.read_text()  # a dry run writes nothing
    wrote = run_cli("fix", "--write", cwd=ws.root)
    assert wrote.code == 0, wrote.err
    assert ":31-32" in target.read_text() and ":224-226" in target.read_text()
    from anchorcheck.git.repobuilder import git

    git(client, "commit", "-qam", "fix")
    assert findings(ws) == []


def test_symbol_removed_in_history_is_ac203_with_the_commit(ws: WorkspaceBuilder) -> None:
    from anchorcheck.git.repobuilder import commit

    runtime = ws.repo("runtime", {"jobs.py": "def _healthz_report():\n    return 200\n\n\ndef serve():\n    pass\n"})
    removal = commit(runtime, {"jobs.py": "def serve():\n    pass\n"}, "drop the healthz report")
    ws.repo("client", {"deploy.yaml": (
        "# readiness: jobs.py:`_healthz_report()` checks authz_mount; `serve` binds; json.loads() and\n"
        "# `never_defined_anywhere` are not ours.\nx: 1\n"
    ), "rts.c": "#include <string.h> // for _healthz_report()\n"})
    # A removal in another repo's history counts where the line names that repo or the
    # file (as the seed's "submit_ingestion_run.py:_healthz_report()"), not elsewhere
    # (GHC's `#include <string.h> // for memmove()` and bytestring's history).
    out = findings(ws)
    assert [(c, p, line) for c, p, line, _, _ in out] == [("AC203", "deploy.yaml", 1)]
    assert out[0][3] == (f"_healthz_report is no longer defined anywhere in the workspace; commit {removal[:12]} "
                         "in runtime ('drop the healthz report') removed it from jobs.py")


def test_a_removed_c_function_is_ac203_and_a_call_at_a_line_start_removes_nothing(ws: WorkspaceBuilder) -> None:
    from anchorcheck.git.repobuilder import commit

    before = ("static int *old_lookup(Dict *d, const char *key) {\n  return 0;\n}\n\n"
              "struct entry *make_entry(int n)\n{\n  return 0;\n}\n\nTEST(Dict, Lookup) {\n}\n\n"
              "void kept(void) {\n}\n")
    server = ws.repo("server", {"dict.c": before, "test.h": "void kept(void);\n"})
    gone = commit(server, {"dict.c": "void kept(void) {\n}\n", "test.h": "\n"}, "drop the old lookup")
    ws.repo("client", {"a.py": "# the server's old_lookup(), make_entry(), TEST() and kept() are C\nx = 1\n"})
    out = [(c, msg.split(" is ")[0]) for c, _, _, msg, _ in findings(ws)]
    # kept's prototype left test.h, but dict.c still defines it; TEST is a call.
    assert out == [("AC203", "old_lookup"), ("AC203", "make_entry")]
    assert gone[:12] in findings(ws)[0][3]



def test_a_c_function_indented_by_a_reformat_is_not_removed(ws: WorkspaceBuilder) -> None:
    # miniz's "Format code with clang-format" indented its whole API inside `extern "C" {`:
    # a diff of `-void *tinfl_mem(...)` and `+    void *tinfl_mem(...)` removes nothing.
    from anchorcheck.git.repobuilder import commit

    lib = ws.repo("miniz", {"tinfl.c": 'extern "C" {\nvoid *tinfl_mem(const void *p)\n{\n  return 0;\n}\n'
                                       "int old_api(void)\n{\n  return 0;\n}\n}\n",
                            "tinfl.h": "/* see tinfl_mem() and old_api() */\n"})
    commit(lib, {"tinfl.c": 'extern "C" {\n    void *tinfl_mem(const void *p)\n    {\n        return 0;\n    }\n}\n'},
           "Format code with clang-format")
    out = [(c, msg.split(" is ")[0]) for c, _, _, msg, _ in findings(ws)]
    assert out == [("AC203", "old_api")]


def test_a_removed_name_the_code_still_calls_is_a_librarys(ws: WorkspaceBuilder) -> None:
    # libzmq dropped its tweetnacl copy, which defined sodium_init; random.cpp's comment
    # names it over `int rc = sodium_init ();`, libsodium's. A name only comments call
    # (`//  see usable()`, ` * usable() ...`) is still gone.
    from anchorcheck.git.repobuilder import commit

    zmq = ws.repo("zmq", {"src/tweetnacl.c": "int sodium_init(void) {\n  return 0;\n}\n"
                                             "int usable(int n) {\n  return n;\n}\n",
                          "tools/path.py": "def isfile(p):\n    return True\n",
                          "lint.toml": '[ban]\nrules = ["PTH113"]  # `os.path.isfile()`: use `Path.is_file()`\n',
                          "src/random.cpp": ("void init() {\n  //  sodium_init() is thread-safe\n"
                                             "  int rc = sodium_init ();\n  // see usable() and\n"
                                             "  /* usable() too */\n}\n")})
    commit(zmq, {"src/tweetnacl.c": None, "tools/path.py": None}, "drop tweetnacl")
    # (Nor is a name the standard library qualifies: sphinx's ruff config names
    # `os.path.isfile()`, not its own removed sphinx.testing.path.isfile.)
    out = [(c, line, msg.split(" is ")[0]) for c, _, line, msg, _ in findings(ws)]
    assert out == [("AC203", 4, "usable")]  # (a name is one mention a file)

def test_a_c_function_is_defined_and_a_comment_line_removes_nothing(ws: WorkspaceBuilder) -> None:
    # redis: a commit rewrote a comment "... done by function hashTypeSetExDone()", read
    # as a removal, and the function, defined C-style (no keyword), as not defined: AC203.
    from anchorcheck.git.repobuilder import commit

    before = ("/* Updates are\n * done by function set_done().\n */\n"
              "void set_done(Ctx *ex) {\n  notify(ex);\n}\n")
    after = "/* Updates end with set_done(). */\nvoid set_done(Ctx *ex) {\n  notify(ex);\n}\n"
    server = ws.repo("server", {"t_hash.c": before, "helpers.py": "def flush():\n    pass\n\n\ndef old_helper():\n    pass\n"})
    commit(server, {"t_hash.c": after}, "rewrite the comment")
    # flush leaves the Python helpers, but t_hash.c defines it C-style; old_helper is gone.
    server_c = after + "int flush(void) {\n  return 0;\n}\n"
    commit(server, {"t_hash.c": server_c, "helpers.py": "x = 1\n"}, "drop the Python helpers")
    ws.repo("client", {"a.py": "# calls the server's set_done(), flush() and old_helper()\nx = 1\n"})
    out = [(c, p, line, msg.split(" is ")[0]) for c, p, line, msg, _ in findings(ws)]
    assert out == [("AC203", "a.py", 1, "old_helper")]


def test_ac202_and_ac203_read_one_search_of_the_repos(ws: WorkspaceBuilder) -> None:
    # AC203 has a candidate to look up, so every repo is searched once, for it and for
    # the symbol claims' names too; AC202 reads that search for its missing symbol.
    from unittest import mock

    from anchorcheck.git.repo import GitRepo
    from anchorcheck.git.repobuilder import commit

    runtime = ws.repo("runtime", {"jobs.py": "def _healthz_report():\n    return 200\n",
                                  "health.py": "def probe():\n    pass\n"})
    commit(runtime, {"jobs.py": "def serve():\n    pass\n", "health.py": "def probe():\n    pass\n\n"
                     "def moved():\n    pass\n"}, "drop the healthz report")
    ws.repo("client", {"deploy.py": "# `_healthz_report()` is gone; jobs.py:moved() is not there\nx = 1\n"})
    # A spy on the searches (the real git search runs):
    with mock.patch.object(GitRepo, "start_grep_words", autospec=True,
                           side_effect=GitRepo.start_grep_words) as searches:
        out = findings(ws)
    assert sorted((c, p, m.split(";")[0]) for c, p, _, m, _ in out) == [
        ("AC202", "deploy.py", "runtime:jobs.py does not define moved()"),
        ("AC203", "deploy.py", "_healthz_report is no longer defined anywhere in the workspace"),
    ]
    assert "it is defined at runtime:health.py:4" in next(m for c, *_, m, _ in out if c == "AC202")
    # One search per repo, each for both names.
    assert sorted(call.args[1] for call in searches.call_args_list) == [
        ["_healthz_report", "moved"], ["_healthz_report", "moved"]]


def test_after_one_repo_moved_only_it_is_searched_for_a_missing_symbol(ws: WorkspaceBuilder) -> None:
    """Where a symbol is defined is cached by each repo's commit, with the names asked:
    a run after one repo moved searches that repo alone (the answer was cached by
    every repo's commit at once, so all were searched again), and finds the same."""
    from pathlib import Path
    from unittest import mock

    from anchorcheck.git.repo import GitRepo
    from anchorcheck.git.repobuilder import commit
    from anchorcheck.index.cache import BlobCache
    from anchorcheck.index.plan import extract_options

    ws.repo("runtime", {"jobs.py": "def serve():\n    pass\n", "health.py": "def probe():\n    pass\n\n"
                        "def moved():\n    pass\n"})
    ws.repo("client", {"deploy.py": "# jobs.py:moved() is not there\nx = 1\n"})
    other = ws.repo("other", {"o.py": "y = 1\n"})

    def run() -> tuple[list[tuple[str, str, str]], list[str]]:
        workspace = load_workspace(ws.config())
        cache = BlobCache(ws.root / "cache", extract_options(workspace.settings))
        # A spy on the searches (the real git search runs):
        with mock.patch.object(GitRepo, "start_grep_words", autospec=True,
                               side_effect=GitRepo.start_grep_words) as searches:
            result = run_check(workspace, cache=cache)
        found = [(f.finding.code, f.finding.path, f.finding.message) for f in result.findings]
        cache.close()
        return found, sorted(Path(call.args[0].git_dir).parent.name for call in searches.call_args_list)

    first, searched = run()
    assert [(c, p) for c, p, _ in first] == [("AC202", "deploy.py")]
    assert "it is defined at runtime:health.py:4" in first[0][2]
    assert searched == ["client", "other", "runtime"]
    commit(other, {"o.py": "y = 2\n"}, "move")
    again, searched = run()
    assert again == first and searched == ["other"]


def test_symbol_moved_to_another_file_is_not_removed(ws: WorkspaceBuilder) -> None:
    from anchorcheck.git.repobuilder import commit

    runtime = ws.repo("runtime", {"a.py": "def helper():\n    pass\n"})
    commit(runtime, {"a.py": None, "b.py": "def helper():\n    pass\n"}, "move helper")
    ws.repo("docs", {"x.py": "# see `helper()`\n"})
    assert findings(ws) == []


def test_history_counts_only_files_anchorcheck_reads(ws: WorkspaceBuilder) -> None:
    # A test's expected output that still shows the definition does not keep the name
    # alive, and one that loses it later does not hide the code's removal.
    from anchorcheck.git.repobuilder import commit

    runtime = ws.repo("runtime", {
        "a.py": "def gone_helper():\n    pass\n",
        "tests/expected.stdout": "def gone_helper():\ndef kept_in_output():\n",
    })
    commit(runtime, {"a.py": "x = 1\n"}, "remove gone_helper")
    commit(runtime, {"tests/expected.stdout": "def gone_helper():\n"}, "regenerate outputs")
    ws.repo("docs", {"x.py": "# see runtime's `gone_helper()` and `kept_in_output()`\n"})
    out = findings(ws)
    assert [(c, p) for c, p, *_ in out] == [("AC203", "x.py")]
    assert out[0][3].startswith("gone_helper is no longer defined") and "from a.py" in out[0][3]


def test_history_depth_caps_the_walk(ws: WorkspaceBuilder) -> None:
    from anchorcheck.git.repobuilder import commit

    runtime = ws.repo("runtime", {"a.py": "def gone_helper():\n    pass\n"})
    commit(runtime, {"a.py": "x = 1\n"}, "remove")
    for i in range(3):
        commit(runtime, {f"f{i}.py": f"y{i} = 1\n"}, f"later {i}")
    ws.repo("docs", {"x.py": "# see `gone_helper()` in runtime\n"})
    config = ws.config()
    assert [c for c, *_ in findings(ws)] == ["AC203"]
    config.write_text(config.read_text() + "[settings]\nhistory-depth = 3\n")
    assert run_check(load_workspace(config)).findings == ()


def test_claims_into_two_files_with_the_same_content(ws: WorkspaceBuilder) -> None:
    body = "a: 1\nb: 2\n"
    ws.repo("r", {"x.yaml": body, "y.yaml": body,
                  "c.py": "# `b: 2` at x.yaml:2 and `b: 2` at y.yaml:9\n"})
    out = findings(ws)
    assert [(c, m.split(" is past")[0]) for c, _, _, m, _ in out] == [("AC201", "line 9")]


# The shapes as one regex each, as they were searched before mentions were found
# from their literals; the finder must give the same starts and names.
_TICK_WHOLE = re.compile(
    r"(?P<role>:(?:func|meth|class|obj|attr|data|exc):)?`[~!]?"
    r"(?P<name>[A-Za-z_]\w{0,100}(?:\.[A-Za-z_]\w{0,100}){0,10})(?P<call>\(\))?`"
)
_CALL_WHOLE = re.compile(r"(?<![\w.`])(?P<name>[A-Za-z_]\w{0,100}(?:\.[A-Za-z_]\w{0,100}){0,10})\(\)")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([*"ab_.`~!() \n:é1", ":func:", ":class:", "func:", "()", "x()", "`a`",
                                 "A.b", "ab" * 60]), max_size=30).map("".join))
def test_mentions_found_from_their_literals_match_the_whole_shapes(text: str) -> None:
    assert list(_tick_mentions(text)) == [
        (m.start(), m.group("name"), m.group("role") is not None, m.group("call") is not None)
        for m in _TICK_WHOLE.finditer(text)]
    assert list(_call_mentions(text)) == [(m.start(), m.group("name")) for m in _CALL_WHOLE.finditer(text)]


def test_suggestions_find_typos_of_every_length_difference() -> None:
    from anchorcheck.resolve.suggest import Suggester

    s = Suggester(["Join points", "Rollback on the degraded path", "Short", "Join"])
    for typo in ("Join pionts", "Join point", "Join pointss", "join  POINTS", "Jion points"):
        assert s.suggest(typo)[:1] == ["Join points"], typo
    assert s.suggest("Shrt") == ["Short"] and s.suggest("Nothing alike at all") == []
    # At most `n` suggestions (three by default), however many names are close.
    many = Suggester([f"abcd{i}" for i in range(9)])
    assert len(many.suggest("abcd")) == 3 and len(many.suggest("abcd", n=2)) == 2


@settings(max_examples=200, deadline=None)
@given(names=st.lists(st.text("abAB c", min_size=1, max_size=6), max_size=25),
       asked=st.lists(st.text("abAB c", min_size=1, max_size=7), min_size=1, max_size=10))
def test_the_deletion_index_finds_what_comparing_every_pair_finds(names: list[str], asked: list[str]) -> None:
    """Candidates are the names sharing a one-deletion string with the query (folded:
    case and spacing aside), then ranked by edit distance; the index (a name per
    deletion, a list only where several share one) is only a faster way to find them."""
    from anchorcheck.resolve.suggest import Suggester, _deletions, _fold, edit_distance

    s = Suggester(names)
    for query in asked:
        key = _fold(query)
        same = sorted(c for c in set(names) if _fold(c) == key and c != query)
        if same:
            expected = same[:3]
        else:
            close = {c for c in set(names) if _deletions(key) & _deletions(_fold(c)) and c != query}
            expected = [c for d, c in sorted((edit_distance(key, _fold(c), 2), c) for c in close) if d <= 2][:3]
        assert s.suggest(query) == expected


# The definition patterns of symbols.py as first written, without possessive runs.
_ASSIGNED_FN_PLAIN = re.compile(
    r"(?m)^[ \t]*(?:export[ \t]+)?(?:const|let|var|static)?[ \t]*([A-Za-z_$][\w$]*)[ \t]*[:=][ \t]*"
    r"(?:async[ \t]*)?(?:function\b|\([^)\n]{0,200}\)[ \t]*=>|[A-Za-z_$][\w$]*[ \t]*=>)"
)
_METHOD_PLAIN = re.compile(r"(?m)^[ \t]+(?:async[ \t]+|static[ \t]+|public[ \t]+|private[ \t]+)*"
                           r"([A-Za-z_$][\w$]*)[ \t]*\([^;\n]{0,300}\)[ \t]*\{")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([*" \t\nax_$(){};:=", "export ", "const", "let ", "static ", "async ",
                                 "public ", "function", "=>", "constant", "asyncX", "f(x) {"]),
                max_size=24).map("".join))
@example("static =function\n  async (x) {\nconstant = (a) =>")  # a keyword that is the name
def test_definition_patterns_with_possessive_runs_find_what_the_plain_ones_find(text: str) -> None:
    from anchorcheck.extract import symbols

    for possessive, plain in ((symbols._ASSIGNED_FN, _ASSIGNED_FN_PLAIN), (symbols._METHOD, _METHOD_PLAIN)):
        assert [m.span(1) for m in possessive.finditer(text)] == [m.span(1) for m in plain.finditer(text)]


def test_an_image_and_its_version_is_no_line_claim() -> None:
    from anchorcheck.extract.blob import ExtractOptions, extract

    text = ("sidecars: []\n"
            "#  - name: nvidia-dcgm-exporter\n"
            "#    image: nvidia/dcgm-exporter:1.4.3\n"
            "# see charts/exporter/values.yaml:12.\n")
    refs = [(r.kind.value, r.target_path, r.lines) for r in extract(text, "yaml", ExtractOptions()).references]
    assert refs == [("lines", "charts/exporter/values.yaml", (12, 12))]


def test_a_pasted_jvm_stack_frame_is_no_line_claim() -> None:
    from anchorcheck.extract.blob import ExtractOptions, extract

    text = ("// java.lang.StackOverflowError\n"
            "// at java.lang.Class.getDeclaredFields(Class.java:992)\n"
            "// at org.x.Foo.<init>(Foo.java:3)\n"
            "// the loop is in (see Foo.java:12), and Bar.java:4 holds the guard\n"
            "class T {}\n")
    refs = [(r.text, r.line) for r in extract(text, "c", ExtractOptions()).references]
    assert refs == [("Foo.java:12", 4), ("Bar.java:4", 4)]


def test_a_pasted_log_field_is_no_line_claim() -> None:
    from anchorcheck.extract.blob import ExtractOptions, extract

    # (A paragraph: an HTML comment held these lines before its content stopped being
    # read, as it is not rendered.)
    text = ("level=info ts=2022-03-23T11:55:29Z caller=main.go:112 msg=\"Starting\"\n"
            "level=error caller=manager.go:132 msg=\"up\" and see manager.go:132 = the guard\n")
    refs = [(r.text, r.line) for r in extract(text, "markdown", ExtractOptions()).references]
    assert refs == [("manager.go:132", 2)]


def test_an_address_and_port_is_no_line_claim() -> None:
    from anchorcheck.extract.blob import ExtractOptions, extract

    text = '// a value of "example/resource/%s" could become "example/resource/0.0.0.0:8080".\nvar x int\n'
    assert extract(text, "c", ExtractOptions()).references == ()


def test_ports_log_lines_stack_frames_and_dates_are_no_line_claims() -> None:
    from anchorcheck.extract.blob import ExtractOptions, extract

    text = ("# Serves a /health endpoint on :8080 and metrics on :9153.\n"
            "# I0204 15:04:05.123456    1 server.go:1048] POST /api\n"
            "# 23:59:59.123456 git.c:312               trace: built-in: git 'foo'\n"
            "# 2024-01-02 00:00:00,001 jobs.py:99 INFO started\n"
            "# pasted: handler.go:77] request done\n"
            "#   /go/src/app/main.go:123 +0x1d\n"
            "# coverage: helpers.go:2023-01-13 - 38.1%\n"
            "# `strategy: Recreate` at :3; see deploy.yaml:12 [and server.go:40] too\n"
            "x = 1\n")
    refs = sorted((r.line, r.text) for r in extract(text, "python", ExtractOptions()).references)
    assert refs == [(8, ":3"), (8, "deploy.yaml:12"), (8, "server.go:40")]


def test_a_c_function_whose_signature_wraps_is_defined() -> None:
    from anchorcheck.extract.symbols import defined_symbols

    src = ("static int path_matches(const char *pathname, int pathlen,\n"
           "                        const char *base, int baselen)\n{\n}\n"
           "\tfoo(a,\n\t    b);\n")
    assert defined_symbols(src, "c") == {"path_matches": 1}


def test_a_bare_file_line_is_a_place_in_the_citing_repo(ws: WorkspaceBuilder) -> None:
    """glog's `server.go:1048]` pasted into a chart matched helm's server.go by suffix:
    a bare FILE:N is looked for in the citing repo only (or in the repo its path names)."""
    ws.repo("helm", {"pkg/repo/server.go": "package repo\n"})
    ws.repo("chart", {"values.yaml": "# the probe is handled in server.go:12 upstream\nx: 1\n",
                      "templates/probe.yaml": "# see probe.go:40\nkind: Pod\n", "probe.go": "package p\n",
                      "notes.yaml": "# see helm/pkg/repo/server.go:9\ny: 2\n"})
    out = findings(ws)
    assert [(c, p, line) for c, p, line, _, _ in out] == [("AC201", "notes.yaml", 1), ("AC201", "templates/probe.yaml", 1)]
    assert "past the end of helm:pkg/repo/server.go" in out[0][3] and "past the end of chart:probe.go" in out[1][3]


def test_quoted_tool_output_and_markdown_claims_about_the_block_above_are_not_claims(ws: WorkspaceBuilder) -> None:
    files = {f"tests/t{i}/Foo.hs": "module Foo where\n" for i in range(8)}  # GHC's testsuite has 62
    files["tests/t0/Main.hs"] = "-- the error is reported at Foo.hs:7, as expected\nmain = pure ()\n"
    files["tests/driver/Run.hs"] = "-- expected: the error at Foo.hs:7\nrun = pure ()\n"  # none beside it
    files["docs/guide.md"] = "# Guide\n\n```yaml\nstrategy:\n  type: Recreate\n```\n\nThe `type: Recreate` at :2 matters.\n"
    files["docs/other.md"] = "# Other\n\nSee `x` at a.py:2.\n"
    files["a.py"] = "x = 1\n"
    ws.repo("ghc", files)
    out = findings(ws)
    # Foo.hs beside Main.hs is still the one meant there; the page's claim names no file.
    assert [(c, p, line) for c, p, line, _, _ in out] == [("AC201", "docs/other.md", 3), ("AC201", "tests/t0/Main.hs", 1)]


def test_a_dotted_key_path_in_a_links_text_stands_on_its_line_as_its_last_part(ws: WorkspaceBuilder) -> None:
    # helm-docs' VALUES.md: `[agent.TTYEnabled](./values.yaml#L3)` over `TTYEnabled: false`.
    values = "agent:\n  # -- Allocate a pseudo tty\n  TTYEnabled: false\n  image: jenkins\n"
    table = ("| Key | Type |\n|:----|:-----|\n| [agent.TTYEnabled](./values.yaml#L3) | bool |\n"
             "| [agent.image](./values.yaml#L3) | string |\n")
    ws.repo("charts", {"charts/jenkins/values.yaml": values, "charts/jenkins/VALUES.md": table})
    out = findings(ws)
    assert [(c, p, line, s) for c, p, line, _, s in out] == [("AC201", "charts/jenkins/VALUES.md", 4, "4")]


def test_facts_restated_finds_the_seeds_hardcoded_port_and_ac207_its_passthrough(ws: WorkspaceBuilder) -> None:
    deploy = (
        "spec:\n  template:\n    spec:\n      containers:\n        - name: jobs-manager\n"
        "          env:\n          {{- range $k, $v := .Values.env }}\n            - name: {{ $k }}\n"
        "              value: {{ $v | quote }}\n          {{- end }}\n"
        "          ports:\n            - containerPort: 8080\n"  # 12
        "          readinessProbe:\n            tcpSocket:\n              port: 8080\n"  # 15
        "          livenessProbe:\n            tcpSocket:\n"
        "              port: 8080  # restates client-runtime:jobs_manager.py::env.INGESTION_HTTP_PORT\n"  # marked
    )
    ws.repo("client", {"Chart.yaml": "name: client\nversion: 1.9.58\n", "templates/jobs-manager-deployment.yaml": deploy,
                       "values.yaml": "replicas: 1\nenv: {}\n"})
    ws.repo("client-runtime", {"jobs_manager.py": 'import os\n\nPORT = int(os.getenv("INGESTION_HTTP_PORT", "8080"))\n'})
    # Two charts setting the same env value restate no program's read (only code reads).
    ws.repo("a-chart", {"ci/env-values.yaml": "env:\n  TEST_ENV: test\n"})
    ws.repo("b-chart", {"ci/env-values.yaml": "env:\n  TEST_ENV: test\n"})
    ws.config()
    out = json.loads(run_cli("facts", "--restated", "--format", "json", "--no-cache", cwd=ws.root).out)["restated"]
    assert [(r["path"], r["line"], r["passthrough"]) for r in out] == [
        ("templates/jobs-manager-deployment.yaml", 12, True), ("templates/jobs-manager-deployment.yaml", 15, True)]
    assert out[0]["fact"] == "client-runtime:jobs_manager.py::env.INGESTION_HTTP_PORT"
    assert out[0]["marker"] == "# restates client-runtime:jobs_manager.py::env.INGESTION_HTTP_PORT"
    toml = run_cli("facts", "--restated", "--format", "toml", "--no-cache", cwd=ws.root).out
    assert tomllib.loads(toml.replace("[[contract]]", "[[c]]"))["c"][0]["facts"][1].endswith("::spec.template.spec."
                                                                                           "containers.ports.containerPort")
    # AC207 is off by default; on, it tells both lines.
    assert "AC207" not in run_cli("check", "--no-cache", cwd=ws.root).out
    run = run_cli("check", "--no-cache", "--enable", "AC207", "--format", "json", cwd=ws.root)
    assert [(f["code"], f["line"], f["severity"]) for f in json.loads(run.out)["findings"]] == [
        ("AC207", 12, "info"), ("AC207", 15, "info")]
