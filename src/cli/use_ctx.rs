//! `calimcp use APP [--context ID|ALIAS | --clear]`: the context later calls
//! of an app run in, per node (and per service with --service).

use clap::Args;
use schemars::JsonSchema;
use serde::Serialize;

use super::node::pins;
use super::{GlobalArgs, output};
use calimcp_catalog::accounts as node;
use calimcp_catalog::context::Pins;
use calimcp_catalog::context::{ContextRow, DEFAULT_ALIAS};
use calimcp_catalog::session::{PinTarget, Session};
use calimcp_core::abi::App;
use calimcp_core::error::Result;
use calimcp_core::text::sanitize_line;

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
pub(crate) struct UseArgs {
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

/// `use --json`: the app, the node and the context its calls use there.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct UseAnswer<'a> {
    /// The app: its package, else its id.
    pub app: &'a str,
    /// The service (with --service), else `null`.
    pub service: Option<&'a str>,
    /// The node's URL.
    pub node: &'a str,
    /// The pinned context as given (an id or an alias); `null` when none is
    /// pinned (or the pin was just cleared).
    pub context: Option<&'a str>,
    /// The context id the pin was checked to stand for (when just pinned).
    pub id: Option<&'a str>,
    /// Without a pin: the app's contexts on the node, when it answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub contexts: Option<&'a [ContextRow]>,
}

pub(crate) fn run(g: &GlobalArgs, args: UseArgs) -> Result<()> {
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
    let mut pin = Pin {
        g,
        session: &session,
        app,
        service,
        node_url,
        label,
        pins: pins()?,
    };
    match &args.context {
        _ if args.clear => pin.clear(),
        None => pin.show(),
        Some(context) => pin.set(context),
    }
}

/// One app's pin on one node, and how `use` reports it.
struct Pin<'a> {
    g: &'a GlobalArgs,
    session: &'a Session,
    app: &'a App,
    service: Option<&'a str>,
    node_url: String,
    /// The app (and service) as messages name it.
    label: String,
    pins: Pins,
}

impl Pin<'_> {
    /// Prints the outcome: `text`, or with --json the pin as data.
    fn report_with(
        &self,
        context: Option<&str>,
        id: Option<&str>,
        contexts: Option<&[ContextRow]>,
        text: String,
    ) -> Result<()> {
        if self.g.json {
            output::print_json_compact(&UseAnswer {
                app: self.app.package_or_id(),
                service: self.service,
                node: &self.node_url,
                context,
                id,
                contexts,
            })?;
        } else {
            output::print(&(text + "\n"))?;
        }
        Ok(())
    }

    fn report(&self, context: Option<&str>, id: Option<&str>, text: String) -> Result<()> {
        self.report_with(context, id, None, text)
    }

    /// `use APP --clear`.
    fn clear(&mut self) -> Result<()> {
        let (label, node_url) = (&self.label, &self.node_url);
        let was = self
            .pins
            .get_exact(node_url, self.app, self.service)
            .map(str::to_string);
        self.pins.set(node_url, self.app, self.service, None);
        self.pins.save()?;
        let text = match was {
            Some(c) => format!(
                "{label}: no longer pinned to context {} on {node_url}",
                sanitize_line(&c)
            ),
            None => format!("{label}: no context was pinned on {node_url}"),
        };
        self.report(None, None, text)
    }

    /// `use APP`: the pin, else which context calls use and why.
    fn show(&self) -> Result<()> {
        let (label, node_url) = (&self.label, &self.node_url);
        if let Some(c) = self.pins.get(node_url, self.app, self.service) {
            let text = format!("{label}: context {} on {node_url}", sanitize_line(c));
            return self.report(Some(c), None, text);
        }
        // Without a pin the app's contexts on the node decide: say which
        // case this is (and list them), when the node answers.
        let rows = self.session.app_context_rows(self.app, self.service, false);
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
                let rule = match many.iter().find(|r| r.is_default()) {
                    Some(d) => format!(
                        "calls use the one aliased `{DEFAULT_ALIAS}` ({}) unless given --context",
                        sanitize_line(&d.id)
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
        self.report_with(None, None, rows.as_deref(), text)
    }

    /// `use APP --context X`: checked by the session to run the app when a
    /// node answers; a full id is pinned unchecked without one.
    fn set(&mut self, context: &str) -> Result<()> {
        let (id, context) = match self.session.pin_target(self.app, self.service, context)? {
            PinTarget::Checked(target) => {
                // Ids are shown and pinned in the node's own form (learnt
                // from the listing that checked it).
                let context = if calimcp_catalog::ids::is_id(context) {
                    self.session.node_id(context)?
                } else {
                    context.to_string()
                };
                (self.session.node_id(&target.id)?, context)
            }
            PinTarget::Unchecked(why) => {
                self.g.ui().warn(format_args!(
                    "{why}: the context id was pinned without checking that it belongs to the app"
                ));
                (context.to_string(), context.to_string())
            }
        };
        self.pins
            .set(&self.node_url, self.app, self.service, Some(&context));
        self.pins.save()?;
        let via = if calimcp_catalog::ids::is_id(&context) {
            String::new()
        } else {
            format!(" (alias {})", sanitize_line(&context))
        };
        let text = format!(
            "{}: calls now use context {}{via} on {}",
            self.label,
            sanitize_line(&id),
            self.node_url
        );
        self.report(Some(&context), Some(&id), text)
    }
}

/// One context a line: its id, aliases, version and whether it is ready.
fn context_lines(rows: &[ContextRow]) -> String {
    rows.iter()
        .map(|r| {
            let mut about: Vec<String> = r
                .aliases
                .iter()
                .map(|a| format!("alias {}", sanitize_line(a)))
                .collect();
            if let Some(v) = &r.version {
                about.push(format!("version {}", sanitize_line(v)));
            }
            if r.initialized == Some(false) {
                about.push("uninitialized".into());
            }
            let id = sanitize_line(&r.id);
            if about.is_empty() {
                format!("\n  {id}")
            } else {
                format!("\n  {id} ({})", about.join(", "))
            }
        })
        .collect()
}
