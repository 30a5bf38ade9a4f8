"""The graph page of a real workspace in headless Chromium: how long until it is usable.

    python benchmarks/graph_page.py CONFIG [--out /tmp/graph-page] [--repeat 3]

Runs `anchorcheck graph --format html` on the workspace CONFIG names, opens the page in
Chromium (selenium, as the browser tests do), and times, best of REPEAT: loading until
the page says it is ready (the overview drawn), a click on the repo with the most
problems until its files are drawn, and a click on its first file. Prints the node
count, the page size and the times; saves overview.png, repo.png and file.png in OUT and
lists any console error.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

READY = "return window.anchorcheckReady === true"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("config", type=Path)
    parser.add_argument("--out", type=Path, default=Path("/tmp/graph-page"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    page = args.out / "graph.html"
    subprocess.run([sys.executable, "-m", "anchorcheck", "graph", "--config", str(args.config), "-q",
                    "--format", "html", "-o", str(page)], check=True)
    text = page.read_text(encoding="utf-8")
    start = text.index('type="application/json">') + len('type="application/json">')
    data = json.loads(text[start:text.index("</script>", start)])

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(shutil.which("chromedriver") or "chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    times: dict[str, float] = {"load": 1e9, "repo": 1e9, "file": 1e9}
    try:
        for _ in range(args.repeat):
            t = time.perf_counter()
            driver.get(page.as_uri())
            WebDriverWait(driver, 60).until(lambda d: d.execute_script(READY))
            times["load"] = min(times["load"], time.perf_counter() - t)
            driver.save_screenshot(str(args.out / "overview.png"))
            worst = max(driver.find_elements(By.CSS_SELECTOR, "#canvas .box"),
                        key=lambda b: int((b.text.split("\n")[-1].split() or ["0"])[0])
                        if "problem" in b.text else 0)
            t = time.perf_counter()
            worst.click()
            boxes = driver.find_elements(By.CSS_SELECTOR, "#canvas .box")
            times["repo"] = min(times["repo"], time.perf_counter() - t)
            driver.save_screenshot(str(args.out / "repo.png"))
            t = time.perf_counter()
            boxes[0].click()
            driver.find_element(By.ID, "file")
            times["file"] = min(times["file"], time.perf_counter() - t)
            driver.save_screenshot(str(args.out / "file.png"))
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        problems = len(driver.find_elements(By.CSS_SELECTOR, "#problems .problem"))
    finally:
        driver.quit()
    print(f"{len(data['nodes'])} nodes, {len(data['links'])} links, page {page.stat().st_size / 1e6:.1f} MB; "
          f"ready {times['load']:.2f} s, a repo {times['repo']:.2f} s, a file {times['file']:.2f} s "
          f"(best of {args.repeat}); {problems} problems listed; console errors: {errors or 'none'}")


if __name__ == "__main__":
    main()
