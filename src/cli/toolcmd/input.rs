//! The argument object read from a parsed line: `--args`, then one flag per
//! parameter, then (on a terminal) prompts for the required ones still
//! missing. `call` reads a method's arguments with it, `context create` its
//! `init`'s: one rule for both.

use std::ffi::OsString;
use std::io::IsTerminal;

use clap::ArgMatches;
use clap::parser::ValueSource;
use serde_json::{Map, Value};

use super::GlobalArgs;
use super::files::{self, BlobFile};
use super::params::{self, ParamSpec, Stdin};
use super::prompt::{equivalent, prompt};
use calimcp_core::error::{Code, Error, Problem, Result};
use calimcp_core::text::sanitize_line;

/// Where the arguments come from besides the parameter flags.
pub(in crate::cli) struct Given<'a> {
    /// `--args`: JSON, @FILE or -.
    pub args_json: Option<&'a str>,
    /// `--no-input`: never prompt.
    pub no_input: bool,
    /// What the line is, for the note after prompts ("call", "command").
    pub what: &'a str,
}

/// What a line's arguments came to.
pub(in crate::cli) struct Arguments {
    /// The argument object.
    pub obj: Map<String, Value>,
    /// The flags whose values could not be read.
    pub problems: Vec<Problem>,
    /// The files to upload as blobs (`@blob:FILE`).
    pub blobs: Vec<BlobFile>,
}

/// The argument object: `--args`, then the parameter flags, then (on a
/// terminal, when every flag could be read) prompts for the required ones
/// still missing, after `before_prompt` (which finds what can fail without
/// the user's answers). Flags whose values cannot be read come back beside
/// it, so they are reported together with what the schema finds; so do the
/// files to upload as blobs (`@blob:FILE`).
pub(in crate::cli) fn arguments(
    g: &GlobalArgs,
    given: &Given,
    specs: &[ParamSpec],
    m: &ArgMatches,
    argv: &[OsString],
    check_answer: &dyn Fn(&str, &Value) -> std::result::Result<(), String>,
    before_prompt: &mut dyn FnMut(&Map<String, Value>) -> Result<()>,
) -> Result<Arguments> {
    let mut stdin = Stdin::bounded(crate::cli::node::size_env(
        "CALIMCP_MAX_ARGS",
        params::MAX_ARGS,
    )?);
    let mut obj = match given.args_json {
        Some(raw) => params::parse_args(raw, &mut stdin)
            .map_err(|e| Error::input(Code::InvalidArguments, e))?,
        None => Map::new(),
    };
    let mut blobs = Vec::new();
    let problems = flag_values(specs, m, &mut obj, &mut stdin, &mut blobs);
    if !problems.is_empty() {
        return Ok(Arguments {
            obj,
            problems,
            blobs,
        });
    }
    let missing: Vec<&ParamSpec> = specs
        .iter()
        .filter(|s| s.required && !obj.contains_key(&s.name))
        .collect();
    let interactive = !missing.is_empty()
        && std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal()
        && !g.json
        && !given.no_input;
    if interactive {
        // Whatever can fail without the user's answers fails before the questions.
        before_prompt(&obj)?;
        let added = prompt(&missing, &mut obj, check_answer)?;
        g.ui().note(format_args!(
            "the same {} without prompts:\n  {}",
            given.what,
            equivalent(argv, &added)
        ));
    }
    Ok(Arguments {
        obj,
        problems,
        blobs,
    })
}

/// The parameter flags given on the line, read into `obj`; the problems of
/// the ones that could not be read (or were also in `--args`).
fn flag_values(
    specs: &[ParamSpec],
    m: &ArgMatches,
    obj: &mut Map<String, Value>,
    stdin: &mut Stdin,
    blobs: &mut Vec<BlobFile>,
) -> Vec<Problem> {
    let mut problems = Vec::new();
    for spec in specs {
        if m.value_source(&spec.id) != Some(ValueSource::CommandLine) {
            continue;
        }
        let Some(raw) = m.get_one::<String>(&spec.id) else {
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
        if let Some(r) = files::file_value(spec, raw, stdin.max) {
            match r {
                Ok((v, blob)) => {
                    obj.insert(spec.name.clone(), v);
                    blobs.extend(blob);
                }
                Err(p) => problems.push(p.at(spec.name.clone(), &spec.flag())),
            }
            continue;
        }
        match spec.parse(raw, stdin) {
            Ok(v) => {
                obj.insert(spec.name.clone(), v);
            }
            Err(p) => problems.push(p.at(spec.name.clone(), &spec.flag())),
        }
    }
    problems
}
