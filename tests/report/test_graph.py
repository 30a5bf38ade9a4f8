"""`anchorcheck graph`: every format parses back, filters select what they say, and the
HTML page works in a real headless browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import networkx as nx
import pydot
import pytest

from anchorcheck.check.pipeline import run_check
from anchorcheck.config.workspace import load_workspace
from anchorcheck.report.graph_export import (
    MERMAID_MAX_CHARS,
    MERMAID_MAX_EDGES,
    collapse,
    export_graph,
    to_html,
    to_mermaid,
)
from tests.conftest import WorkspaceBuilder, run_cli

ROOT = Path(__file__).resolve().parents[2]  # the checkout: tests/<wing>/this file
ARTIFACTS = ROOT / "test-artifacts"
DEPLOY = "spec:\n  # ROLLBACK ON THE DEGRADED PATH\n  # Recreate plus --atomic rolls back.\n  strategy: Recreate\n"
HOSTILE = "# EVIL <script>window.pwned=1</script> HEADING\n# <img src=x onerror=\"window.pwned=2\">\n"


def workspace(ws: WorkspaceBuilder) -> None:
    ws.repo("client", {"templates/deploy.yaml": DEPLOY, "templates/cron.yaml": "kind: CronJob\n"})
    ws.repo("runtime", {"jobs.py": (
        "# see ROLLBACK ON THE DEGRADED PATH in client/templates/deploy.yaml\n"
        "# see ROLLBACK ON THE DEGRADED PATH in client/templates/cron.yaml\n"
        '# see "EVIL <script>window.pwned=1</script> HEADING" in client:templates/deploy.yaml\n'
    ), "other.py": "# SOME LONELY HEADING\n# Body.\n"})
    ws.repo("backend", {"notes.md": "# Notes\n\nUnrelated.\n"})
    ws.config()


def graph_out(ws: WorkspaceBuilder, *args: str) -> str:
    r = run_cli("graph", *args, cwd=ws.root)
    assert r.code == 0, r.err
    return r.out


def test_json_parses_back_with_networkx(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    g = nx.node_link_graph(json.loads(graph_out(ws, "--format", "json")), edges="links")
    types = {d["type"] for _, d in g.nodes(data=True)}
    assert types == {"repo", "file", "anchor", "reference"}
    anchor = next(n for n, d in g.nodes(data=True) if d["label"] == "ROLLBACK ON THE DEGRADED PATH")
    citing = [u for u, _, k in g.in_edges(anchor, keys=True) if k == "resolves"]
    assert len(citing) == 1
    bad = [d for _, d in g.nodes(data=True) if d["codes"]]
    assert sorted(d["codes"] for d in bad) == ["AC101", "AC102"]


def test_graphml_parses_back(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    workspace(ws)
    path = tmp_path / "g.graphml"
    path.write_text(graph_out(ws, "--format", "graphml"))
    g = nx.read_graphml(path)
    assert any(d.get("label") == "ROLLBACK ON THE DEGRADED PATH" for _, d in g.nodes(data=True))


def test_dot_parses_back_with_clusters_and_dashed_problems(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    text = graph_out(ws, "--format", "dot")
    [graph] = pydot.graph_from_dot_data(text)
    clusters = {sg.get_label().strip('"') for sg in graph.get_subgraphs()}
    assert clusters == {"client", "runtime", "backend"}
    assert 'style="dashed", color="red"' in text


# The lines we emit, in Mermaid's flowchart grammar: a repo drawn as a node is a
# subroutine box (`[["repo"]]`); a file holds its references by a link without a head
# (`---`), a reference cites by an arrow.
_MERMAID_LINE = re.compile(
    r'^(flowchart LR|  subgraph r\d+\["[^"]*"\]|  end|    n\d+(\["[^"]*"\]|\("[^"]*"\)|\[/"[^"]*"/\])'
    r'|  n\d+\[\["[^"]*"\]\]'
    r'|  n\d+ (-->|-\.->|---) (\|\d+\|)?n\d+|  classDef problem .*|  class (n\d+,?)+ problem)$'
)


def mermaid_ok(text: str) -> None:
    lines = text.rstrip("\n").split("\n")
    assert lines[0] == "flowchart LR"
    for line in lines:
        assert _MERMAID_LINE.match(line), line
    assert text.count("subgraph") == text.count("\n  end")


def test_mermaid_grammar_and_escaping(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    text = graph_out(ws, "--format", "mermaid")
    mermaid_ok(text)
    assert "<script>" not in text and "#lt;script#gt;" in text


def test_filters(ws: WorkspaceBuilder) -> None:
    workspace(ws)

    def labels(*args: str) -> set[str]:
        doc = json.loads(graph_out(ws, "--format", "json", *args))
        return {n["label"] for n in doc["nodes"]}

    everything = labels()
    assert "Notes" in everything and "SOME LONELY HEADING" in everything
    only_backend = labels("--only-repo", "backend")
    assert "Notes" in only_backend and "ROLLBACK ON THE DEGRADED PATH" not in only_backend
    around = labels("--anchor", "ROLLBACK ON THE DEGRADED PATH", "--depth", "1")
    assert "ROLLBACK ON THE DEGRADED PATH" in around and "Notes" not in around
    assert "templates/deploy.yaml" in around  # the file that defines it
    problems = labels("--problems")
    assert "SOME LONELY HEADING" not in problems and "Notes" not in problems
    assert any("cron.yaml" in label for label in problems)
    files = json.loads(graph_out(ws, "--format", "json", "--collapse", "files"))
    assert {n["type"] for n in files["nodes"]} <= {"file", "repo"}
    cites = [e for e in files["links"] if e["relation"] == "cites"]
    assert all(e["count"] >= 1 for e in cites)
    repos = json.loads(graph_out(ws, "--format", "json", "--collapse", "repos"))
    assert {n["id"] for n in repos["nodes"]} == {"repo:client", "repo:runtime", "repo:backend"}
    bad = run_cli("graph", "--only-repo", "nope", cwd=ws.root)
    assert bad.code == 2 and "'nope' is not a workspace repo" in bad.err
    # --repo is the workspace option here as everywhere (it once clashed with the filter).
    extra = run_cli("graph", "--format", "json", "--repo", f"more={ws.repos['backend']}", cwd=ws.root)
    assert extra.code == 0 and "UserWarning" not in extra.err, extra.err
    assert "repo:more" in {n["id"] for n in json.loads(extra.out)["nodes"]}


def big_workspace(ws: WorkspaceBuilder, anchors: int = 2000) -> None:
    files = {}
    for f in range(anchors // 20):
        body = "".join(f"# SECTION NUMBER {f} PART {i}\n# Body.\nx{i} = {i}\n" for i in range(20))
        files[f"pkg/mod{f}.py"] = body
    files["index.py"] = "".join(f"# see SECTION NUMBER {f} PART 3 in pkg/mod{f}.py\n" for f in range(anchors // 20))
    ws.repo("big", files)
    ws.repo("other", {"a.py": "# see SECTION NUMBER 1 PART 1 in big:pkg/mod1.py\n"})
    ws.config()


def test_mermaid_collapses_under_github_limits(ws: WorkspaceBuilder) -> None:
    big_workspace(ws)
    result = run_check(load_workspace(ws.root / "anchorcheck.toml"))
    g = export_graph(result)
    text = to_mermaid(g)
    assert len(text) <= MERMAID_MAX_CHARS
    assert text.count(" --> ") + text.count(" -.-> ") <= MERMAID_MAX_EDGES
    mermaid_ok(text)
    assert "SECTION NUMBER" not in text  # collapsed: files, not anchors
    assert len(to_mermaid(collapse(g, "repos"))) < 1000


# -- the HTML page in a real browser ------------------------------------------------


def _browser():  # type: ignore[no-untyped-def]
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver_path = shutil.which("chromedriver")
    if not (chromium and driver_path):
        why = "Chromium and chromedriver are not installed, so the graph page is not tried in a browser " \
              "(.ci/run installs them; Debian: apt-get install chromium chromium-driver)"
        if os.environ.get("ANCHORCHECK_REQUIRE_BROWSER"):
            pytest.fail(why + "; ANCHORCHECK_REQUIRE_BROWSER is set")
        pytest.skip(why)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1400,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(driver_path), options=options)


def _page(ws: WorkspaceBuilder, tmp_path: Path, name: str = "graph.html") -> Path:
    page = tmp_path / name
    r = run_cli("graph", "--format", "html", "-o", str(page), cwd=ws.root)
    assert r.code == 0, r.err
    return page


def _ready(driver) -> bool:  # type: ignore[no-untyped-def]
    """Whether the page says it is drawn, waited for: WebDriver's get() may come back
    before the script of a large page has run."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, 60).until(lambda d: d.execute_script("return window.anchorcheckReady === true"))
    return True


def _no_console_errors(driver) -> None:  # type: ignore[no-untyped-def]
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def test_html_page_in_headless_chromium(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    workspace(ws)
    ws.with_urls("acme", "client", "runtime")
    page = _page(ws, tmp_path)
    html = page.read_text()
    assert "<script>window.pwned" not in html  # the comment's text is data, not markup
    assert "http://" not in html.replace('"http://www.w3.org/2000/svg"', "")
    findings = json.loads(run_cli("check", "--format", "json", "--fail-on", "never", cwd=ws.root).out)["findings"]
    driver = _browser()
    try:
        driver.get(page.as_uri())
        assert _ready(driver)
        assert driver.execute_script("return window.pwned === undefined")
        _no_console_errors(driver)
        # The overview: every repo a box, the cross-repo edge with its count and arrow.
        labels = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#canvas .box")]
        assert sorted(t.split("\n")[0] for t in labels) == ["backend", "client", "runtime"]
        counts = [t.text for t in driver.find_elements(By.CSS_SELECTOR, "#canvas .count")]
        assert counts == ["2 (1 broken)"]
        assert driver.find_elements(By.CSS_SELECTOR, "#canvas path.edge[marker-end]")
        runtime = next(b for b in driver.find_elements(By.CSS_SELECTOR, "#canvas .box") if b.text.startswith("runtime"))
        assert "problem" in runtime.text
        ARTIFACTS.mkdir(exist_ok=True)
        driver.save_screenshot(str(ARTIFACTS / "graph-overview.png"))
        # The problems panel: every finding, with its message, linked at the commit.
        panel = [p.text for p in driver.find_elements(By.CSS_SELECTOR, "#problems .problem")]
        assert len(panel) == len(findings)
        for f in findings:
            assert any(f["message"] in row for row in panel), f["message"]
        link = driver.find_element(By.CSS_SELECTOR, "#problems .problem a").get_attribute("href")
        assert link.startswith("https://github.com/acme/runtime/blob/") and "#L" in link
        # Drill down: the repo, then a file with its references and what they cite.
        runtime.click()
        files = [b.text for b in driver.find_elements(By.CSS_SELECTOR, "#canvas .box")]
        assert any(t.startswith("jobs.py") for t in files) and any(t.startswith("client:") for t in files)
        next(b for b in driver.find_elements(By.CSS_SELECTOR, "#canvas .box") if b.text.startswith("jobs.py")).click()
        text = driver.find_element(By.ID, "file").text
        assert "ROLLBACK ON THE DEGRADED PATH" in text and "-> " not in text
        assert "\u2192 ROLLBACK ON THE DEGRADED PATH at client:templates/deploy.yaml:2" in text
        assert "<script>window.pwned=1</script>" in text  # shown as text
        driver.save_screenshot(str(ARTIFACTS / "graph-file.png"))
        # Back (the button, then the browser's own), and search.
        driver.find_element(By.ID, "back").click()
        assert any(b.text.startswith("jobs.py") for b in driver.find_elements(By.CSS_SELECTOR, "#canvas .box"))
        driver.back()
        driver.back()
        assert len(driver.find_elements(By.CSS_SELECTOR, "#canvas .box")) == 3  # the overview again
        search = driver.find_element(By.ID, "search")
        search.send_keys("ROLLBACK")
        rows = driver.find_elements(By.CSS_SELECTOR, "#results .result")
        next(row for row in rows if row.text == "anchor: ROLLBACK ON THE DEGRADED PATH").click()
        focused = driver.find_element(By.CSS_SELECTOR, "#file .item.sel")
        assert focused.text.startswith(":2  ROLLBACK ON THE DEGRADED PATH")
        assert "cited by runtime:jobs.py:1" in driver.find_element(By.ID, "file").text
        # Keyboard: Backspace goes up a level, arrows move, Enter opens.
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.BACKSPACE)
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.BACKSPACE)
        assert len(driver.find_elements(By.CSS_SELECTOR, "#canvas .box")) == 3
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        assert driver.find_element(By.ID, "crumbs").text == "workspace / backend"
        assert driver.execute_script("return window.pwned === undefined")
        _no_console_errors(driver)
    finally:
        driver.quit()


def test_html_with_2000_anchors_renders_quickly(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    big_workspace(ws)
    result = run_check(load_workspace(ws.root / "anchorcheck.toml"))
    g = export_graph(result)
    assert sum(1 for _, d in g.nodes(data=True) if d["type"] == "anchor") == 2000
    page = tmp_path / "big.html"
    page.write_text(to_html(g))
    # A page of an eighth of the graph, loaded first in the same browser: the big page
    # must cost about eight times as much, not the square (no wall-time bound: it
    # failed on a loaded machine).
    eighth = g.subgraph(list(g.nodes)[: g.number_of_nodes() // 8]).copy()
    small = tmp_path / "small.html"
    small.write_text(to_html(eighth))
    driver = _browser()
    try:
        times = {}
        for name, path in (("small", small), ("big", page)):
            best = float("inf")
            for _ in range(2):
                start = time.perf_counter()
                driver.get(path.as_uri())
                assert _ready(driver)
                best = min(best, time.perf_counter() - start)
            times[name] = best
        # Usable: the overview is drawn, and opening the repo draws its files.
        boxes = driver.find_elements(By.CSS_SELECTOR, "#canvas .box")
        assert boxes
        boxes[0].click()
        assert len(driver.find_elements(By.CSS_SELECTOR, "#canvas .box")) > 1
        _no_console_errors(driver)
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "graph-2000-anchors.txt").write_text(
            f"load+render: {times['big']:.3f}s for {g.number_of_nodes()} nodes, "
            f"{times['small']:.3f}s for {eighth.number_of_nodes()}\n")
        assert times["big"] / max(times["small"], 0.01) < 24, times
    finally:
        driver.quit()


# -- views that say something (issue 29) --------------------------------------------


def test_repo_views_draw_repos_and_their_citation_counts(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    mermaid = graph_out(ws, "--collapse", "repos")
    mermaid_ok(mermaid)
    ids = dict(re.findall(r'^  (n\d+)\[\["([^"]+)"\]\]$', mermaid, re.M))
    assert sorted(ids.values()) == ["backend", "client", "runtime"]
    runtime, client = (next(i for i, name in ids.items() if name == n) for n in ("runtime", "client"))
    # The runtime's citations that reach the client: one resolves, one names the wrong
    # file (so the arrow is dashed); the third names a heading that exists nowhere.
    assert re.search(rf"^  {runtime} -\.-> \|2\|{client}$", mermaid, re.M), mermaid
    dot = pydot.graph_from_dot_data(graph_out(ws, "--collapse", "repos", "--format", "dot"))[0]
    assert sorted(n.get_name().strip('"') for n in dot.get_nodes() if n.get_name() not in ("node", "graph")) \
        == ["repo:backend", "repo:client", "repo:runtime"]
    [edge] = dot.get_edges()
    assert (edge.get_source().strip('"'), edge.get_destination().strip('"'), edge.get("label").strip('"')) \
        == ("repo:runtime", "repo:client", "2")


def test_a_default_view_too_large_for_mermaid_says_it_collapsed(ws: WorkspaceBuilder) -> None:
    big_workspace(ws)
    r = run_cli("graph", cwd=ws.root)
    assert r.code == 0, r.err
    assert "collapsed to" in r.err and "too large for Mermaid" in r.err
    assert " --> " in r.out or " -.-> " in r.out or "[[" in r.out  # not an empty flowchart
    empty = run_cli("graph", "--anchor", "NO SUCH ANCHOR ANYWHERE", cwd=ws.root)
    assert empty.code == 0 and "the view is empty" in empty.err


def test_findings_belong_to_the_reference_that_caused_them(ws: WorkspaceBuilder) -> None:
    # A resolved link and a broken one on the same line: only the broken one is a problem.
    ws.repo("r", {"README.md": "See [the PV](templates/nfs-pv.yaml) and [gone](templates/gone.yaml).\n",
                  "templates/nfs-pv.yaml": "kind: PersistentVolume\n"})
    ws.config()
    g = nx.node_link_graph(json.loads(graph_out(ws, "--format", "json")), edges="links")
    refs = {d["label"] or n: (d["status"], d["codes"], d["messages"]) for n, d in g.nodes(data=True)
            if d["type"] == "reference"}
    by_status = sorted(refs.values())
    assert [(s, c) for s, c, _ in by_status] == [("dangling-path", "AC105"), ("resolved", "")]
    assert "AC105" in by_status[0][2] and "gone.yaml" in by_status[0][2]


def test_mermaid_draws_each_file_holding_its_references(ws: WorkspaceBuilder) -> None:
    workspace(ws)
    text = graph_out(ws, "--only-repo", "runtime")
    mermaid_ok(text)
    assert " --- " in text  # the file jobs.py holds its three references


def test_svg_and_png_through_graphviz_or_a_clear_error(ws: WorkspaceBuilder, tmp_path: Path) -> None:
    workspace(ws)
    if shutil.which("dot") is None:
        r = run_cli("graph", "--format", "svg", cwd=ws.root)
        assert r.code == 2 and r.err.count("\n") == 1 and "Graphviz" in r.err
        assert os.environ.get("ANCHORCHECK_REQUIRE_BROWSER") != "1", "CI installs graphviz (.ci/run)"
        return
    svg = run_cli("graph", "--format", "svg", "--collapse", "repos", cwd=ws.root)
    assert svg.code == 0, svg.err
    assert "<svg" in svg.out and "runtime" in svg.out
    out = tmp_path / "g.png"
    png = run_cli("graph", "--format", "png", "-o", str(out), cwd=ws.root)
    assert png.code == 0, png.err
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    # Without dot on PATH: one line, exit 2.
    no_dot = tmp_path / "bin"
    no_dot.mkdir()
    os.symlink(shutil.which("git") or "/usr/bin/git", no_dot / "git")
    env_path = f"{no_dot}"
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "anchorcheck", "graph", "--format", "svg"], cwd=ws.root,
                          capture_output=True, text=True, env={**os.environ, "PATH": env_path}, check=False)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Graphviz" in done.stderr, done.stderr
