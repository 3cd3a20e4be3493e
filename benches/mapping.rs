//! Mapping benchmark: parse → tool set (all schemas) → JSON, timed separately.
//!
//! `cargo bench --bench mapping -- FILE...` (defaults: the scaffolding-e2e fixture
//! when ../shared is present, and the examples). Generate large inputs with
//! `python3 benches/gen_manifest.py 5000 > target/m5000.json`. Prints the median
//! of several runs for each stage; whole-command timings are in benches/run.sh.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use calimcp_core::abi::{LoadOptions, load_path};
use calimcp_core::mapping::{RefMode, ToolOptions, build};

// The allocator the binary uses, so stage timings match the command's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn time<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        let out = f();
        times.push(start.elapsed());
        last = Some(out);
    }
    (median(times), last.expect("at least one run"))
}

fn main() {
    let mut files: Vec<PathBuf> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .map(PathBuf::from)
        .collect();
    if files.is_empty() {
        let fixture = PathBuf::from("../shared/fixtures/abi/mero-mcp-scaffolding-e2e.json");
        if fixture.exists() {
            files.push(fixture);
        }
        files.push(PathBuf::from("examples/every-kind.json"));
    }
    println!(
        "{:<48} {:>8} {:>6} {:>10} {:>10} {:>10} {:>10}",
        "input", "methods", "runs", "load", "inline", "defs", "to_json"
    );
    for file in files {
        let (load, apps) = time(9, || {
            load_path(&file, &LoadOptions::default(), &mut Vec::new()).expect("loads")
        });
        let methods: usize = apps
            .iter()
            .flat_map(|a| &a.services)
            .map(|s| s.manifest.methods.len())
            .sum();
        let runs = if methods > 1000 { 5 } else { 21 };
        let inline = ToolOptions::default();
        let defs = ToolOptions {
            refs: RefMode::Defs,
            ..ToolOptions::default()
        };
        let (t_inline, set) = time(runs, || build(&apps, &inline));
        let (t_defs, _) = time(runs, || build(&apps, &defs));
        let (t_json, _) = time(runs, || {
            let tools: Vec<serde_json::Value> = set.tools.iter().map(|t| t.to_mcp()).collect();
            serde_json::to_string_pretty(&tools)
                .expect("serialises")
                .len()
        });
        let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1000.0);
        println!(
            "{:<48} {:>8} {:>6} {:>10} {:>10} {:>10} {:>10}",
            file.display().to_string(),
            methods,
            runs,
            ms(load),
            ms(t_inline),
            ms(t_defs),
            ms(t_json)
        );
    }
}
