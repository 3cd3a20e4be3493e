//! Diff benchmark: load two manifests, then compare them, timed separately,
//! and the peak memory of loading both against loading both and diffing.
//!
//! `cargo bench --bench diff -- OLD NEW` (make the pair with
//! `benches/diff.sh`, which also times the whole command). Prints the median
//! of several runs for each stage, then runs itself twice more (`load` and
//! `diff` modes, one process each) and prints each one's VmHWM (Linux).
//! `cargo bench --bench diff -- corpus [DIR]`: every ordered pair of the
//! shared fixtures, the total and the slowest pair.

use std::path::Path;
use std::time::{Duration, Instant};

use calimcp::abi::{App, LoadOptions, load_path};
use calimcp::mapping::ToolOptions;
use calimcp::mapping::diff::diff_apps;

fn load(path: &str) -> App {
    load_path(Path::new(path), &LoadOptions::default(), &mut Vec::new())
        .expect("loads")
        .remove(0)
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
