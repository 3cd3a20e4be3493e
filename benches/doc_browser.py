#!/usr/bin/env python3
"""Issue 33: a `calimcp doc` page in Chromium — load time, and the method
filter narrowing it to one method (script, then a forced layout).

usage: benches/doc_browser.py PAGE.html   (after benches/doc.sh; the
Playwright venv and system Chromium the browser tests use)
    ~/.cache/calimcp/browser-venv/bin/python benches/doc_browser.py target/bench/site5000/m5000.html
"""
import os
import pathlib
import sys
import time

from playwright.sync_api import sync_playwright

page_path = pathlib.Path(sys.argv[1]).resolve()
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=os.environ.get("CALIMCP_CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
    page = browser.new_page()
    t = time.time()
    page.goto(page_path.as_uri(), timeout=300_000)
    load = time.time() - t
    sections = page.locator("section.method")
    name = sections.nth(sections.count() // 4).get_attribute("data-name")
    script_ms, total_ms = page.evaluate(
        """n => { const f = document.getElementById("filter"); const t = performance.now();
                  f.value = n; f.dispatchEvent(new Event("input")); const a = performance.now() - t;
                  document.body.offsetHeight; return [a, performance.now() - t]; }""",
        name,
    )
    shown = page.evaluate("() => document.querySelectorAll('section.method:not([hidden])').length")
    print(f"load {load:.2f} s; filter to `{name}`: {script_ms:.0f} ms script, {total_ms:.0f} ms with layout; {shown} shown")
    browser.close()
