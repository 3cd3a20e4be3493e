//! `calimcp schema APP [METHOD]`: JSON Schemas on stdout.

use clap::Args;

use super::output::{self, JsonStream};
use super::{GlobalArgs, SchemaWarnings, Selection, report_warnings};
use calimcp_core::abi::{App, Service};
use calimcp_core::error::{Code, Error, Result};
use calimcp_core::mapping::schema::{MethodTrees, SchemaBudget};
use calimcp_core::mapping::tree::Node;
use calimcp_core::mapping::{self, Tool};
use calimcp_core::text::{did_you_mean, sanitize_line};

/// Print the JSON Schema of a method's arguments (or of every method).
///
/// With METHOD, the output is byte for byte the inputSchema of that method's
/// tool. Without, an object from method name to schema (for a multi-service
/// app without --service, from service name to such an object). `init` is
/// included: its arguments are the ones context creation takes.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp schema examples/kv-store set
  calimcp schema com.calimero.kv-store --apps examples
  calimcp schema examples/kv-store get --output
  calimcp schema examples/every-kind.json --refs defs")]
pub(crate) struct SchemaArgs {
    /// The app: a path, a name among the --apps directories or the node's apps, or `-` (a manifest on stdin)
    #[arg(value_hint = clap::ValueHint::AnyPath, add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub app: String,
    /// Only this method
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::method_candidates))]
    pub method: Option<String>,
    /// Return schemas instead of argument schemas (`null` for a unit return)
    #[arg(long)]
    pub output: bool,
}

fn pick(s: MethodTrees<'_>, output: bool) -> Node<'_> {
    if output {
        s.output.unwrap_or(Node::Null)
    } else {
        s.input
    }
}

pub(crate) fn run(g: &GlobalArgs, args: SchemaArgs) -> Result<()> {
    let ui = g.ui();
    let sel = super::stdin::select(g, &g.session()?, std::slice::from_ref(&args.app), true)?;
    let index = sel.apps[0];
    report_warnings(&ui, &sel.catalog, &sel.apps);
    let app = &sel.catalog.apps[index];
    let mut warnings = SchemaWarnings::default();
    if let Some(method) = &args.method {
        let (label, schemas) = one(g, &sel, index, method)?;
        warnings.report(&ui, &label, &schemas.warnings);
        warnings.finish(&ui);
        return output::print_json(&pick(schemas, args.output));
    }
    let services: Vec<&Service> = match &g.service {
        Some(s) => app
            .services
            .iter()
            .filter(|x| x.name.as_deref() == Some(s))
            .collect(),
        None => app.services.iter().collect(),
    };
    let mut out = JsonStream::new();
    out.open('{');
    let mut budget = SchemaBudget::new(g.tool_options().listing_budget);
    for svc in &services {
        if services.len() > 1 {
            out.key(svc.name.as_deref().unwrap_or_default());
            out.open('{');
        }
        let mut methods: Vec<_> = svc.manifest.methods.iter().collect();
        methods.sort_by(|a, b| a.name.cmp(&b.name));
        let renderer = out.renderer();
        let refs = g.tool_options().refs;
        let build = |m: &&calimcp_core::abi::Method, spent: bool| {
            let mut schemas = mapping::schema::listed_method_trees(&svc.manifest, m, refs, spent);
            let warned = std::mem::take(&mut schemas.warnings);
            let size = schemas.size;
            ((renderer.render(&pick(schemas, args.output)), warned), size)
        };
        output::par_map_listing(&methods, &mut budget, build, |m, (text, w)| {
            warnings.report(&ui, &sanitize_line(&m.name), &w);
            out.key(&m.name);
            out.rendered(&text);
        });
        if services.len() > 1 {
            out.close('}');
        }
    }
    out.close('}');
    warnings.finish(&ui);
    out.finish()?;
    Ok(())
}

/// The schemas of one method: its tool's, or for a method without a tool (init)
/// computed the same way.
fn one<'s>(
    g: &GlobalArgs,
    sel: &'s Selection,
    index: usize,
    method: &str,
) -> Result<(String, MethodTrees<'s>)> {
    let app = &sel.catalog.apps[index];
    let tools: Vec<&Tool> = sel
        .catalog
        .tools
        .for_app(index, g.service.as_deref())
        .filter(|t| t.method == method)
        .collect();
    match tools.as_slice() {
        [t] => return Ok((t.name.clone(), t.listed_trees(false))),
        [] => {}
        several => {
            let svcs: Vec<&str> = several
                .iter()
                .filter_map(|t| t.service.as_deref())
                .collect();
            return Err(Error::input(
                Code::AmbiguousMethod,
                format!("several services declare `{}`", sanitize_line(method)),
            )
            .with_hint(format!("pass --service: {}", svcs.join(", "))));
        }
    }
    for svc in &app.services {
        if g.service
            .as_deref()
            .is_some_and(|s| svc.name.as_deref() != Some(s))
        {
            continue;
        }
        if let Some(m) = svc.manifest.method(method) {
            return Ok((
                sanitize_line(method),
                mapping::schema::listed_method_trees(
                    &svc.manifest,
                    m,
                    g.tool_options().refs,
                    false,
                ),
            ));
        }
    }
    Err(unknown_method(app, method))
}

/// `unknown_method`, with a did-you-mean among the app's methods.
pub(crate) fn unknown_method(app: &App, method: &str) -> Error {
    let names: Vec<&str> = app
        .services
        .iter()
        .flat_map(|s| s.manifest.methods.iter().map(|m| m.name.as_str()))
        .collect();
    let err = Error::input(
        Code::UnknownMethod,
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
