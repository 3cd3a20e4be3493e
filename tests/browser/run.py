#!/usr/bin/env python3
"""calimcp's reference pages in a real browser: the system Chromium driven by
Playwright for Python (never a downloaded browser build).

- every fixture app's static page (`calimcp doc`) renders every method, with
  no console error and no network request; the filter and `/` work; without
  JavaScript the content is all there;
- `serve --http`: the try-it forms call the fake node through the server's
  own /mcp endpoint and show the result; an invalid input is refused in the
  page before any request; the context chooser lists the app's contexts;
- `serve --http --read-only`: [mut] tools have no form;
- parameters named after DOM methods (`querySelector`, `closest`,
  `getAttribute`, `addEventListener`, ...), which become properties of their
  form, never stop that form or a later one from working (issue 47);
- axe-core finds no serious or critical issue on a static and a served page;
- an app's guide (a bundle's `metadata.guide`) renders as markdown under the
  page's own CSP, its raw HTML (`<script>`, an `onerror` handler) inert text,
  and its icon (a `data:` image) loads;
- `serve --http --allow-origin`: a host page of that origin calls a tool
  across origins (the CORS preflight answered); a page of another origin
  cannot;
- a minimal MCP Apps host page loads the `ui://calimcp/reference` resource of
  a real `calimcp serve` into a sandboxed iframe, and a try-it call travels
  over the postMessage bridge to the server.

Run by tests/browser.rs (`cargo test --test browser`) and .ci/run. Needs
CALIMCP_BIN, CALIMCP_FAKE_NODE (built binaries), CALIMCP_CHROMIUM (default
/usr/bin/chromium) and tests/browser/node_modules/axe-core (npm install in
tests/browser). Exits 1 on any failure, printing each.
"""

import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import urllib.request

from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("CALIMCP_BIN", str(ROOT / "target/debug/calimcp"))
FAKE = os.environ.get("CALIMCP_FAKE_NODE", str(ROOT / "target/debug/examples/fake-node"))
CHROMIUM = os.environ.get("CALIMCP_CHROMIUM", "/usr/bin/chromium")
FIXTURES = ROOT.parent / "shared/fixtures/abi"
AXE = ROOT / "tests/browser/node_modules/axe-core/axe.min.js"
TIMEOUT_MS = 20_000

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)


STATE = tempfile.mkdtemp(prefix="calimcp-browser-")
ENV = {
    "PATH": os.environ.get("PATH", ""),
    "HOME": STATE,
    "CALIMCP_STATE_DIR": STATE,
}


def calimcp(*args, **kw):
    return subprocess.run([BIN, *args], env={**ENV, **kw.pop("env", {})}, capture_output=True, text=True, timeout=120, **kw)


class Watch:
    """What a page logs and fetches."""

    def __init__(self, page):
        self.errors, self.requests = [], []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r))

    def mcp_posts(self):
        return [r for r in self.requests if r.method == "POST" and r.url.endswith("/mcp")]

    def tool_calls(self):
        """The POSTs that call a tool (the context chooser's reads run beside them)."""
        return [r for r in self.mcp_posts() if '"tools/call"' in (r.post_data or "")]


def axe(page, what):
    if not AXE.exists():
        check(os.environ.get("CI") != "true", f"{what}: axe-core is installed (npm install in tests/browser)")
        print(f"skipped: {what}: accessibility check, axe-core is not installed", flush=True)
        return
    page.add_script_tag(content=AXE.read_text())
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    bad = [f"{v['id']} ({v['impact']}): {v['help']} x{len(v['nodes'])}" for v in result["violations"] if v["impact"] in ("serious", "critical")]
    check(not bad, f"{what}: no serious accessibility issue {bad}")


# ---- static pages ---------------------------------------------------------------


def static_pages(browser):
    fixtures = sorted(p for p in FIXTURES.glob("*.json") if not p.name.startswith("bundle-"))
    check(len(fixtures) >= 17, f"the fixture corpus is there ({len(fixtures)} manifests)")
    site = pathlib.Path(tempfile.mkdtemp(prefix="calimcp-site-"))
    pages = []
    for f in fixtures:
        described = json.loads(calimcp("describe", str(f), "--json", "--offline").stdout)
        services = described if isinstance(described, list) else [described]
        expected = sum(len(s["methods"]) for s in services)
        out = site / f.stem
        r = calimcp("doc", str(f), "-o", str(out), "--offline")
        check(r.returncode == 0, f"calimcp doc {f.name}: {r.stderr.strip()}")
        for html in out.glob("*.html"):
            pages.append((f.name, html, expected))
    ctx = browser.new_context(bypass_csp=True)
    for name, html, expected in pages:
        page = ctx.new_page()
        w = Watch(page)
        page.goto(html.as_uri())
        sections = page.locator("section.method").count()
        check(sections == expected, f"{name}: {sections} of {expected} methods rendered")
        check(page.locator("nav li[data-name]").count() == expected, f"{name}: every method in the navigation")
        check(not w.errors, f"{name}: no console errors {w.errors}")
        others = [r.url for r in w.requests if r.url != html.as_uri()]
        check(not others, f"{name}: no network requests {others[:3]}")
        if expected:
            first = page.locator("section.method").first.get_attribute("data-name")
            page.keyboard.press("/")
            check(page.evaluate("document.activeElement.id") == "filter", f"{name}: / focuses the filter")
            page.keyboard.type(first)
            shown = page.locator("section.method:visible")
            names = [shown.nth(i).get_attribute("data-name") for i in range(shown.count())]
            check(names and all(first in n for n in names), f"{name}: the filter keeps only matching methods")
        if name == "mero-mcp-scaffolding-e2e.json":
            page.keyboard.press("Escape")
            axe(page, f"{name} (static)")
        page.close()
    kv = site / "kv"
    calimcp("doc", str(ROOT / "examples/kv-store"), "-o", str(kv))
    page = ctx.new_page()
    page.goto((kv / "kv_store.html").as_uri())
    axe(page, "examples/kv-store (static)")
    page.close()
    ctx.close()
    # Without JavaScript the content is all there; only the filter is not.
    nojs = browser.new_context(java_script_enabled=False)
    page = nojs.new_page()
    page.goto((kv / "kv_store.html").as_uri())
    check(page.locator("section.method").count() == 7, "without JavaScript every kv-store method (init too) is on the page")
    check(page.locator("#filter").is_hidden(), "without JavaScript the filter (which needs it) is hidden")
    nojs.close()


PNG_1X1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="


def guide_page(browser):
    bundle = pathlib.Path(tempfile.mkdtemp(prefix="calimcp-guide-"))
    (bundle / "abi.json").write_text((ROOT / "tests/support/abi/kv-store.json").read_text())
    guide = (
        "Intro with <b onclick=\"window.__guideRan = 1\">bold</b>.\n\n## Procedures\n\n### Store a value\n\n"
        "<script>window.__guideRan = 2</script>\n\n<img src=\"x\" onerror=\"window.__guideRan = 3\">\n"
    )
    manifest = {
        "package": "com.example.guided",
        "appVersion": "1.0.0",
        "abi": {"path": "abi.json"},
        "metadata": {"name": "Guided", "guide": guide, "icon": "data:image/png;base64," + PNG_1X1},
    }
    (bundle / "manifest.json").write_text(json.dumps(manifest))
    site = pathlib.Path(tempfile.mkdtemp(prefix="calimcp-guide-site-"))
    r = calimcp("doc", str(bundle), "-o", str(site), "--offline")
    check(r.returncode == 0, f"calimcp doc of a bundle with a guide: {r.stderr.strip()}")
    pages = list(site.glob("*.html"))
    check(len(pages) == 1, f"one page for the bundle: {pages}")
    out = pages[0]
    # The page's own CSP applies (no bypass): the icon must load under it.
    ctx = browser.new_context()
    page = ctx.new_page()
    w = Watch(page)
    page.goto(out.as_uri())
    body = page.locator(".guide-body")
    check(body.locator("h5", has_text="Store a value").count() == 1, "the guide's markdown is rendered (a procedure heading)")
    check("<script>window.__guideRan = 2</script>" in body.inner_text(), "a <script> in the guide is shown as text")
    check(body.locator("script, img, b").count() == 0, "no element of the guide's raw HTML exists")
    check(page.evaluate("window.__guideRan === undefined"), "nothing in the guide ran")
    loaded = page.evaluate("(() => { const i = document.querySelector('h1 img.icon'); return i && i.complete && i.naturalWidth > 0; })()")
    check(loaded, "the icon (a data: image) loads under the page's CSP")
    check(not w.errors, f"guide page: no console errors {w.errors}")
    others = [r.url for r in w.requests if r.url != out.as_uri() and not r.url.startswith("data:")]
    check(not others, f"guide page: no network requests {others[:3]}")
    ctx.close()


# ---- served pages ------------------------------------------------------------------


def start_fake_node():
    p = subprocess.Popen([FAKE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=ENV)
    return p, p.stdout.readline().strip()


def start_serve(node, *extra):
    p = subprocess.Popen([BIN, "serve", "--http", "127.0.0.1:0", "--node", node, "--refresh", "3600", *extra],
                         stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=ENV)
    for line in p.stderr:
        m = re.search(r"at (http://\S+)/mcp", line)
        if m:
            return p, m.group(1)
    raise RuntimeError("calimcp serve did not start")


def call(page, w, tool, values):
    form = page.locator(f'form[data-tool="{tool}"]')
    for name, value in values.items():
        form.locator(f'[name="{name}"]').fill(value)
    before = len(w.tool_calls())
    form.get_by_role("button", name="Call").click()
    out = form.locator(".out")
    out.wait_for(state="visible")
    # Locator checks run outside the page's CSP (no eval of a predicate there).
    expect(out).not_to_have_text(re.compile(r"^Calling"), timeout=TIMEOUT_MS)
    return out.text_content(), "err" in (out.get_attribute("class") or ""), len(w.tool_calls()) - before


def served(browser, node):
    serve, base = start_serve(node)
    try:
        page = browser.new_page()
        w = Watch(page)
        page.goto(base + "/")
        check(page.locator('a[href="/apps/kv_store"]').count() == 1, "the index links the kv-store page")
        page.goto(base + "/apps/kv_store")
        check(page.locator('form[data-tool="kv_store_set"]').count() == 1, "a [mut] form without --read-only")
        page.locator("select.ctx option").nth(1).wait_for(state="attached", timeout=TIMEOUT_MS)
        check(page.locator("select.ctx option").count() >= 2, "the context chooser lists the app's contexts")
        text, err, _ = call(page, w, "kv_store_set", {"key": "greeting", "value": "hello from the page"})
        check(not err, f"the set form runs: {text}")
        text, err, sent = call(page, w, "kv_store_get", {"key": "greeting"})
        check(not err and "hello from the page" in text, f"the [view] form shows the result: {text}")
        check(sent >= 1, "the call went to /mcp")
        # An invalid input is refused before any request.
        page.goto(base + "/apps/typed")
        w2 = Watch(page)
        field = page.locator('form.try [data-kind="integer"]').first
        check(field.count() == 1, "the typed app has an integer field")
        form = field.locator("xpath=ancestor::form")
        tool = form.get_attribute("data-tool")
        field.fill("not a number")
        page.wait_for_load_state("networkidle")
        before = len(w2.mcp_posts())
        form.get_by_role("button", name="Call").click()
        out = form.locator(".out")
        out.wait_for(state="visible")
        check("Not sent" in out.text_content(), f"{tool}: the invalid input is refused in the page: {out.text_content()}")
        check(len(w2.mcp_posts()) == before, f"{tool}: no request was made for the invalid input")
        # 64-bit integers beyond 2^53: accepted as typed, shown digit for digit, unquoted.
        text, err, sent = call(page, w2, "typed_exact_numbers",
                               {"big": "18446744073709551615", "neg": "-9223372036854775808", "small": "5"})
        check(not err and sent == 1, f"typed_exact_numbers: the decimal strings are sent: {text}")
        check('"big": 18446744073709551615' in text and '"neg": -9223372036854775808' in text,
              f"typed_exact_numbers: the result keeps every digit, unquoted: {text}")
        check(not w.errors and not w2.errors, f"served pages: no console errors {w.errors + w2.errors}")
        page.goto(base + "/apps/kv_store")
        axe(page, "kv-store (served)")
        # A Host that is not this server's is refused (DNS rebinding).
        req = urllib.request.Request(base + "/", headers={"Host": "evil.example"})
        try:
            urllib.request.urlopen(req, timeout=10)
            check(False, "a page request with a foreign Host is refused")
        except urllib.error.HTTPError as e:
            check(e.code == 403, f"a page request with a foreign Host is refused ({e.code})")
        bridge(browser, base)
        page.close()
    finally:
        serve.terminate()
        serve.wait(timeout=10)


def read_only(browser, node):
    serve, base = start_serve(node, "--read-only")
    try:
        page = browser.new_page()
        page.goto(base + "/apps/kv_store")
        check(page.locator('form[data-tool="kv_store_get"]').count() == 1, "--read-only: the [view] form is there")
        check(page.locator('form[data-tool="kv_store_set"]').count() == 0, "--read-only: no [mut] form")
        check(page.locator('section.method[data-name="set"]').count() == 1, "--read-only: the [mut] method is still documented")
        page.close()
    finally:
        serve.terminate()
        serve.wait(timeout=10)


# A manifest whose parameter names are DOM methods: each becomes a named
# property of its try-it <form> and hides the method of that name (issue 47).
SHADOWING = ["querySelector", "querySelectorAll", "closest", "getAttribute", "addEventListener", "submit", "elements"]
SHADOW_APP = {
    "schema_version": "wasm-abi/1",
    "types": {},
    "methods": [
        {"name": "clobber", "params": [{"name": n, "type": {"kind": "string"}} for n in SHADOWING]
            + [{"name": "n", "type": {"kind": "u32"}}], "returns": {"kind": "string"}, "intent": "read_only"},
        {"name": "later", "params": [{"name": "n", "type": {"kind": "u32"}}], "returns": {"kind": "string"}, "intent": "read_only"},
    ],
}


def shadowed_names(browser, node):
    apps = pathlib.Path(tempfile.mkdtemp(prefix="calimcp-shadow-"))
    (apps / "shadow.json").write_text(json.dumps(SHADOW_APP))
    serve, base = start_serve(node, "--apps", str(apps))
    try:
        page = browser.new_page()
        w = Watch(page)
        page.goto(base + "/")
        links = page.locator('a[href^="/apps/"]')
        hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
        check("/apps/shadow" in hrefs, f"shadowing names: the index links the app {hrefs}")
        page.goto(base + "/apps/shadow")
        page.wait_for_load_state("networkidle")
        # Playwright itself calls methods on a locator's scope and, to check
        # an element is actionable, on its ancestors: these forms are reached
        # only through selectors from the document, their attributes through
        # the prototype, and the fields and buttons inside are set and
        # clicked without Playwright's checks (what a user types and clicks
        # is the same).
        tools = page.evaluate("""() => Array.from(document.querySelectorAll("form.try"), f =>
            [Element.prototype.getAttribute.call(f, "data-tool"), !!Element.prototype.querySelector.call(f, '[name="querySelector"]')])""")
        first = [t for t, shadowed in tools if shadowed]
        later = [t for t, shadowed in tools if not shadowed]
        check(len(first) == 1 and len(later) == 1, f"shadowing names: both methods have a form {tools}")
        if len(first) != 1 or len(later) != 1:
            return
        first, later = first[0], later[0]

        def in_form(tool, css):
            return page.locator(f'form[data-tool="{tool}"] {css}')

        def fill(tool, name, value):
            in_form(tool, f'[name="{name}"]').evaluate("(el, v) => { el.value = v; }", value)

        def run(tool):
            before = len(w.tool_calls())
            in_form(tool, "button.call").dispatch_event("click")
            # Polled from the document: Playwright's own checks walk the
            # ancestors and call their (shadowed) methods.
            shown = """tool => { const o = document.querySelector(`form[data-tool="${tool}"] .out`);
                return o && !o.hidden && !o.textContent.startsWith("Calling") ? o.textContent : null; }"""
            text = None
            for _ in range(TIMEOUT_MS // 100):
                text = page.evaluate(shown, tool)
                if text is not None:
                    break
                page.wait_for_timeout(100)
            return text or "(no answer shown)", len(w.tool_calls()) - before

        # Refused in the page: the form was wired and read its inputs.
        for what, tool in (("the form with the names", first), ("the form after it", later)):
            fill(tool, "n", "not a number")
            text, sent = run(tool)
            check("Not sent" in text and "$.n" in text and sent == 0, f"shadowing names: {what} checks its input: {text}")
        # Sent: every named input reaches the call under its own name.
        for n in SHADOWING:
            fill(first, n, f"value of {n}")
        fill(first, "n", "7")
        text, sent = run(first)
        check(sent == 1, f"shadowing names: the form with the names calls {first} ({sent} calls): {text}")
        posts = [json.loads(r.post_data) for r in w.tool_calls()]
        args = posts[-1]["params"]["arguments"] if posts else {}
        check(all(args.get(n) == f"value of {n}" for n in SHADOWING) and args.get("n") == 7,
              f"shadowing names: the arguments are the inputs {args}")
        check(not w.errors, f"shadowing names: no console errors {w.errors}")
        page.close()
    finally:
        serve.terminate()
        serve.wait(timeout=10)


# ---- the MCP App, in a minimal host ---------------------------------------------------


class Client:
    """A small MCP client over Streamable HTTP: the host's connection to the server."""

    def __init__(self, base):
        self.url, self.session, self.next = base + "/mcp", None, 1
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test-host", "version": "1"}})
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def post(self, body):
        headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.session:
            headers["Mcp-Session-Id"] = self.session
            headers["MCP-Protocol-Version"] = "2025-06-18"
        req = urllib.request.Request(self.url, data=json.dumps(body).encode(), headers=headers, method="POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            self.session = self.session or r.headers.get("mcp-session-id")
            return r.headers.get("content-type", ""), r.read().decode()

    def request(self, method, params):
        id_ = self.next
        self.next += 1
        kind, text = self.post({"jsonrpc": "2.0", "id": id_, "method": method, "params": params})
        chunks = [l[5:].strip() for l in text.splitlines() if l.startswith("data:")] if "event-stream" in kind else [text]
        for c in chunks:
            if not c:
                continue
            m = json.loads(c)
            if m.get("id") == id_:
                return m
        raise RuntimeError(f"no answer to {method}")


HOST = """<!DOCTYPE html><html lang="en"><head><title>test host</title></head><body>
<iframe id="view" title="calimcp reference" sandbox="allow-scripts" style="width:100%;height:90vh"></iframe>
<script>
window.hostLog = [];
const frame = document.getElementById('view');
window.addEventListener('message', async (e) => {
  if (e.source !== frame.contentWindow) return;
  const m = e.data, reply = (body) => frame.contentWindow.postMessage(Object.assign({jsonrpc: '2.0', id: m.id}, body), '*');
  window.hostLog.push(m.method);
  if (m.method === 'ui/initialize') {
    reply({result: {protocolVersion: m.params.protocolVersion, hostInfo: {name: 'test-host', version: '1'},
      hostCapabilities: {serverTools: {}, serverResources: {}}, hostContext: {theme: 'light'}}});
  } else if (m.id !== undefined) {
    const answer = await window.hostForward(m.method, m.params);
    reply(answer.error ? {error: answer.error} : {result: answer.result});
  }
});
window.load = (html) => { frame.srcdoc = html; };
</script></body></html>"""


def bridge(browser, base):
    client = Client(base)
    listed = client.request("resources/list", {})["result"]["resources"]
    ui = [r for r in listed if r["uri"] == "ui://calimcp/reference"]
    check(len(ui) == 1 and ui[0]["mimeType"] == "text/html;profile=mcp-app", "resources/list has the ui:// resource")
    tools = client.request("tools/list", {})["result"]["tools"]
    describe = [t for t in tools if t["name"] == "describe_app"][0]
    check(describe.get("_meta", {}).get("ui", {}).get("resourceUri") == "ui://calimcp/reference", "describe_app points to it")
    html = client.request("resources/read", {"uri": "ui://calimcp/reference"})["result"]["contents"][0]["text"]
    page = browser.new_page()
    w = Watch(page)
    forwarded = []

    def forward(method, params):
        forwarded.append(method)
        return client.request(method, params)

    page.expose_function("hostForward", forward)
    page.set_content(HOST)
    page.evaluate("html => window.load(html)", html)
    view = page.frame_locator("#view")
    # The script has run once it has shown the filter.
    view.locator("#filter").wait_for(state="visible")
    form = view.locator('form[data-tool="kv_store_get"]')
    form.locator('[name="key"]').fill("greeting")
    form.get_by_role("button", name="Call").click()
    out = form.locator(".out")
    out.wait_for(state="visible")
    expect(out).not_to_have_text(re.compile(r"^Calling"), timeout=TIMEOUT_MS)
    text = out.text_content()
    check("hello from the page" in text, f"bridge: the call's result is shown in the view: {text}")
    log = page.evaluate("window.hostLog")
    check(log[:2] == ["ui/initialize", "ui/notifications/initialized"], f"bridge: the view initializes first {log[:3]}")
    check("tools/call" in forwarded, f"bridge: tools/call went through the host to the server {forwarded}")
    fetched = [r.url for r in w.requests if r.url.startswith("http")]
    check(not fetched, f"bridge: the view fetched nothing itself {fetched}")
    check(not w.errors, f"bridge: no console errors {w.errors}")
    page.close()


# ---- a browser host of another origin (serve --allow-origin) ----------------------

# The host page: an MCP client in the page's own JavaScript, talking to the
# server's /mcp across origins (what a web-based MCP host does).
CORS_HOST = """<!doctype html><html><head><title>host</title></head><body><script>
window.run = async (url) => {
  let session = null, next = 1;
  const post = async (body) => {
    const headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"};
    if (session) { headers["mcp-session-id"] = session; headers["mcp-protocol-version"] = "2025-06-18"; }
    const r = await fetch(url, {method: "POST", headers, body: JSON.stringify(body)});
    session = session || r.headers.get("mcp-session-id");
    const text = await r.text();
    if (!(r.headers.get("content-type") || "").includes("event-stream")) return text ? JSON.parse(text) : null;
    const data = text.split("\\n").filter(l => l.startsWith("data:")).map(l => l.slice(5).trim()).filter(Boolean);
    return data.map(d => JSON.parse(d)).find(m => m.id === body.id);
  };
  const request = (method, params) => post({jsonrpc: "2.0", id: next++, method, params});
  try {
    await request("initialize", {protocolVersion: "2025-06-18", capabilities: {}, clientInfo: {name: "web-host", version: "1"}});
    await post({jsonrpc: "2.0", method: "notifications/initialized"});
    const answer = await request("tools/call", {name: "kv_store_get", arguments: {key: "greeting"}});
    return {ok: true, session: !!session, answer};
  } catch (e) {
    return {ok: false, error: String(e)};
  }
};
</script></body></html>"""


def cors(browser, node):
    """A page of an allowed origin calls a tool across origins; another origin cannot."""
    serve, base = start_serve(node, "--allow-origin", "https://app.example")
    # A web host is a secure (https) page, and Chromium lets such a page
    # reach a loopback server only once the user allows local network
    # access: granted here as the user would.
    ctx = browser.new_context(permissions=["local-network-access"])
    try:
        for origin, allowed in (("https://app.example", True), ("https://other.example", False)):
            page = ctx.new_page()
            # The host page is served by the test itself (no DNS, no network).
            page.route(lambda url, o=origin: url.startswith(o + "/"),
                       lambda route: route.fulfill(status=200, content_type="text/html", body=CORS_HOST))
            page.goto(origin + "/")
            page.wait_for_function("typeof window.run === 'function'", timeout=TIMEOUT_MS)
            out = page.evaluate("url => window.run(url)", base + "/mcp")
            if allowed:
                answer = (out.get("answer") or {}).get("result", {})
                check(out["ok"] and out.get("session"), f"cors: a page of {origin} reaches /mcp and reads its session id: {out}")
                check(answer.get("isError") is False and "content" in answer, f"cors: {origin} calls kv_store_get across origins: {out}")
            else:
                check(not out["ok"], f"cors: a page of {origin} (not allowed) cannot call: {out}")
            page.close()
    finally:
        ctx.close()
        serve.terminate()
        serve.wait(timeout=10)


def main():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            guide_page(browser)
            if FIXTURES.is_dir():
                static_pages(browser)
            else:
                check(os.environ.get("CALIMCP_REQUIRE_FIXTURES") != "1", "the fixture corpus ../shared/fixtures/abi is there")
            fake, node = start_fake_node()
            try:
                served(browser, node)
                read_only(browser, node)
                shadowed_names(browser, node)
                cors(browser, node)
            finally:
                fake.stdin.close()
                fake.wait(timeout=10)
        finally:
            browser.close()
    if failures:
        print(f"\n{len(failures)} browser check(s) failed:", *failures, sep="\n  ", file=sys.stderr)
        sys.exit(1)
    print("\nall browser checks passed")


if __name__ == "__main__":
    main()
