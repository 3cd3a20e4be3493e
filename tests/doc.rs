//! `calimcp doc`: the files it writes, what a page holds (it says what
//! `describe` and `schema` say), escaping of manifest strings, exit codes;
//! and over the fixture corpus, that every example argument object validates
//! against its tool's input schema and every linked type reads as the
//! signature writes it.

mod support;

use calimcp_core::abi::{LoadOptions, load_path};
use calimcp_core::doc::{self, AppDoc, Options};
use calimcp_core::mapping::{ToolOptions, build};
use predicates::prelude::*;
use serde_json::Value;
use support::{example, offline as calimcp};

/// Every `href="#ID"` of a page has its element, and no id is given twice.
fn assert_links_resolve(html: &str, what: &str) {
    let values = |attr: &str| -> Vec<String> {
        html.split(attr)
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .map(str::to_string)
            .collect()
    };
    let ids = values(" id=\"");
    let unique: std::collections::HashSet<&String> = ids.iter().collect();
    assert_eq!(unique.len(), ids.len(), "{what}: an id is given twice");
    for target in values("href=\"#") {
        assert!(unique.contains(&target), "{what}: nothing has id {target}");
    }
}

fn page_of(dir: &std::path::Path, file: &str) -> String {
    std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"))
}

#[test]
fn writes_one_self_contained_page_per_app() {
    let site = tempfile::tempdir().unwrap();
    let out = site.path().join("site");
    calimcp()
        .args(["doc", "examples/kv-store", "-o"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("wrote kv_store.html"));
    let html = page_of(&out, "kv_store.html");
    assert!(
        !out.join("index.html").exists(),
        "one app: no index is written"
    );
    // Every method, with the signature and tool name `describe --json` gives.
    let described: Value = serde_json::from_str(&support::stdout(calimcp().args([
        "describe",
        "examples/kv-store",
        "--json",
    ])))
    .unwrap();
    for m in described["methods"].as_array().unwrap() {
        let sig = m["signature"].as_str().unwrap();
        let escaped = sig
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(html.contains(&escaped), "missing signature {sig}");
        if let Some(tool) = m["tool"].as_str() {
            assert!(
                html.contains(&format!("<code>{tool}</code>")),
                "missing tool {tool}"
            );
        }
    }
    // The arguments schema is `schema`'s, pretty-printed.
    let schema: Value = serde_json::from_str(&support::stdout(calimcp().args([
        "schema",
        "examples/kv-store",
        "set",
    ])))
    .unwrap();
    let pretty = serde_json::to_string_pretty(&schema).unwrap();
    assert!(html.contains(&pretty), "the set schema is not on the page");
    // Self-contained: nothing is fetched, and the static page has no form.
    for fetched in ["src=\"http", "href=\"http", "@import", "url(http", "<link"] {
        assert!(
            !html.contains(fetched),
            "the page fetches something: {fetched}"
        );
    }
    assert!(html.contains("connect-src 'none'"));
    assert!(!html.contains("<form"), "a static page has no try-it form");
    assert!(html.contains("prefers-color-scheme: dark"));
    assert!(
        html.contains("id=\"t-Store\""),
        "the state root type is defined"
    );
    assert!(
        html.contains("href=\"#t-Store\""),
        "the state root links to it"
    );
}

#[test]
fn several_apps_get_an_index() {
    let site = tempfile::tempdir().unwrap();
    calimcp()
        .args(["doc", "--apps", "examples", "-o"])
        .arg(site.path())
        .assert()
        .success();
    let index = page_of(site.path(), "index.html");
    for page in ["kv_store.html", "notebook.html", "every_kind.html"] {
        assert_links_resolve(&page_of(site.path(), page), page);
    }
    for entry in std::fs::read_dir(site.path()).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        if name != "index.html" {
            assert!(
                index.contains(&format!("href=\"{name}\"")),
                "index misses {name}"
            );
        }
    }
    assert!(site.path().join("kv_store.html").exists());
}

#[test]
fn page_to_stdout_and_its_refusals() {
    let out = support::stdout(calimcp().args(["doc", "examples/kv-store", "-o", "-"]));
    assert!(out.starts_with("<!DOCTYPE html>"));
    calimcp()
        .args(["doc", "--apps", "examples", "-o", "-"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("writes one page to stdout"));
    calimcp()
        .args(["doc", "no-such-app", "--apps", "examples"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no app named"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    calimcp()
        .args(["doc", "examples/kv-store", "--json", "-o"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("\"code\":\"unwritable\""));
}

#[test]
fn manifest_strings_cannot_inject_markup() {
    let dir = tempfile::tempdir().unwrap();
    let abi = dir.path().join("evil.json");
    std::fs::write(
        &abi,
        r#"{"schema_version":"wasm-abi/1",
            "types":{"T<script>alert(1)</script>":{"kind":"record","doc":"<img src=x onerror=alert(2)>",
                "fields":[{"name":"f\"><b>","type":{"kind":"string"}}]}},
            "methods":[{"name":"get","doc":"</pre><script>alert(3)</script>","intent":"read_only",
                "params":[{"name":"k","type":{"$ref":"T<script>alert(1)</script>"},"doc":"<iframe>"}],
                "returns":{"kind":"string"}}],
            "events":[{"name":"E<svg onload=alert(4)>","payload":{"kind":"string"}}]}"#,
    )
    .unwrap();
    let html = support::stdout(calimcp().args(["doc", "-o", "-"]).arg(&abi));
    for bad in [
        "<script>alert",
        "<img src=x",
        "<iframe>",
        "<svg onload",
        "<b>",
        "</pre><script>",
    ] {
        assert!(!html.contains(bad), "unescaped manifest string: {bad}");
    }
    assert!(html.contains("&lt;img src=x onerror=alert(2)&gt;"));
    // Exactly one script element with code: the page's own.
    assert_eq!(html.matches("<script>").count(), 1);
}

/// A `'` in manifest text is written `&#39;` wherever the page shows text
/// (names, docs, signatures, types, attributes, a form's fields and its
/// example), as the page always has; only JSON keeps it as it is (in a
/// `<script type="application/json">` and in the schemas and examples shown
/// as text, where element content needs only `&`, `<` and `>` escaped).
#[test]
fn a_quote_in_manifest_text_is_written_as_a_character_reference() {
    let dir = tempfile::tempdir().unwrap();
    let abi = dir.path().join("quotes.json");
    std::fs::write(
        &abi,
        r#"{"schema_version":"wasm-abi/1",
            "types":{"Q'Rec":{"kind":"record","doc":"a Q'Q doc",
                "fields":[{"name":"q'f","type":{"kind":"string"},"doc":"field Q'Q"}]},
              "Q'Var":{"kind":"variant","variants":[{"name":"Q'V","doc":"case Q'Q"}]}},
            "methods":[{"name":"set","doc":"it's Q'Q","returns_doc":"Q'Q back",
                "params":[{"name":"q'p","type":{"$ref":"Q'Rec"},"doc":"param Q'Q"},
                          {"name":"v","type":{"$ref":"Q'Var"}}],
                "returns":{"kind":"string"}}],
            "events":[{"name":"Q'Ev","payload":{"$ref":"Q'Rec"}}]}"#,
    )
    .unwrap();
    let apps = load_path(&abi, &LoadOptions::default(), &mut Vec::new()).unwrap();
    let set = build(&apps, &ToolOptions::default());
    let d = AppDoc {
        app: &apps[0],
        tools: set.for_app(0, None).collect(),
        key: set.slugs[0].clone(),
        contexts_uri: Some("calimcp://Q'Q/contexts".into()),
    };
    let try_it = Options {
        try_it: Some(doc::TryIt {
            transport: doc::Transport::Bridge,
            callable: d.tools.iter().map(|t| t.name.clone()).collect(),
        }),
    };
    for opts in [Options::default(), try_it] {
        let html = doc::page(std::slice::from_ref(&d), &opts);
        let shown = without_json(&html);
        let raw: Vec<&str> = shown
            .lines()
            .filter(|l| l.contains("Q'") || l.contains("q'"))
            .collect();
        assert!(raw.is_empty(), "a raw ' in the page's text: {raw:#?}");
        for text in [
            "it&#39;s Q&#39;Q",
            "a Q&#39;Q doc",
            "field Q&#39;Q",
            "case Q&#39;Q",
            "Q&#39;Q back",
            "param Q&#39;Q",
            "Q&#39;Ev",
            "Q&#39;Rec",
            "q&#39;p",
        ] {
            assert!(shown.contains(text), "{text} missing from the page");
        }
        if opts.try_it.is_some() {
            assert!(shown.contains("name=\"q&#39;p\""), "the form's field name");
            assert!(shown.contains("data-uri=\"calimcp://Q&#39;Q/contexts\""));
        }
    }
}

/// The page without its JSON: `<script>` elements and the schemas and
/// examples shown as text (`<pre><code>`; a signature's `pre` has a class).
fn without_json(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    loop {
        let next = [("<script", "</script>"), ("<pre><code", "</code></pre>")]
            .into_iter()
            .filter_map(|(open, close)| rest.find(open).map(|at| (at, close)))
            .min();
        let Some((at, close)) = next else { break };
        out.push_str(&rest[..at]);
        let end = rest[at..].find(close).expect("an element left open") + at + close.len();
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Over the corpus: each page holds every method; each example validates
/// against its schema; each linked type's text is the signature's.
#[test]
fn every_fixture_page_holds_every_method_and_valid_examples() {
    let Some(dir) = support::fixtures("every_fixture_page_holds_every_method_and_valid_examples")
    else {
        return;
    };
    let mut examples = 0;
    for file in support::fixture_manifests(&dir) {
        let apps = load_path(&file, &LoadOptions::default(), &mut Vec::new()).unwrap();
        let set = build(&apps, &ToolOptions::default());
        for (i, app) in apps.iter().enumerate() {
            let d = AppDoc {
                app,
                tools: set.for_app(i, None).collect(),
                key: set.slugs[i].clone(),
                contexts_uri: None,
            };
            let html = doc::page(std::slice::from_ref(&d), &Options::default());
            assert_links_resolve(&html, &file.display().to_string());
            for t in &d.tools {
                assert!(
                    html.contains(&format!("<code>{}</code>", t.name)),
                    "{}: no section for {}",
                    file.display(),
                    t.name
                );
                let input = t.input_schema();
                let args = doc::example::arguments(&input, t.context_injected);
                let v = calimcp_core::mapping::args::Validator::new(&input).unwrap();
                let problems = v.check(&args);
                assert!(
                    problems.is_empty(),
                    "{}: the example for {} does not validate: {args} {problems:?}",
                    file.display(),
                    t.name
                );
                examples += 1;
            }
        }
    }
    assert!(examples > 100, "only {examples} examples checked");
}

/// One method's section, as the page writes it (the reference, not the style).
#[test]
fn a_method_section_snapshot() {
    let html = support::stdout(calimcp().args(["doc", "examples/kv-store", "-o", "-"]));
    let start = html.find("<section class=\"method\" id=\"m-get\"").unwrap();
    let len = html[start..].find("</section>").unwrap() + "</section>".len();
    insta::assert_snapshot!(&html[start..start + len]);
}

#[test]
fn service_narrows_a_multi_service_page() {
    let all = support::stdout(calimcp().args(["doc", "examples/multi-service", "-o", "-"]));
    let pages = support::stdout(calimcp().args([
        "doc",
        "examples/multi-service",
        "--service",
        "pages",
        "-o",
        "-",
    ]));
    let count = |html: &str| html.matches("<section class=\"method\"").count();
    assert!(count(&pages) > 0 && count(&pages) < count(&all));
    assert!(!pages.contains("service registry"));
    calimcp()
        .args([
            "doc",
            "examples/multi-service",
            "--service",
            "nope",
            "-o",
            "-",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has no service `nope`"));
}

#[test]
fn an_app_called_index_does_not_overwrite_the_index() {
    let dir = tempfile::tempdir().unwrap();
    let apps = dir.path().join("apps");
    std::fs::create_dir(&apps).unwrap();
    let kv = std::fs::read_to_string(example("kv-store").join("abi.json")).unwrap();
    std::fs::write(apps.join("index.json"), &kv).unwrap();
    std::fs::write(apps.join("other.json"), &kv).unwrap();
    let site = dir.path().join("site");
    calimcp()
        .arg("doc")
        .arg("--apps")
        .arg(&apps)
        .arg("-o")
        .arg(&site)
        .assert()
        .success();
    let index = page_of(&site, "index.html");
    assert!(index.contains("href=\"index_.html\""), "{index}");
    assert!(page_of(&site, "index_.html").contains("<section class=\"method\""));
}

/// With no APP, `doc` documents every app it sees, as `tools` lists them:
/// the --apps directories' and the node's (only the former with --offline);
/// its help says so.
#[test]
fn without_an_app_every_app_is_documented_the_node_s_too() {
    let node = support::fake_node::FakeNode::start();
    let home = tempfile::tempdir().unwrap();
    let site = tempfile::tempdir().unwrap();
    support::calimcp(home.path())
        .args(["--node", &node.url, "doc", "--apps", "examples", "-o"])
        .arg(site.path())
        .assert()
        .success();
    assert!(
        site.path().join("every_kind.html").exists(),
        "an --apps app"
    );
    assert!(site.path().join("typed.html").exists(), "a node app");
    let offline = tempfile::tempdir().unwrap();
    calimcp()
        .args(["doc", "--apps", "examples", "-o"])
        .arg(offline.path())
        .assert()
        .success();
    assert!(!offline.path().join("typed.html").exists());
    let help = calimcp().args(["doc", "--help"]).assert().success();
    let help = String::from_utf8_lossy(&help.get_output().stdout).into_owned();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("the --apps directories' and the node's"),
        "{help}"
    );
}
