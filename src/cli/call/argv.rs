//! The run-time command of a tool (one flag per parameter, beside the global
//! and call flags) and the argument object read from it: `--args`, the
//! flags, prompts; every problem with them reported at once.

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

/// The argument object: `--args`, then the parameter flags, then (on a
/// terminal, when every flag could be read) prompts for the required ones
/// still missing, after `before_prompt` (which finds the node and context). Flags whose values cannot be read come back beside it, so
/// they are reported together with what the schema finds.
pub(super) fn arguments(
    g: &GlobalArgs,
    flags: &CallFlags,
    specs: &[ParamSpec],
    tool_m: &ArgMatches,
    argv: &[OsString],
    check_answer: &dyn Fn(&str, &Value) -> std::result::Result<(), String>,
    before_prompt: &mut dyn FnMut(&Map<String, Value>) -> Result<()>,
) -> Result<(Map<String, Value>, Vec<Problem>)> {
    let mut stdin = Stdin::bounded(crate::cli::node::size_env(
        "CALIMCP_MAX_ARGS",
        params::MAX_ARGS,
    )?);
    let mut obj = match &flags.args_json {
        Some(raw) => params::parse_args(raw, &mut stdin)
            .map_err(|e| Error::input(Code::InvalidArguments, e))?,
        None => Map::new(),
    };
    let mut problems = Vec::new();
    for spec in specs {
        if tool_m.value_source(&spec.id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let Some(raw) = tool_m.get_one::<String>(&spec.id) else {
            continue;
        };
        if obj.contains_key(&spec.name) {
            problems.push(Problem::new(
                spec.name.clone(),
                format!(
                    "{}: given both in --args and as {}",
                    sanitize_line(&spec.name),
                    spec.flag()
                ),
            ));
            continue;
        }
        match spec.parse(raw, &mut stdin) {
            Ok(v) => {
                obj.insert(spec.name.clone(), v);
            }
            Err(p) => problems.push(p.at(spec.name.clone(), &spec.flag())),
        }
    }
    if !problems.is_empty() {
        return Ok((obj, problems));
    }
    let missing: Vec<&ParamSpec> = specs
        .iter()
        .filter(|s| s.required && !obj.contains_key(&s.name))
        .collect();
    let interactive = !missing.is_empty()
        && std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal()
        && !g.json
        && !flags.no_input;
    if interactive {
        // Whatever can fail without the user's answers fails before the questions.
        before_prompt(&obj)?;
        let added = prompt(&missing, &mut obj, check_answer)?;
        g.ui().note(format_args!(
            "the same call without prompts:\n  {}",
            equivalent(argv, &added)
        ));
    }
    Ok((obj, problems))
}
