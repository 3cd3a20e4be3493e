//! Prompting for missing parameters on a terminal, and the equivalent
//! command line to print afterwards (for `call`'s parameters and `context
//! create`'s init arguments).

use std::ffi::OsString;

use serde_json::{Map, Value};

use super::params::{self, ParamSpec, Stdin, ValueKind};
use calimcp_core::error::{Code, Error, Problem, Result};
use calimcp_core::text::sanitize_line;

/// Quotes a word for a POSIX shell when it needs it.
pub(in crate::cli) fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The command line without prompts: the original words (a `--token` value
/// replaced by the variable) plus the answers.
pub(in crate::cli) fn equivalent(argv: &[OsString], added: &[(String, String)]) -> String {
    let mut words = vec!["calimcp".to_string()];
    let mut hide_next = false;
    for w in argv.iter().skip(1) {
        let w = w.to_string_lossy();
        if hide_next {
            words.push("\"$CALIMERO_AUTH_TOKEN\"".into());
            hide_next = false;
        } else if w == "--token" {
            words.push(w.into_owned());
            hide_next = true;
        } else if w.starts_with("--token=") {
            words.push("--token=\"$CALIMERO_AUTH_TOKEN\"".into());
        } else {
            words.push(shell_quote(&w));
        }
    }
    for (flag, value) in added {
        words.push(flag.clone());
        words.push(shell_quote(value));
    }
    sanitize_line(&words.join(" "))
}

/// Asks for one line on the terminal (stderr, then stdin in its usual line
/// mode) until `check` accepts it; Ctrl-D (end of input) cancels.
pub(in crate::cli) fn ask(
    label: &str,
    check: impl Fn(&str) -> std::result::Result<(), String>,
) -> std::result::Result<String, String> {
    use std::io::Write;
    loop {
        eprint!("{label}: ");
        let _ = std::io::stderr().flush();
        let mut line = String::new();
        match std::io::stdin().read_line(&mut line) {
            Ok(0) => {
                eprintln!();
                return Err("end of input (Ctrl-D)".into());
            }
            Ok(_) => {}
            Err(e) => return Err(e.to_string()),
        }
        let answer = line.trim_end_matches(['\n', '\r']).to_string();
        match check(&answer) {
            Ok(()) => return Ok(answer),
            Err(why) => eprintln!("  {}", sanitize_line(&why)),
        }
    }
}

/// What is wrong with `value` as the parameter `name`, checked as the whole
/// argument object will be (`check`: its schema, then the exact values: an
/// enum's names, a record's fields, integer bounds), so a prompt asks again
/// at once instead of failing after the last question. Only the parameter's
/// own problems count: the others are still to be asked.
pub(in crate::cli) fn answer_check<'a>(
    check: impl Fn(&Value) -> std::result::Result<(), Vec<Problem>> + 'a,
) -> impl Fn(&str, &Value) -> std::result::Result<(), String> + 'a {
    move |name, value| {
        let one = Value::Object(Map::from_iter([(name.to_string(), value.clone())]));
        let Err(problems) = check(&one) else {
            return Ok(());
        };
        let own: Vec<String> = problems
            .iter()
            .filter(|p| {
                p.path
                    .strip_prefix(&sanitize_line(name))
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
            })
            .map(|p| {
                if p.path == sanitize_line(name) {
                    p.message.clone()
                } else {
                    p.to_string()
                }
            })
            .collect();
        match own.is_empty() {
            true => Ok(()),
            false => Err(own.join("; ")),
        }
    }
}

/// Asks for each missing parameter until its answer is valid for it
/// (`check`, see [`answer_check`]); returns the flags and values given.
pub(in crate::cli) fn prompt(
    missing: &[&ParamSpec],
    args: &mut Map<String, Value>,
    check: &dyn Fn(&str, &Value) -> std::result::Result<(), String>,
) -> Result<Vec<(String, String)>> {
    let mut added = Vec::new();
    for spec in missing {
        let label = format!(
            "{} ({})",
            sanitize_line(&spec.name),
            sanitize_line(&spec.type_name)
        );
        let kind = spec.kind;
        // What the value is for and what it looks like, above the question.
        let doc = spec
            .doc
            .as_deref()
            .and_then(|d| d.lines().next())
            .map(str::trim);
        let mut about = Vec::new();
        if let Some(d) = doc.filter(|d| !d.is_empty()) {
            about.push(sanitize_line(d));
        }
        if let Some(shape) = &spec.shape {
            about.push(format!("looks like: {shape}"));
        }
        if !about.is_empty() {
            eprintln!("  {}", about.join("; "));
        }
        let answer = ask(&label, |s| {
            if s.is_empty() && kind != ValueKind::Str {
                return Err("a value is needed".into());
            }
            if kind != ValueKind::Str && (s == "-" || s.starts_with('@')) {
                return Err("type the value itself here".into());
            }
            let value =
                params::parse_value(kind, s, &mut Stdin::new(Box::new(|| Ok(String::new()))), "")
                    .map_err(|p| p.message)?;
            check(&spec.name, &value)
        })
        .map_err(|why| {
            Error::input(
                Code::Cancelled,
                format!(
                    "cancelled: no value for {} ({why}); nothing was sent",
                    spec.flag()
                ),
            )
        })?;
        let value = params::parse_value(kind, &answer, &mut Stdin::default(), "")
            .map_err(|p| Error::input(Code::InvalidArguments, p.message))?;
        args.insert(spec.name.clone(), value);
        added.push((spec.flag(), answer));
    }
    Ok(added)
}
