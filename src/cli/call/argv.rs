//! What `call` makes of its parsed line: the tool's matches, and every
//! problem with the arguments reported at once (the argument object itself
//! is read by [`crate::cli::toolcmd::input`], which `context create` shares).

use super::*;
use calimcp_core::error::Code;

/// Every problem with the arguments in one error: the flags that could not be
/// read, then what the schema found in the rest (a parameter whose flag was
/// unreadable is not reported again as missing).
pub(super) fn invalid_args(
    tool: &Tool,
    specs: &[ParamSpec],
    flag_problems: &[Problem],
    problems: &[Problem],
) -> Error {
    let unreadable = |path: &str| {
        flag_problems.iter().any(|f| {
            path.strip_prefix(f.path.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(['.', '[']))
        })
    };
    let problems: Vec<&Problem> = problems.iter().filter(|p| !unreadable(&p.path)).collect();
    // A flag's problem names the flag in its message, not the parameter.
    let flag_lines = flag_problems.iter().map(|f| format!("\n  {}", f.message));
    let lines: Vec<String> = flag_lines
        .chain(problems.iter().map(|p| {
            let flag = specs
                .iter()
                .find(|s| s.name == p.path)
                .filter(|_| p.missing)
                .map(|s| format!("; pass {}", s.flag()))
                .unwrap_or_default();
            format!("\n  {p}{flag}")
        }))
        .collect();
    let mut e = Error::input(
        Code::InvalidArguments,
        format!(
            "invalid arguments for {} (nothing was sent):{}",
            tool.name,
            lines.concat()
        ),
    )
    .with_hint(format!("see `calimcp call {} --help`", tool.name));
    e.problems = flag_problems.iter().chain(problems).cloned().collect();
    e
}

pub(super) fn sub<'a>(m: &'a ArgMatches, name: &str) -> Option<&'a ArgMatches> {
    m.subcommand_matches(name)
}
