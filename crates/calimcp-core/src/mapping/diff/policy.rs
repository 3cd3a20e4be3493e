//! A project's diff policy, checked in next to the app (`calimcp-diff.json`):
//! per-rule level overrides, findings to ignore (each with its reason), and
//! whether a breaking change must come with a new app version. Pure: the CLI
//! reads the file, this applies it to a [`Report`].

use serde::Deserialize;
use serde_json::Value;

use super::rules::{Level, rule_by_id};
use super::{Finding, Report};

/// The policy file's default name, looked up in the working directory.
pub const FILE: &str = "calimcp-diff.json";

/// A parsed policy.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Policy {
    /// Rule id → the level its findings get instead of the table's.
    pub levels: Vec<(String, Level)>,
    pub ignore: Vec<Ignore>,
    /// Whether a breaking finding needs a new app version (`true` unless the
    /// file says otherwise; only checked when both versions are known).
    pub require_version_bump: bool,
}

/// One accepted finding: its rule, its path (exact, or a prefix ending in
/// `*`), optionally its service, and why it is accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ignore {
    pub rule: String,
    pub path: String,
    pub service: Option<String>,
    pub reason: String,
}

impl Ignore {
    fn matches(&self, f: &Finding) -> bool {
        let path = match self.path.strip_suffix('*') {
            Some(prefix) => f.path.starts_with(prefix),
            None => f.path == self.path,
        };
        self.rule == f.rule
            && path
            && self
                .service
                .as_ref()
                .is_none_or(|s| f.service.as_deref() == Some(s))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default)]
    levels: serde_json::Map<String, Value>,
    #[serde(default)]
    ignore: Vec<IgnoreFile>,
    #[serde(default = "yes")]
    require_version_bump: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct IgnoreFile {
    rule: String,
    path: String,
    #[serde(default)]
    service: Option<String>,
    #[serde(default)]
    reason: Option<String>,
}

impl Policy {
    /// The policy when there is no file: the table's levels, nothing
    /// ignored, version bumps required where versions are known.
    pub fn none() -> Self {
        Policy {
            require_version_bump: true,
            ..Policy::default()
        }
    }

    /// Parses a policy file; every mistake is an error naming what to fix
    /// (an unknown rule, a level that is not one, an ignore without a reason).
    pub fn parse(bytes: &[u8]) -> Result<Policy, String> {
        let file: File = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
        let mut levels = Vec::new();
        for (rule, level) in file.levels {
            if rule_by_id(&rule).is_none() {
                return Err(format!("levels: unknown rule {rule:?}"));
            }
            let level = match level.as_str() {
                Some("breaking") => Level::Breaking,
                Some("warning") => Level::Warning,
                Some("info") => Level::Info,
                _ => {
                    return Err(format!(
                        "levels.{rule}: {level} is not a level (breaking, warning or info)"
                    ));
                }
            };
            levels.push((rule, level));
        }
        let mut ignore = Vec::new();
        for (i, e) in file.ignore.into_iter().enumerate() {
            if rule_by_id(&e.rule).is_none() {
                return Err(format!("ignore[{i}]: unknown rule {:?}", e.rule));
            }
            let reason = e.reason.unwrap_or_default();
            if reason.trim().is_empty() {
                return Err(format!(
                    "ignore[{i}] ({} at {}): every ignored finding needs a \"reason\"",
                    e.rule, e.path
                ));
            }
            ignore.push(Ignore {
                rule: e.rule,
                path: e.path,
                service: e.service,
                reason,
            });
        }
        Ok(Policy {
            levels,
            ignore,
            require_version_bump: file.require_version_bump,
        })
    }
}

/// A finding an ignore entry accepted, as `diff --json` lists it.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct IgnoredRow<'a> {
    pub rule: &'a str,
    pub service: Option<&'a str>,
    pub path: &'a str,
    /// The ignore entry's reason.
    pub reason: &'a str,
}

impl Applied {
    /// The findings ignored, as rows.
    pub fn ignored_rows(&self) -> Vec<IgnoredRow<'_>> {
        self.ignored
            .iter()
            .map(|(f, reason)| IgnoredRow {
                rule: f.rule,
                service: f.service.as_deref(),
                path: &f.path,
                reason,
            })
            .collect()
    }
}

/// What applying a policy left aside.
#[derive(Debug, Clone, Default)]
pub struct Applied {
    /// Findings an ignore entry accepted, with that entry's reason.
    pub ignored: Vec<(Finding, String)>,
    /// Ignore entries that matched nothing (stale: the change is gone).
    pub unused: Vec<Ignore>,
}

/// Applies `policy` to `report`: levels first, then ignores, then the
/// version check (a breaking finding left with versions known and not
/// bumped adds `app-version-not-bumped`).
pub fn apply(
    report: &mut Report,
    policy: &Policy,
    old_version: Option<&str>,
    new_version: Option<&str>,
) -> Applied {
    for f in &mut report.findings {
        if let Some((_, level)) = policy.levels.iter().find(|(r, _)| r == f.rule) {
            f.level = *level;
        }
    }
    let mut applied = Applied::default();
    let mut used = vec![false; policy.ignore.len()];
    let mut kept = Vec::new();
    for f in std::mem::take(&mut report.findings) {
        match policy.ignore.iter().position(|i| i.matches(&f)) {
            Some(i) => {
                used[i] = true;
                applied.ignored.push((f, policy.ignore[i].reason.clone()));
            }
            None => kept.push(f),
        }
    }
    report.findings = kept;
    applied.unused = policy
        .ignore
        .iter()
        .zip(used)
        .filter(|(_, u)| !u)
        .map(|(i, _)| i.clone())
        .collect();
    if policy.require_version_bump
        && report.count(Level::Breaking) > 0
        && let (Some(a), Some(b)) = (old_version, new_version)
        && !breaking_bump(a, b)
    {
        let level = policy
            .levels
            .iter()
            .find(|(r, _)| r == "app-version-not-bumped")
            .map_or(Level::Breaking, |(_, l)| *l);
        let f = Finding {
            rule: "app-version-not-bumped",
            level,
            service: None,
            path: "version".into(),
            old: crate::text::sanitize_line(a),
            new: crate::text::sanitize_line(b),
            example: None,
            message: format!(
                "this release breaks callers or state but its version goes from {} to {}: a breaking release needs a new major version ({}); bump it so installers and agents can tell",
                crate::text::sanitize_line(a),
                crate::text::sanitize_line(b),
                next_major(a)
            ),
        };
        if !policy.ignore.iter().any(|i| i.matches(&f)) {
            report.findings.push(f);
        }
    }
    applied
}

fn semver(v: &str) -> Option<(u64, u64, u64)> {
    let core = v.trim().trim_start_matches('v');
    let core = core.split(['-', '+']).next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u64>().ok());
    let major = parts.next()??;
    let minor = parts.next().flatten().unwrap_or(0);
    let patch = parts.next().flatten().unwrap_or(0);
    Some((major, minor, patch))
}

/// Whether `new` is a breaking bump over `old` by semver: a higher major, or
/// for 0.x a higher minor (cargo's rule). Versions that are not semver must
/// at least differ.
pub fn breaking_bump(old: &str, new: &str) -> bool {
    match (semver(old), semver(new)) {
        (Some((0, a, _)), Some((0, b, _))) => b > a,
        (Some((a, _, _)), Some((b, _, _))) => b > a,
        _ => old.trim() != new.trim(),
    }
}

fn next_major(v: &str) -> String {
    match semver(v) {
        Some((0, minor, _)) => format!("0.{}.0", minor + 1),
        Some((major, _, _)) => format!("{}.0.0", major + 1),
        None => "a new version".into(),
    }
}
