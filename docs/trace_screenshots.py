"""Regenerate the trace page's screenshots in docs/ (run from the top of the checkout).

Writes the pages of ``pram trace sort --n 8`` and ``pram trace pbs-naive --n 16`` and takes a
screenshot of each in headless Chromium (the system's package, driven by Selenium, as the tests
do): the sort at a step of its network, the naive search at its first conflict step.

    python docs/trace_screenshots.py
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

from pram.reports.cli import main

DOCS = Path(__file__).resolve().parent
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--window-size=1200,760", "--hide-scrollbars"]
SHOTS = [  # (command, the step to show, the processor to follow, the screenshot)
    (["sort", "--n", "8"], 6, 1, "trace_sort8.png"),
    (["pbs-naive", "--n", "16"], 2, 11, "trace_pbs_naive.png"),
]


def shoot() -> None:
    """Write both pages into a scratch folder and save their screenshots into docs/."""
    scratch = Path(tempfile.mkdtemp(prefix="pram-shots-"))
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in [*FLAGS, f"--user-data-dir={scratch / 'profile'}"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options
    )
    try:
        for argv, step, pid, name in SHOTS:
            page = scratch / f"{argv[0]}.html"
            assert main(["trace", *argv, "--html", str(page)]) == 0
            driver.get(page.as_uri())
            driver.execute_script(
                "const j = document.getElementById('jump'); j.value = arguments[0];"
                "j.dispatchEvent(new Event('change'));"
                "const p = document.getElementById('pid'); p.value = arguments[1];"
                "p.dispatchEvent(new Event('input'));", step, pid)
            driver.save_screenshot(str(DOCS / name))
            print(f"wrote {DOCS / name}")
    finally:
        driver.quit()
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    shoot()
