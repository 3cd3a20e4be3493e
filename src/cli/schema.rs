//! `calimcp schema APP [METHOD]`: JSON Schemas on stdout.

use clap::Args;
use serde_json::{Map, Value};

use super::{GlobalArgs, Selection, output, report_warnings_for};
use crate::abi::App;
use crate::error::{Error, Result};
use crate::mapping::{self, Tool};
use crate::text::{did_you_mean, sanitize_line};

/// Print the JSON Schema of a method's arguments (or of every method).
///
/// With METHOD, the output is byte for byte the inputSchema of that method's
/// tool. Without, an object from method name to schema (for a multi-service
/// app without --service, from service name to such an object).
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp schema examples/kv-store set
  calimcp schema com.calimero.kv-store --apps examples
  calimcp schema examples/kv-store get --output
  calimcp schema app.wasm --refs defs")]
pub struct SchemaArgs {
    /// The app: a path or a name among the --apps directories
    pub app: String,
    /// Only this method
    pub method: Option<String>,
    /// Return schemas instead of argument schemas (`null` for a unit return)
    #[arg(long)]
    pub output: bool,
}

pub fn run(g: &GlobalArgs, args: SchemaArgs) -> Result<u8> {
    let ui = g.ui();
    let sel = Selection::load(g, std::slice::from_ref(&args.app), true)?;
    let index = sel.apps[0];
    report_warnings_for(&ui, &sel.catalog, &sel.apps, |t| {
        args.method.as_ref().is_none_or(|m| &t.method == m)
    });
    let app = &sel.catalog.apps[index];
    let value = match &args.method {
        Some(method) => one(g, &sel, index, method, args.output)?,
        None => {
            let services: Vec<Option<&str>> = match &g.service {
                Some(s) => vec![Some(s.as_str())],
                None => app.services.iter().map(|s| s.name.as_deref()).collect(),
            };
            if services.len() == 1 {
                all(g, app, services[0], args.output)
            } else {
                let mut by_service = Map::new();
                for s in services {
                    by_service.insert(
                        s.unwrap_or_default().to_string(),
                        all(g, app, s, args.output),
                    );
                }
                Value::Object(by_service)
            }
        }
    };
    output::print_json(&value)?;
    Ok(0)
}

fn pick(value: Option<&Value>, output: bool, tool_output: Option<&Value>) -> Value {
    if output {
        tool_output.cloned().unwrap_or(Value::Null)
    } else {
        value.cloned().unwrap_or(Value::Null)
    }
}

/// Every method of one service, by name (init included: its arguments are the
/// ones context creation takes).
fn all(g: &GlobalArgs, app: &App, service: Option<&str>, output: bool) -> Value {
    let svc = app
        .services
        .iter()
        .find(|s| s.name.as_deref() == service)
        .unwrap_or(&app.services[0]);
    let mut methods: Vec<_> = svc.manifest.methods.iter().collect();
    methods.sort_by(|a, b| a.name.cmp(&b.name));
    let mut out = Map::new();
    for m in methods {
        let s = mapping::method_schemas(&svc.manifest, m, g.tool_options().refs);
        out.insert(
            m.name.clone(),
            pick(Some(&s.input), output, s.output.as_ref()),
        );
    }
    Value::Object(out)
}

fn one(g: &GlobalArgs, sel: &Selection, index: usize, method: &str, output: bool) -> Result<Value> {
    let app = &sel.catalog.apps[index];
    let tools: Vec<&Tool> = sel
        .catalog
        .tools
        .for_app(index, g.service.as_deref())
        .filter(|t| t.method == method)
        .collect();
    match tools.as_slice() {
        [t] => {
            return Ok(pick(
                Some(&t.input_schema),
                output,
                t.return_schema.as_ref(),
            ));
        }
        [] => {}
        several => {
            let svcs: Vec<&str> = several
                .iter()
                .filter_map(|t| t.service.as_deref())
                .collect();
            return Err(Error::input(
                "ambiguous_method",
                format!("several services declare `{}`", sanitize_line(method)),
            )
            .with_hint(format!("pass --service: {}", svcs.join(", "))));
        }
    }
    // Methods without a tool (init) still have schemas.
    for svc in &app.services {
        if g.service
            .as_deref()
            .is_some_and(|s| svc.name.as_deref() != Some(s))
        {
            continue;
        }
        if let Some(m) = svc.manifest.method(method) {
            let s = mapping::method_schemas(&svc.manifest, m, g.tool_options().refs);
            return Ok(pick(Some(&s.input), output, s.output.as_ref()));
        }
    }
    Err(unknown_method(app, method))
}

/// `unknown_method`, with a did-you-mean among the app's methods.
pub fn unknown_method(app: &App, method: &str) -> Error {
    let names: Vec<&str> = app
        .services
        .iter()
        .flat_map(|s| s.manifest.methods.iter().map(|m| m.name.as_str()))
        .collect();
    let err = Error::input(
        "unknown_method",
        format!(
            "{} has no method `{}`",
            sanitize_line(app.package_or_id()),
            sanitize_line(method)
        ),
    );
    match did_you_mean(method, names.iter().copied()).first() {
        Some(s) => err.with_hint(format!("did you mean `{}`?", sanitize_line(s))),
        None => err.with_hint(format!(
            "its methods: {}",
            names
                .iter()
                .map(|n| sanitize_line(n))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
