//! Which tools are exposed: `--read-only`, `--allow GLOB`, `--deny GLOB`.
//! Shared by `tools` and `serve`, so the two always agree. Deny wins.

use super::Tool;

/// A tool filter; the default admits everything.
#[derive(Debug, Clone, Default)]
pub struct Filter {
    pub read_only: bool,
    pub allow: Vec<String>,
    pub deny: Vec<String>,
}

/// `*` matches any run of characters, `?` any one character; everything else is literal.
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

impl Filter {
    /// The `--allow` and `--deny` patterns that match none of `names`, as
    /// the user wrote them (`--allow 'kv_*'`): most likely a typo.
    pub fn unmatched<'a>(&self, names: impl Iterator<Item = &'a str> + Clone) -> Vec<String> {
        let mut out = Vec::new();
        for (flag, patterns) in [("--allow", &self.allow), ("--deny", &self.deny)] {
            for p in patterns {
                if !names.clone().any(|n| glob_match(p, n)) {
                    out.push(format!("{flag} '{p}'"));
                }
            }
        }
        out
    }

    /// Whether the tool is listed and callable.
    pub fn admits(&self, tool: &Tool) -> bool {
        self.admits_name(&tool.name, tool.read_only)
    }

    /// Whether a tool called `name` (one that only reads when `read_only`)
    /// is listed and callable: `serve`'s fixed tools pass the same filter.
    pub fn admits_name(&self, name: &str, read_only: bool) -> bool {
        if self.read_only && !read_only {
            return false;
        }
        if self.deny.iter().any(|g| glob_match(g, name)) {
            return false;
        }
        self.allow.is_empty() || self.allow.iter().any(|g| glob_match(g, name))
    }

    /// Why a tool is refused, for error messages; `None` when it is admitted.
    pub fn refusal(&self, tool: &Tool) -> Option<String> {
        if self.read_only && !tool.read_only {
            return Some(format!(
                "`{}` changes state and the server runs with --read-only",
                tool.name
            ));
        }
        if !self.admits(tool) {
            return Some(format!("`{}` is excluded by --allow/--deny", tool.name));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("kv_store_*", "kv_store_get"));
        assert!(glob_match("*_get", "kv_store_get"));
        assert!(glob_match("kv_?tore_get", "kv_store_get"));
        assert!(glob_match("*", ""));
        assert!(!glob_match("kv_*_set", "kv_store_get"));
        assert!(glob_match("a*b*c", "aXXbYYc"));
        assert!(!glob_match("a*b*c", "aXXbYY"));
    }

    #[test]
    fn names_pass_the_same_filter_as_tools() {
        let f = Filter {
            read_only: true,
            allow: vec!["*".into()],
            deny: vec!["wait_*".into()],
        };
        assert!(f.admits_name("describe_app", true));
        assert!(!f.admits_name("wait_for_events", true), "deny wins");
        assert!(!f.admits_name("describe_app", false), "--read-only");
        let only = Filter {
            allow: vec!["kv_*".into()],
            ..Filter::default()
        };
        assert!(
            !only.admits_name("call_until", true),
            "--allow names what is listed"
        );
        assert!(Filter::default().admits_name("select_app", true));
    }
}
