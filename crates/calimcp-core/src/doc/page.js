"use strict";
// calimcp reference page: the method filter, keyboard shortcuts and the
// try-it forms. Everything the page says is in its HTML; this only adds.
(function () {
  // DOM methods are called through their prototypes, never looked up on the
  // element: a form's named inputs are properties of the form (a parameter
  // named `querySelector` hides the method), and elements with an id or name
  // can hide methods of window and document too. The names come from
  // manifests, which the page does not trust.
  var E = Element.prototype, D = Document.prototype, T = EventTarget.prototype;
  function $(el, sel) { return (el === document ? D : E).querySelector.call(el, sel); }
  function $$(el, sel) { return Array.prototype.slice.call((el === document ? D : E).querySelectorAll.call(el, sel)); }
  function attr(el, name) { return E.getAttribute.call(el, name); }
  function closest(el, sel) { return E.closest.call(el, sel); }
  function on(el, type, fn) { T.addEventListener.call(el, type, fn); }
  var config = JSON.parse(D.getElementById.call(document, "calimcp-config").textContent);

  // ---- filter and keys --------------------------------------------------
  var filter = D.getElementById.call(document, "filter");
  var methods = $$(document, "section.method");
  if (filter) {
    filter.hidden = false;
    on(filter, "input", function () {
      var q = filter.value.trim().toLowerCase();
      var shown = function (el) { return !q || attr(el, "data-name").indexOf(q) !== -1; };
      methods.forEach(function (m) { m.hidden = !shown(m); });
      $$(document, "nav li[data-name]").forEach(function (li) { li.hidden = !shown(li); });
    });
  }
  function visible() { return methods.filter(function (m) { return !m.hidden; }); }
  function current() {
    var v = visible(), y = window.scrollY + 80, at = -1;
    v.forEach(function (m, i) { if (m.offsetTop <= y) { at = i; } });
    return { list: v, at: at };
  }
  function go(m) { if (m) { m.scrollIntoView(); m.focus({ preventScroll: true }); history.replaceState(null, "", "#" + m.id); } }
  on(document, "keydown", function (e) {
    var t = e.target, typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT");
    if (e.key === "Escape" && t === filter) { filter.value = ""; filter.dispatchEvent(new Event("input")); filter.blur(); return; }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === "/" && filter) { e.preventDefault(); filter.focus(); }
    else if (e.key === "j" || e.key === "k") {
      var c = current(), i = c.at + (e.key === "j" ? 1 : -1);
      go(c.list[Math.max(0, Math.min(c.list.length - 1, i))]);
    }
  });

  // ---- a validator for the schema subset calimcp emits -------------------
  function typeOf(v) {
    if (v === null) { return "null"; }
    if (Array.isArray(v)) { return "array"; }
    if (typeof v === "number") { return Number.isInteger(v) ? "integer" : "number"; }
    return typeof v;
  }
  function equal(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function check(root, s, v, path, out) {
    if (s === true || s === undefined) { return; }
    if (s === false) { out.push(path + ": not allowed"); return; }
    if (s.$ref) {
      var name = s.$ref.replace(/^#\/\$defs\//, "");
      var def = root.$defs && root.$defs[name];
      if (def) { check(root, def, v, path, out); }
      return;
    }
    if (s.type !== undefined) {
      var types = Array.isArray(s.type) ? s.type : [s.type], t = typeOf(v);
      var ok = types.some(function (x) { return x === t || (x === "number" && t === "integer"); });
      if (!ok) { out.push(path + ": expected " + types.join(" or ") + ", got " + t); return; }
    }
    if ("const" in s && !equal(s.const, v)) { out.push(path + ": must be " + JSON.stringify(s.const)); }
    if (s.enum && !s.enum.some(function (x) { return equal(x, v); })) {
      out.push(path + ": must be one of " + s.enum.map(function (x) { return JSON.stringify(x); }).join(", "));
    }
    if (typeof v === "number") {
      if (s.minimum !== undefined && v < s.minimum) { out.push(path + ": below the minimum " + s.minimum); }
      if (s.maximum !== undefined && v > s.maximum) { out.push(path + ": above the maximum " + s.maximum); }
      if (s.exclusiveMinimum !== undefined && v <= s.exclusiveMinimum) { out.push(path + ": must be above " + s.exclusiveMinimum); }
    }
    if (typeof v === "string") {
      if (s.pattern && !new RegExp(s.pattern, "u").test(v)) { out.push(path + ": does not match " + s.pattern); }
      if (s.minLength !== undefined && v.length < s.minLength) { out.push(path + ": shorter than " + s.minLength); }
      if (s.maxLength !== undefined && v.length > s.maxLength) { out.push(path + ": longer than " + s.maxLength); }
    }
    if (Array.isArray(v)) {
      if (s.minItems !== undefined && v.length < s.minItems) { out.push(path + ": fewer than " + s.minItems + " items"); }
      if (s.maxItems !== undefined && v.length > s.maxItems) { out.push(path + ": more than " + s.maxItems + " items"); }
      var pre = s.prefixItems || [];
      v.forEach(function (x, i) {
        if (i < pre.length) { check(root, pre[i], x, path + "[" + i + "]", out); }
        else if (s.items !== undefined) { check(root, s.items, x, path + "[" + i + "]", out); }
      });
    }
    if (typeOf(v) === "object") {
      var props = s.properties || {};
      (s.required || []).forEach(function (k) { if (!(k in v)) { out.push(path + ": missing required `" + k + "`"); } });
      Object.keys(v).forEach(function (k) {
        var p = path + "." + k;
        if (k in props) { check(root, props[k], v[k], p, out); }
        else if (s.additionalProperties !== undefined) { check(root, s.additionalProperties, v[k], p, out); }
      });
    }
    if (s.allOf) { s.allOf.forEach(function (x) { check(root, x, v, path, out); }); }
    ["anyOf", "oneOf"].forEach(function (key) {
      if (!s[key]) { return; }
      var passing = s[key].filter(function (x) { var o = []; check(root, x, v, path, o); return o.length === 0; }).length;
      if (passing === 0) {
        var first = []; check(root, s[key][0], v, path, first);
        out.push(path + ": matches none of the allowed forms" + (first.length ? " (" + first[0] + ")" : ""));
      } else if (key === "oneOf" && passing > 1) { out.push(path + ": matches several forms of a oneOf"); }
    });
  }
  window.calimcpValidate = function (schema, value) { var out = []; check(schema, schema, value, "$", out); return out; };

  // ---- transports ----------------------------------------------------------
  var PROTOCOL = "2025-06-18";
  function fetchTransport(endpoint) {
    var session = null, ready = null, next = 1;
    function post(body) {
      var headers = { "Content-Type": "application/json", "Accept": "application/json, text/event-stream" };
      if (session) { headers["Mcp-Session-Id"] = session; headers["MCP-Protocol-Version"] = PROTOCOL; }
      return fetch(endpoint, { method: "POST", headers: headers, body: JSON.stringify(body), credentials: "same-origin" });
    }
    function answer(resp, id) {
      var type = resp.headers.get("content-type") || "";
      return resp.text().then(function (text) {
        if (!resp.ok && type.indexOf("json") === -1) { throw new Error("HTTP " + resp.status + ": " + text); }
        var messages = [];
        if (type.indexOf("text/event-stream") !== -1) {
          text.split(/\r?\n\r?\n/).forEach(function (ev) {
            var data = ev.split(/\r?\n/).filter(function (l) { return l.indexOf("data:") === 0; })
              .map(function (l) { return l.slice(5).trim(); }).join("\n");
            if (data) { try { messages.push(JSON.parse(data)); } catch (e) { /* not JSON: skip */ } }
          });
        } else if (text) { messages.push(JSON.parse(text)); }
        var m = messages.filter(function (x) { return x && x.id === id; })[0];
        if (!m) { throw new Error("no answer from the server"); }
        if (m.error) { throw new Error(m.error.message || JSON.stringify(m.error)); }
        return m.result;
      });
    }
    function request(method, params) {
      var id = next++;
      return post({ jsonrpc: "2.0", id: id, method: method, params: params }).then(function (r) { return answer(r, id); });
    }
    function init() {
      if (!ready) {
        var id = next++;
        ready = post({ jsonrpc: "2.0", id: id, method: "initialize", params: {
          protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: "calimcp-doc-page", version: "1" } } })
          .then(function (r) {
            session = r.headers.get("mcp-session-id");
            return answer(r, id);
          })
          .then(function () { return post({ jsonrpc: "2.0", method: "notifications/initialized" }); })
          .catch(function (e) { ready = null; throw e; });
      }
      return ready;
    }
    return { call: function (method, params) { return init().then(function () { return request(method, params); }); } };
  }

  function bridgeTransport() {
    var next = 1, pending = {}, ready = null;
    on(window, "message", function (e) {
      if (e.source !== window.parent) { return; }
      var m = e.data;
      if (!m || m.jsonrpc !== "2.0" || m.id === undefined || !pending[m.id] || m.method) { return; }
      var p = pending[m.id]; delete pending[m.id];
      if (m.error) { p.reject(new Error(m.error.message || JSON.stringify(m.error))); } else { p.resolve(m.result); }
    });
    function request(method, params) {
      var id = next++;
      return new Promise(function (resolve, reject) {
        pending[id] = { resolve: resolve, reject: reject };
        window.parent.postMessage({ jsonrpc: "2.0", id: id, method: method, params: params }, "*");
      });
    }
    function notify(method, params) { window.parent.postMessage({ jsonrpc: "2.0", method: method, params: params }, "*"); }
    // Hosts that size the frame to its content learn the page's size.
    function sizes() {
      var last = "";
      var send = function () {
        var size = { width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight };
        if (JSON.stringify(size) !== last) { last = JSON.stringify(size); notify("ui/notifications/size-changed", size); }
      };
      if (window.ResizeObserver) { new ResizeObserver(send).observe(document.documentElement); }
      send();
    }
    function init() {
      if (!ready) {
        ready = request("ui/initialize", { protocolVersion: "2026-01-26", appInfo: { name: "calimcp-doc-page", version: "1" }, appCapabilities: {} })
          .then(function (r) { notify("ui/notifications/initialized", {}); sizes(); return r; });
      }
      return ready;
    }
    init();
    return { call: function (method, params) { return init().then(function () { return request(method, params); }); } };
  }

  var transport = config.transport === "fetch" ? fetchTransport(config.endpoint)
    : config.transport === "bridge" ? bridgeTransport() : null;
  if (!transport) { return; }

  // ---- context choosers ------------------------------------------------------
  $$(document, "select.ctx").forEach(function (sel) {
    transport.call("resources/read", { uri: attr(sel, "data-uri") }).then(function (r) {
      var body = JSON.parse(r.contents[0].text);
      (body.contexts || []).forEach(function (c) {
        var o = document.createElement("option");
        o.value = c.id;
        o.textContent = ((c.aliases || [])[0] ? c.aliases[0] + " — " : "") + c.id + (c.initialized === false ? " (uninitialized)" : "");
        sel.appendChild(o);
      });
    }).catch(function (e) {
      var o = document.createElement("option");
      o.disabled = true; o.textContent = "(contexts unavailable: " + e.message + ")";
      sel.appendChild(o);
    });
  });

  // ---- try-it forms ------------------------------------------------------------
  function readForm(form, schema) {
    var args = {}, problems = [];
    var required = schema.required || [];
    $$(form, "[data-kind]").forEach(function (el) {
      var name = attr(el, "name"), kind = attr(el, "data-kind"), raw = el.value;
      if (raw.trim() === "" && !(kind === "string" && required.indexOf(name) !== -1)) { return; }
      if (kind === "string") { args[name] = raw; }
      else if (kind === "bool") { args[name] = raw === "true"; }
      else if (kind === "integer") {
        var s = raw.trim();
        if (/^-?\d+$/.test(s) && Number.isSafeInteger(Number(s))) { args[name] = Number(s); } else { args[name] = /^-?\d+$/.test(s) ? s : raw; }
      } else if (kind === "number") {
        var n = Number(raw.trim());
        args[name] = isNaN(n) ? raw : n;
      } else {
        try { args[name] = JSON.parse(raw); } catch (e) { problems.push("$." + name + ": not JSON (" + e.message + ")"); }
      }
    });
    return { args: args, problems: problems };
  }
  // Compact JSON indented by two spaces without parsing it, so numbers keep
  // every digit; text that is not JSON comes back as it is.
  function indent(json) {
    try { JSON.parse(json); } catch (e) { return json; }
    var out = "", depth = 0, inString = false, escaped = false;
    var pad = function (n) { return "\n" + new Array(n + 1).join("  "); };
    for (var i = 0; i < json.length; i++) {
      var c = json[i];
      if (inString) {
        out += c;
        if (escaped) { escaped = false; } else if (c === "\\") { escaped = true; } else if (c === "\"") { inString = false; }
      } else if (c === "\"") { inString = true; out += c; }
      else if (c === "{" || c === "[") {
        var close = c === "{" ? "}" : "]";
        if (json[i + 1] === close) { out += c + close; i++; } else { depth++; out += c + pad(depth); }
      } else if (c === "}" || c === "]") { depth--; out += pad(depth) + c; }
      else if (c === ",") { out += "," + pad(depth); }
      else if (c === ":") { out += ": "; }
      else if (!/\s/.test(c)) { out += c; }
    }
    return out;
  }
  function show(out, text, isError) {
    out.hidden = false;
    out.textContent = text;
    out.classList.toggle("err", !!isError);
  }
  // Each form is wired on its own: one that fails says so and never stops the others.
  $$(document, "form.try").forEach(function (form) {
    try { wire(form); } catch (err) {
      var out = $(form, ".out");
      if (out) { show(out, "This form could not be set up: " + String(err && err.message || err), true); }
      if (window.console) { console.warn("calimcp: a try-it form could not be set up", err); }
    }
  });
  function wire(form) {
    var schema = JSON.parse($(form, "script.schema").textContent);
    var out = $(form, ".out");
    // A button, not a submission: a sandboxed frame without allow-forms
    // (an MCP Apps host) never dispatches submit events.
    function run(e) {
      e.preventDefault();
      try { send(); } catch (err) { show(out, String(err && err.message || err), true); }
    }
    function send() {
      var read = readForm(form, schema);
      var article = closest(form, "article");
      var ctx = article && $(article, "select.ctx");
      if (ctx && ctx.value) { read.args._context = ctx.value; }
      var problems = read.problems.concat(window.calimcpValidate(schema, read.args));
      if (problems.length) { show(out, "Not sent:\n" + problems.join("\n"), true); return; }
      var tool = attr(form, "data-tool");
      show(out, "Calling " + tool + "…", false);
      transport.call("tools/call", { name: tool, arguments: read.args }).then(function (r) {
        var texts = (r.content || []).filter(function (c) { return c.type === "text"; }).map(function (c) { return c.text; });
        if (r.isError) { show(out, texts.join("\n") || "error", true); return; }
        // The first text is the node's JSON, digit for digit (structuredContent
        // carries a u64 beyond 2^53 as a decimal string): shown indented,
        // the notes after it.
        var shown = texts.length ? [indent(texts[0])].concat(texts.slice(1)).join("\n")
          : r.structuredContent !== undefined ? JSON.stringify(r.structuredContent.result !== undefined ? r.structuredContent.result : r.structuredContent, null, 2) : "";
        show(out, shown === "" ? "(done: no result)" : shown, false);
      }).catch(function (err) { show(out, String(err.message || err), true); });
    }
    on($(form, "button.call"), "click", run);
    on(form, "submit", run);
    $$(form, "input").forEach(function (el) {
      on(el, "keydown", function (e) { if (e.key === "Enter") { run(e); } });
    });
  }
})();
