//! `call_many`: up to [`MAX_CALLS`](super::fixed::MAX_CALLS) app tool calls in one request, each
//! answered in the order given, one failure not failing the rest.
//!
//! Each call is [`super::server::Connection::run_method`], the very steps of a
//! single `tools/call` (located, bound, versioned, refused by kind and
//! `--read-only`/`--allow`/`--deny`, arguments checked): a failure is the
//! error the CLI prints with `--json` (`code`, `message`, `hint`,
//! `retryable`, …). Order: consecutive [view] calls run together; a [mut]
//! call runs alone, after every call before it ended and before any call
//! after it starts. Nothing is repeated. Only app tools are taken: a fixed or
//! lifecycle tool (`call_many` itself included) in the list refuses the whole
//! request before anything runs, as do zero or more than `MAX_CALLS` calls
//! (the input schema's bounds).

use std::future::Future;
use std::pin::Pin;
use std::task::Poll;

use rmcp::model::{CallToolResult, ContentBlock};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use calimcp_core::error::{Code, Error, ErrorBody, ErrorLine};

/// One call: a tool's name and its arguments.
pub(crate) type Call = (String, Map<String, Value>);

/// One call's answer.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub(crate) enum Outcome {
    /// The call ran: `result` is the tool's result (its `structuredContent.result`
    /// where the tool declares an output schema, else its JSON text read).
    Ran {
        #[schemars(extend("const" = true))]
        ok: bool,
        result: Value,
        /// What the engine says besides the result (the context moved to its
        /// group's upgraded version on this call).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        notes: Vec<String>,
    },
    /// The call failed: the error `calimcp call --json` prints for it.
    Failed {
        #[schemars(extend("const" = false))]
        ok: bool,
        /// The error as the tool's failed result carries it.
        #[schemars(with = "ErrorBody")]
        error: Value,
        /// What the engine says besides the error (as for a call that ran).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        notes: Vec<String>,
    },
}

/// What `call_many` answers.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Answered {
    /// One per call, in the order given.
    pub results: Vec<Outcome>,
}

impl Outcome {
    /// A single call's answer as `call_many` gives it.
    pub(crate) fn of(r: Result<CallToolResult, Error>) -> Outcome {
        let r = match r {
            Ok(r) if r.is_error == Some(true) => return Outcome::failed(&r),
            r => r,
        };
        match r {
            Ok(r) => Outcome::Ran {
                ok: true,
                notes: notes_of(&r),
                result: match r.structured_content {
                    Some(Value::Object(mut o)) if o.contains_key("result") => {
                        o.remove("result").unwrap_or_default()
                    }
                    Some(v) => v,
                    None => {
                        // The output is the first block; notes follow it.
                        let text = r.content.first().and_then(|c| c.as_text());
                        let text = text.map(|t| t.text.clone()).unwrap_or_default();
                        serde_json::from_str(&text).unwrap_or(Value::String(text))
                    }
                },
            },
            Err(e) => Outcome::Failed {
                ok: false,
                error: serde_json::to_value(ErrorLine::new(&e).error).unwrap_or_default(),
                notes: Vec::new(),
            },
        }
    }
}

impl Outcome {
    /// A failed tool result as `call_many` answers it: the error it carries
    /// as `structuredContent` (every failure's, [`super::server`]), else
    /// its text.
    fn failed(r: &CallToolResult) -> Outcome {
        match r.structured_content.as_ref().and_then(|v| v.get("error")) {
            Some(error) => Outcome::Failed {
                ok: false,
                error: error.clone(),
                notes: notes_of(r),
            },
            None => Outcome::of(Err(Error::new(
                calimcp_core::error::ErrorKind::Remote,
                Code::UnexpectedResponse,
                text_of(r),
            ))),
        }
    }
}

/// The `note: ` blocks of a result, each without its prefix.
fn notes_of(r: &CallToolResult) -> Vec<String> {
    r.content
        .iter()
        .filter_map(|c| c.as_text()?.text.strip_prefix("note: ").map(str::to_string))
        .collect()
}

/// The text of a result's text blocks, joined.
fn text_of(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Why the list `calls` is refused as a whole: a name that is not an app
/// tool's (a fixed or lifecycle tool, `call_many` itself).
pub(crate) fn refused(calls: &[Call]) -> Option<String> {
    let fixed = |n: &str| {
        super::fixed::NAMES.contains(&n)
            || super::lifecycle::NAMES.contains(&n)
            || super::blobs::NAMES.contains(&n)
    };
    calls.iter().enumerate().find(|(_, (n, _))| fixed(n)).map(|(i, (n, _))| {
        format!(
            "calls/{i}: `{}` is not an app tool; call_many runs app tools only (call_many cannot be nested); nothing ran",
            calimcp_core::text::sanitize_line(n)
        )
    })
}

/// The calls split into the groups that run one after another: each run of
/// consecutive [view] calls (`is_view`) one group, each other call alone.
pub(crate) fn groups(is_view: &[bool]) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, &view) in is_view.iter().enumerate() {
        match out.last_mut() {
            Some(g) if view && is_view[g.start] => g.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

/// Every future of `futs` run together; their outputs in order.
pub(crate) async fn join_all<F: Future>(futs: Vec<F>) -> Vec<F::Output> {
    let mut futs: Vec<Pin<Box<F>>> = futs.into_iter().map(Box::pin).collect();
    let mut out: Vec<Option<F::Output>> = futs.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut pending = false;
        for (f, o) in futs.iter_mut().zip(out.iter_mut()) {
            if o.is_none() {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => *o = Some(v),
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(())
        }
    })
    .await;
    out.into_iter().flatten().collect()
}

/// The answer's text block and structured content.
pub(crate) fn result(answered: &Answered) -> CallToolResult {
    let v = serde_json::to_value(answered).unwrap_or_default();
    let mut r = CallToolResult::success(vec![ContentBlock::text(
        serde_json::to_string_pretty(&v).unwrap_or_default(),
    )]);
    r.structured_content = Some(v);
    r
}

/// [`Answered`]'s JSON Schema, as MCP clients read an `outputSchema`.
pub(crate) fn output_schema() -> Value {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12().for_serialize();
    settings.inline_subschemas = true;
    let mut v = settings
        .into_generator()
        .into_root_schema_for::<Answered>()
        .to_value();
    if let Some(m) = v.as_object_mut() {
        m.remove("$schema");
        m.remove("title");
    }
    calimcp_core::mapping::schema::admit_error(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_together_each_mut_alone() {
        let g = groups(&[true, true, false, true, false, false, true]);
        assert_eq!(g, vec![0..2, 2..3, 3..4, 4..5, 5..6, 6..7]);
        assert_eq!(groups(&[false, true, true, true]), vec![0..1, 1..4]);
    }

    #[test]
    fn a_result_without_structured_content_is_its_first_block_and_notes_follow() {
        let r = CallToolResult::success(vec![
            ContentBlock::text("[1,2]"),
            ContentBlock::text("note: the context moves"),
        ]);
        let v = serde_json::to_value(Outcome::of(Ok(r))).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"ok": true, "result": [1, 2], "notes": ["the context moves"]})
        );
        let e = Error::input(Code::UnknownTool, "unknown tool `x`").with_hint("see tools/list");
        let v = serde_json::to_value(Outcome::of(Err(e))).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"ok": false, "error": {"code": "unknown_tool", "message": "unknown tool `x`", "hint": "see tools/list", "retryable": false}})
        );
    }

    #[test]
    fn the_output_schema() {
        insta::assert_json_snapshot!(output_schema());
    }
}
