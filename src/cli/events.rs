//! An application event as one line of output, and the wait for one event:
//! shared by `watch` (every event) and `call --wait-event` (the first event of
//! a name after the call), so neither command imports the other.

use std::time::SystemTime;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use owo_colors::OwoColorize;
use serde_json::Value;

use super::output;
use calimcp_catalog::events::{Item, Subscription, span};
use calimcp_catalog::ids;
use calimcp_core::abi::Manifest;
use calimcp_core::error::Result;
use calimcp_core::mapping::events::{Decoded, Decoder, group_record, record};
use calimcp_core::text::{clock, json_inert, rfc3339, sanitize_line};

/// One line of output.
pub(super) struct Line {
    pub(super) time: SystemTime,
    pub(super) context: String,
    /// The group of a group's event (`watch --group`).
    pub(super) group: Option<String>,
    pub(super) event: String,
    pub(super) payload: Value,
    pub(super) valid: Option<bool>,
    pub(super) problem: Option<String>,
    pub(super) raw: Option<Vec<u8>>,
}

impl Line {
    /// The line of an application event decoded against the ABI.
    pub(super) fn decoded(time: SystemTime, context: &str, d: Decoded) -> Line {
        Line {
            time,
            context: context.to_string(),
            group: None,
            event: d.event,
            payload: d.payload,
            valid: Some(d.valid),
            problem: d.problem,
            raw: d.raw,
        }
    }

    pub(super) fn json(&self) -> Value {
        if let Some(group) = &self.group {
            return group_record(&rfc3339(self.time), group, &self.event, &self.payload);
        }
        record(
            &rfc3339(self.time),
            &self.context,
            &self.event,
            &self.payload,
            self.valid,
            self.problem.as_deref(),
            self.raw.as_deref(),
        )
    }

    pub(super) fn text(&self, color: bool) -> String {
        let time = clock(self.time);
        let ctx: String = sanitize_line(self.group.as_deref().unwrap_or(&self.context))
            .chars()
            .take(8)
            .collect();
        let name = sanitize_line(&self.event);
        let payload = if self.payload.is_null() && self.valid == Some(true) {
            String::new()
        } else if let (Value::Null, Some(raw)) = (&self.payload, &self.raw) {
            // Bytes that are not text: as base64, as `--json` gives `raw`.
            format!(" base64:{}", STANDARD.encode(raw))
        } else {
            format!(" {}", json_inert(self.payload.to_string()))
        };
        let mark = match (self.valid, &self.problem) {
            (Some(false), Some(p)) => format!("  [invalid: {}]", sanitize_line(p)),
            _ => String::new(),
        };
        if color {
            let name = match self.valid {
                None => name.blue().to_string(),
                Some(true) => name.cyan().bold().to_string(),
                Some(false) => name.yellow().bold().to_string(),
            };
            format!(
                "{} {} {name}{payload}{}\n",
                time.dimmed(),
                ctx.dimmed(),
                mark.yellow()
            )
        } else {
            format!("{time} {ctx} {name}{payload}{mark}\n")
        }
    }
}

/// Warns when `app` (its service `service`, else any of its services)
/// declares no event `name`: `watch --until` and `call --wait-event` (one
/// check for both) wait
/// for it anyway (a node may run a newer version that has it), but a typo
/// would otherwise wait in silence.
pub(super) fn warn_undeclared(
    ui: &output::Ui,
    app: &calimcp_core::abi::App,
    service: Option<&str>,
    name: &str,
) {
    let declared = app
        .services
        .iter()
        .filter(|s| service.is_none() || s.name.as_deref() == service)
        .any(|s| s.manifest.events.iter().any(|e| e.name == name));
    if !declared {
        ui.warn(format_args!(
            "{} declares no event `{}`; waiting for it anyway",
            sanitize_line(app.package_or_id()),
            sanitize_line(name)
        ));
    }
}

/// Waits on `sub` for the first application event called `name` in
/// `context`, decoded with `manifest`; `None` when `deadline` passes first.
/// What `call --wait-event` uses: the subscription is made before the call,
/// so the event cannot be missed.
pub(super) async fn wait_for(
    ui: &output::Ui,
    sub: &mut Subscription,
    manifest: &Manifest,
    context: &str,
    name: &str,
    deadline: tokio::time::Instant,
) -> Result<Option<Line>> {
    let mut decoder = Decoder::new(manifest);
    loop {
        let item = match tokio::time::timeout_at(deadline, sub.next()).await {
            Ok(item) => item?,
            Err(_) => return Ok(None),
        };
        let event = match item {
            // Said once it is back (or failed): the wait is short.
            Item::Dropped => continue,
            Item::Reconnected { down } => {
                ui.warn(format_args!("the event stream dropped and was opened again after {}; an event the node produced in between is lost", span(down)));
                continue;
            }
            Item::Uninitialized { context, why } => {
                ui.warn(format_args!(
                    "context {} has no state on this node yet: {}",
                    sanitize_line(&context),
                    why.why
                ));
                continue;
            }
            Item::Event(e) => e,
        };
        if !ids::same(&event.context_id, context) {
            continue;
        }
        for e in event.app_events().iter() {
            if e.kind != name {
                continue;
            }
            let d = decoder.decode(&e.kind, &e.data);
            if let (false, Some(problem)) = (d.valid, &d.problem) {
                ui.warn(format_args!("event `{}`: {problem}", sanitize_line(name)));
            }
            return Ok(Some(Line::decoded(SystemTime::now(), &event.context_id, d)));
        }
    }
}
