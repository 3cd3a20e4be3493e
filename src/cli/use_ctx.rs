//! `calimcp use APP [--context ID|ALIAS | --clear]`: the context later calls
//! of an app run in, per node (and per service with --service).

use clap::Args;
use serde_json::{Value, json};

use super::node::pins;
use super::{GlobalArgs, output};
use crate::catalog::context::session_context_rows;
use crate::catalog::session::PinTarget;
use crate::error::Result;
use crate::node;
use crate::text::sanitize_line;

/// Pin the context calls of an app use on this node, show it, or clear it.
///
/// The pin is kept per node URL and app (and service, with --service) in the
/// state directory. An alias is stored as given and looked up at every call,
/// so re-pointing the alias re-points the calls. `--context` on a call wins
/// over the pin. A full context id is pinned without a node too (--offline,
/// or no node answering), with a warning that it was not checked; when a node
/// answers, the id must be one of the app's contexts there.
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  calimcp use kv-store --context my-alias
  calimcp use kv-store                      # shows the pinned context
  calimcp use kv-store --clear")]
pub struct UseArgs {
    /// The app: a name among the local apps and the node's
    #[arg(add = clap_complete::ArgValueCompleter::new(super::complete::app_candidates))]
    pub app: String,
    /// The context to pin: an id (64 hex or base58) or an alias
    #[arg(short = 'c', long, value_name = "ID|ALIAS", conflicts_with = "clear")]
    pub context: Option<String>,
    /// Remove the pin
    #[arg(long)]
    pub clear: bool,
}

pub fn run(g: &GlobalArgs, args: UseArgs) -> Result<u8> {
    let session = g.session()?;
    let sel = g.select(&session, std::slice::from_ref(&args.app), true)?;
    let app = &sel.catalog.apps[sel.apps[0]];
    let service = g.service.as_deref();
    let (_, node_url) = node::normalize_url(g.node.checked_url()?)?;
    let label = match service {
        Some(s) => format!(
            "{} (service {})",
            sanitize_line(app.package_or_id()),
            sanitize_line(s)
        ),
        None => sanitize_line(app.package_or_id()),
    };
    let mut pins = pins()?;
    let report_with = |context: Option<&str>,
                       id: Option<&str>,
                       contexts: Option<&[Value]>,
                       text: String|
     -> Result<u8> {
        if g.json {
            let mut v = json!({
                "app": app.package_or_id(), "service": service, "node": node_url,
                "context": context, "id": id,
            });
            if let Some(rows) = contexts {
                v["contexts"] = Value::Array(rows.to_vec());
            }
            output::print_json_compact(&v)?;
        } else {
            output::print(&(text + "\n"))?;
        }
        Ok(0)
    };
    let report = |context: Option<&str>, id: Option<&str>, text: String| {
        report_with(context, id, None, text)
    };
    if args.clear {
        let was = pins.get_exact(&node_url, app, service).map(str::to_string);
        pins.set(&node_url, app, service, None);
        pins.save()?;
        let text = match was {
            Some(c) => format!(
                "{label}: no longer pinned to context {} on {node_url}",
                sanitize_line(&c)
            ),
            None => format!("{label}: no context was pinned on {node_url}"),
        };
        return report(None, None, text);
    }
    let Some(context) = &args.context else {
        if let Some(c) = pins.get(&node_url, app, service) {
            let text = format!("{label}: context {} on {node_url}", sanitize_line(c));
            return report(Some(c), None, text);
        }
        // Without a pin the app's contexts on the node decide: say which
        // case this is (and list them), when the node answers.
        let rows = (!session.offline())
            .then(|| session_context_rows(&session, app, service, false))
            .flatten();
        let unpinned = format!("{label}: no context pinned on {node_url}");
        let text = match rows.as_deref() {
            None => format!(
                "{unpinned}; calls use the app's only context, else the one aliased `default`"
            ),
            Some([]) => format!(
                "{unpinned}, and the app has no context there: create one, then pin it with --context"
            ),
            Some([one]) => format!(
                "{unpinned}; calls use the app's only context there:{}",
                context_lines(std::slice::from_ref(one))
            ),
            Some(many) => {
                let default = many.iter().find(|r| {
                    r["aliases"]
                        .as_array()
                        .is_some_and(|a| a.iter().any(|x| x == "default"))
                });
                let rule = match default {
                    Some(d) => format!(
                        "calls use the one aliased `default` ({}) unless given --context",
                        sanitize_line(d["id"].as_str().unwrap_or_default())
                    ),
                    None => "calls need --context, or pin one with --context".to_string(),
                };
                format!(
                    "{unpinned}, and the app has {} contexts there; {rule}:{}",
                    many.len(),
                    context_lines(many)
                )
            }
        };
        return report_with(None, None, rows.as_deref(), text);
    };
    // A full id needs no node: pinned as given, checked when a node answers.
    let pin_unchecked = |why: &str| -> Result<u8> {
        let mut pins = super::node::pins()?;
        pins.set(&node_url, app, service, Some(context));
        pins.save()?;
        g.ui().warn(format_args!(
            "{why}: the context id was pinned without checking that it belongs to the app"
        ));
        report(
            Some(context),
            Some(context),
            format!(
                "{label}: calls now use context {} on {node_url}",
                sanitize_line(context)
            ),
        )
    };
    // The context must run this app (any version of it): the session checks.
    let id = match session.pin_target(app, service, context)? {
        PinTarget::Checked(target) => target.id,
        PinTarget::Unchecked(why) => return pin_unchecked(&why),
    };
    let client = session.client()?;
    // Ids are shown and pinned in the node's own form (learnt from the listing above).
    let id = client.node_id(&id);
    let context = &if node::ids::is_id(context) {
        client.node_id(context)
    } else {
        context.clone()
    };
    pins.set(&node_url, app, service, Some(context));
    pins.save()?;
    let via = if node::ids::is_id(context) {
        String::new()
    } else {
        format!(" (alias {})", sanitize_line(context))
    };
    report(
        Some(context),
        Some(&id),
        format!(
            "{label}: calls now use context {}{via} on {node_url}",
            sanitize_line(&id)
        ),
    )
}

/// One context a line: its id, aliases, version and whether it is ready.
fn context_lines(rows: &[Value]) -> String {
    rows.iter()
        .map(|r| {
            let text = |k: &str| sanitize_line(r[k].as_str().unwrap_or_default());
            let mut about: Vec<String> = r["aliases"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(|a| format!("alias {}", sanitize_line(a)))
                .collect();
            if r["version"].is_string() {
                about.push(format!("version {}", text("version")));
            }
            if r["initialized"] == false {
                about.push("uninitialized".into());
            }
            if about.is_empty() {
                format!("\n  {}", text("id"))
            } else {
                format!("\n  {} ({})", text("id"), about.join(", "))
            }
        })
        .collect()
}
