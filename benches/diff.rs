//! Diff benchmark: load two manifests, then compare them, timed separately,
//! and the peak memory of loading both against loading both and diffing.
//!
//! `cargo bench --bench diff -- OLD NEW` (make the pair with
//! `benches/diff.sh`, which also times the whole command). Prints the median
//! of several runs for each stage, then runs itself twice more (`load` and
//! `diff` modes, one process each) and prints each one's VmHWM (Linux).
//! `cargo bench --bench diff -- corpus [DIR]`: every ordered pair of the
//! shared fixtures, the total and the slowest pair.
//! `cargo bench --bench diff -- stress`: the shapes that used to be
//! exponential or fail open (issue 21): 30 and 45 mutually recursive types
//! with one changed field, 50 of them inside a 5,000-method manifest, and
//! chains of 200 (found) and 600 (limit reported) records.
//! `cargo bench --bench diff -- scale DIR` (issue 30): writes the recursive
//! pairs at scale into DIR (`chain-docs`, `chain-type`, `ring-docs`, each an
//! `.old.json` and a `.new.json`: 5,000 methods sharing a 600-deep chain with
//! one leaf doc, or the leaf's type, changed; a 5,000-type ring with every
//! doc changed) and times the library on each; `benches/diff.sh` times the
//! whole command on them and their peak memory.

use std::path::Path;
use std::time::{Duration, Instant};

use std::sync::Arc;

use calimcp_core::abi::{App, LoadOptions, Service, load_path, parse_manifest_value};
use calimcp_core::mapping::ToolOptions;
use calimcp_core::mapping::diff::diff_apps;

fn load(path: &str) -> App {
    load_path(Path::new(path), &LoadOptions::default(), &mut Vec::new())
        .expect("loads")
        .remove(0)
}

/// An app of one generated manifest.
fn app_of(v: &serde_json::Value) -> App {
    App {
        id: "bench".into(),
        package: Some("com.example.bench".into()),
        source: "bench".into(),
        services: vec![Service {
            name: None,
            manifest: Arc::new(parse_manifest_value(v, &mut Vec::new()).expect("parses")),
        }],
        ..App::default()
    }
}

/// `n` mutually recursive records, each pointing at the next two (wrapping
/// round), R0 holding `v: leaf`; `methods` methods (`m0000`…), method j taking
/// R(j mod n) when j < `recursive`, else one u32.
fn mutual(n: usize, leaf: &str, methods: usize, recursive: usize) -> serde_json::Value {
    use serde_json::json;
    let mut types = serde_json::Map::new();
    for i in 0..n {
        let mut fields = vec![
            json!({"name": "a", "type": {"$ref": format!("R{}", (i + 1) % n)}, "nullable": true}),
            json!({"name": "b", "type": {"$ref": format!("R{}", (i + 2) % n)}, "nullable": true}),
        ];
        if i == 0 {
            fields.push(json!({"name": "v", "type": {"kind": leaf}}));
        }
        types.insert(format!("R{i}"), json!({"kind": "record", "fields": fields}));
    }
    let methods: Vec<_> = (0..methods)
        .map(|j| {
            let ty = if j < recursive {
                json!({"$ref": format!("R{}", j % n)})
            } else {
                json!({"kind": "u32"})
            };
            json!({"name": format!("m{j:04}"), "params": [{"name": "p", "type": ty}], "returns": {"kind": "unit"}})
        })
        .collect();
    json!({"schema_version": "wasm-abi/1", "types": types, "methods": methods, "events": []})
}

/// A chain of `n` records `T0 { next: T1 }` … `T{n-1} { v: leaf }` and one method.
fn chain(n: usize, leaf: &str) -> serde_json::Value {
    use serde_json::json;
    let mut types = serde_json::Map::new();
    for i in 0..n {
        let ty = if i + 1 == n {
            json!({"kind": "record", "fields": [{"name": "v", "type": {"kind": leaf}}]})
        } else {
            json!({"kind": "record", "fields": [{"name": "next", "type": {"$ref": format!("T{}", i + 1)}}]})
        };
        types.insert(format!("T{i}"), ty);
    }
    json!({"schema_version": "wasm-abi/1", "types": types,
           "methods": [{"name": "deep", "params": [{"name": "p", "type": {"$ref": "T0"}}], "returns": {"kind": "unit"}}],
           "events": []})
}

/// `methods` methods (`m0000`…) all taking one chain `T0 { next: T1 }` …
/// `T{depth-1} { v: leaf }`, the leaf field documented `doc`.
fn shared_chain(methods: usize, depth: usize, doc: &str, leaf: &str) -> serde_json::Value {
    use serde_json::json;
    let mut v = chain(depth, leaf);
    v["types"][format!("T{}", depth - 1)]["fields"][0]["doc"] = json!(doc);
    v["methods"] = (0..methods)
        .map(|j| json!({"name": format!("m{j:04}"), "params": [{"name": "p", "type": {"$ref": "T0"}}], "returns": {"kind": "unit"}}))
        .collect();
    v
}

/// `n` records in a ring `R0 → R1 → … → R0` (the link nullable), every type
/// and field documented `doc`; method `r{i}` takes and returns `R{i}`.
fn ring(n: usize, doc: &str) -> serde_json::Value {
    use serde_json::json;
    let mut types = serde_json::Map::new();
    for i in 0..n {
        types.insert(
            format!("R{i}"),
            json!({"kind": "record", "doc": doc, "fields": [
                {"name": "v", "type": {"kind": "u32"}, "doc": doc},
                {"name": "next", "type": {"$ref": format!("R{}", (i + 1) % n)}, "nullable": true, "doc": doc}
            ]}),
        );
    }
    let methods: Vec<_> = (0..n)
        .map(|i| json!({"name": format!("r{i:04}"), "params": [{"name": "p", "type": {"$ref": format!("R{i}")}}], "returns": {"$ref": format!("R{i}")}}))
        .collect();
    json!({"schema_version": "wasm-abi/1", "types": types, "methods": methods, "events": []})
}

/// Writes the issue 30 pairs into `dir` and times the library on each.
fn scale(dir: &str) {
    let pairs = [
        (
            "chain-docs",
            shared_chain(5000, 600, "old", "u64"),
            shared_chain(5000, 600, "new", "u64"),
        ),
        (
            "chain-type",
            shared_chain(5000, 600, "d", "u64"),
            shared_chain(5000, 600, "d", "u32"),
        ),
        ("ring-docs", ring(5000, "old"), ring(5000, "new")),
    ];
    std::fs::create_dir_all(dir).expect("the output directory");
    for (name, old, new) in &pairs {
        for (side, v) in [("old", old), ("new", new)] {
            let path = Path::new(dir).join(format!("{name}.{side}.json"));
            std::fs::write(&path, serde_json::to_vec(v).expect("json")).expect("writes");
        }
        let (a, b) = (app_of(old), app_of(new));
        let mut times = Vec::new();
        let mut summary = String::new();
        for _ in 0..5 {
            let t = Instant::now();
            let r = diff_apps(&a, &b, None, &ToolOptions::default());
            times.push(t.elapsed());
            let mut rules: Vec<&str> = r.findings.iter().map(|f| f.rule).collect();
            rules.sort();
            rules.dedup();
            summary = format!("{} findings: {}", r.findings.len(), rules.join(", "));
        }
        println!(
            "{name}: diff {:.1} ms median of 5 ({summary})",
            median(times).as_secs_f64() * 1e3
        );
    }
}

fn stress() {
    let cases: Vec<(String, App, App)> = vec![
        (
            "30 mutually recursive types, 30 methods".into(),
            app_of(&mutual(30, "u64", 30, 30)),
            app_of(&mutual(30, "u32", 30, 30)),
        ),
        (
            "45 mutually recursive types, 45 methods".into(),
            app_of(&mutual(45, "u64", 45, 45)),
            app_of(&mutual(45, "u32", 45, 45)),
        ),
        (
            "50 mutually recursive types in a 5,000-method manifest".into(),
            app_of(&mutual(50, "u64", 5000, 50)),
            app_of(&mutual(50, "u32", 5000, 50)),
        ),
        (
            "chain of 200 records".into(),
            app_of(&chain(200, "u64")),
            app_of(&chain(200, "u32")),
        ),
        (
            "chain of 600 records (limit)".into(),
            app_of(&chain(600, "u64")),
            app_of(&chain(600, "u32")),
        ),
    ];
    for (what, a, b) in &cases {
        let mut times = Vec::new();
        let mut summary = String::new();
        for _ in 0..9 {
            let t = Instant::now();
            let r = diff_apps(a, b, None, &ToolOptions::default());
            times.push(t.elapsed());
            let mut rules: Vec<&str> = r.findings.iter().map(|f| f.rule).collect();
            rules.dedup();
            summary = format!("{} findings: {}", r.findings.len(), rules.join(", "));
        }
        println!(
            "{what}: {:.1} ms median of 9 ({summary})",
            median(times).as_secs_f64() * 1e3
        );
    }
}

fn peak_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    match args.first().map(String::as_str) {
        Some("load") => {
            let (a, b) = (load(&args[1]), load(&args[2]));
            println!("{}", peak_kb());
            drop((a, b));
        }
        Some("diff") => {
            let (a, b) = (load(&args[1]), load(&args[2]));
            let r = diff_apps(&a, &b, None, &ToolOptions::default());
            println!("{}", peak_kb());
            drop(r);
        }
        Some("stress") => stress(),
        Some("scale") => scale(args.get(1).map_or("target/bench/scale", String::as_str)),
        Some("corpus") => {
            // Every ordered pair of the shared fixtures: the slowest one.
            let dir = args.get(1).map_or("../shared/fixtures/abi", String::as_str);
            let mut files: Vec<_> = std::fs::read_dir(dir)
                .expect("the fixture directory")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "json"))
                .filter(|p| !p.to_string_lossy().contains("bundle-"))
                .collect();
            files.sort();
            let apps: Vec<App> = files.iter().map(|p| load(&p.to_string_lossy())).collect();
            let (mut worst, mut total) = (Duration::ZERO, Duration::ZERO);
            for a in &apps {
                for b in &apps {
                    let t = Instant::now();
                    diff_apps(a, b, None, &ToolOptions::default());
                    let e = t.elapsed();
                    worst = worst.max(e);
                    total += e;
                }
            }
            println!(
                "corpus: {} ordered pairs in {:.1} ms, slowest pair {:.2} ms",
                apps.len() * apps.len(),
                total.as_secs_f64() * 1e3,
                worst.as_secs_f64() * 1e3
            );
        }
        Some(old) => {
            let new = args.get(1).expect("usage: diff OLD NEW");
            let (mut loads, mut diffs) = (Vec::new(), Vec::new());
            let mut findings = 0;
            for _ in 0..9 {
                let t = Instant::now();
                let (a, b) = (load(old), load(new));
                loads.push(t.elapsed());
                let t = Instant::now();
                findings = diff_apps(&a, &b, None, &ToolOptions::default())
                    .findings
                    .len();
                diffs.push(t.elapsed());
            }
            println!(
                "load both {:.1} ms, diff {:.1} ms ({findings} findings), medians of 9",
                median(loads).as_secs_f64() * 1e3,
                median(diffs).as_secs_f64() * 1e3
            );
            let me = std::env::current_exe().expect("the bench binary");
            let peak = |mode: &str| -> u64 {
                let out = std::process::Command::new(&me)
                    .args([mode, old, new])
                    .output()
                    .expect("runs");
                String::from_utf8_lossy(&out.stdout)
                    .trim()
                    .parse()
                    .unwrap_or(0)
            };
            let (l, d) = (peak("load"), peak("diff"));
            println!(
                "peak memory: loading both {l} kB, loading both and diffing {d} kB ({:.2}×)",
                d as f64 / l.max(1) as f64
            );
        }
        None => eprintln!("usage: cargo bench --bench diff -- OLD NEW"),
    }
}
