//! Waiting for state, for both faces: a context initialized on this node
//! (`calimcp wait`, MCP `wait_for_context`), and a result that equals what
//! is expected (`call VIEW --until`).
//!
//! The context waited for is bound first, within the wait's deadline, by
//! the engine's bind step for a context named without an app
//! ([`super::call::bind_named`]).
//!
//! A context is initialized when the node has its state: the root hash the
//! node lists for it is not the zero hash ([`NodeContext::initialized`];
//! `GET /admin-api/contexts/for-application/:app`), else, where the listing
//! has no root hash, `sync_status`'s `isInitialized` (rc.4 and later). When it
//! does not come in time the node's own account says why
//! ([`Client::uninitialized_why`]).
//!
//! A result is compared with the expected VALUE by
//! [`calimcp_core::mapping::until::same`] — as JSON, numbers exactly by their
//! decimal text (`5` equals `5.0`; never through a double), a number and its
//! decimal string alike — and a VALUE that is not JSON is a string; a string
//! result also equals VALUE written without quotes. A VALUE that is a number
//! is compared by its text as written. A PATH picks part of the
//! result: a JSON pointer (`/items/0/name`) or a dotted path (`items.0.name`,
//! each segment an object key or an array index); a result without it does
//! not match.

use std::time::Duration;

use serde_json::Value;

use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;
use calimcp_node::contexts::ContextInfo;
use calimcp_node::{Client, ids};

/// What to wait for in a result.
#[derive(Debug, Clone)]
pub struct Expect {
    /// The JSON pointer of the value compared (empty: the whole result).
    pointer: String,
    /// PATH as written (for messages).
    path: Option<String>,
    /// VALUE as written.
    raw: String,
    /// VALUE as JSON, when it is JSON.
    json: Option<Value>,
}

impl Expect {
    /// The whole result equal to `value`, or the value at `path`.
    pub fn new(path: Option<&str>, value: &str) -> Expect {
        Expect {
            pointer: path.map(pointer).unwrap_or_default(),
            path: path.map(str::to_string),
            raw: value.to_string(),
            // A number by its text as written (exact past f64's precision):
            // a number's decimal string compares as the number.
            json: serde_json::from_str(value).ok().map(|v: Value| {
                if v.is_number() {
                    Value::String(value.trim().to_string())
                } else {
                    v
                }
            }),
        }
    }

    /// The value at `path` (or the whole result) equal to the JSON `value`;
    /// a string also matches a string result with the same text.
    pub fn from_json(path: Option<&str>, value: &Value) -> Expect {
        Expect {
            pointer: path.map(pointer).unwrap_or_default(),
            path: path.map(str::to_string),
            raw: match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            },
            json: Some(value.clone()),
        }
    }

    /// `PATH=VALUE` (split at the first `=`).
    pub fn parse_path_value(pv: &str) -> Option<Expect> {
        pv.split_once('=').map(|(p, v)| Expect::new(Some(p), v))
    }

    /// Whether `result` is what is waited for.
    pub(crate) fn matches(&self, result: &Value) -> bool {
        let Some(actual) = result.pointer(&self.pointer) else {
            return false;
        };
        self.json
            .as_ref()
            .is_some_and(|v| calimcp_core::mapping::until::same(v, actual))
            || actual.as_str() == Some(&self.raw)
    }

    /// "`status` equal to done" / "a result equal to 3", for messages.
    pub fn wanted(&self) -> String {
        let value = sanitize_line(&self.raw);
        match &self.path {
            Some(p) => format!("`{}` equal to {value}", sanitize_line(p)),
            None => format!("a result equal to {value}"),
        }
    }
}

/// A dotted path as a JSON pointer; a pointer (or nothing) as is.
fn pointer(path: &str) -> String {
    if path.is_empty() || path.starts_with('/') {
        return path.to_string();
    }
    path.split('.')
        .map(|seg| format!("/{}", seg.replace('~', "~0").replace('/', "~1")))
        .collect()
}

/// Whether the node has the context's state; `None` when it does not say.
pub(crate) async fn initialized(client: &Client, info: &ContextInfo) -> Result<Option<bool>> {
    let listed = client
        .contexts_for_application(&info.application_id)
        .await?;
    let state = listed
        .iter()
        .find(|c| ids::same(&c.id, &info.id))
        .and_then(|c| c.initialized());
    if state.is_some() {
        return Ok(state);
    }
    Ok(client
        .sync_status(&info.id)
        .await?
        .and_then(|s| s.get("isInitialized").and_then(Value::as_bool)))
}

/// A context the node has the state of: the answer of `calimcp wait --json`
/// and MCP `wait_for_context`.
#[derive(Debug, Clone, serde::Serialize, schemars::JsonSchema)]
pub struct ContextReady {
    /// The context id, in the node's form.
    pub context: String,
    /// Always `true`: a wait that times out answers with an error.
    pub initialized: bool,
    /// The check that saw it initialized (1: at once).
    pub checks: u64,
}

impl ContextReady {
    pub fn new(context: String, checks: u64) -> Self {
        ContextReady {
            context,
            initialized: true,
            checks,
        }
    }
}

/// How a wait for a context ended.
#[derive(Debug)]
pub enum Waited {
    /// The node has the context's state, seen at this check (1: at once).
    Initialized { checks: u64 },
    /// It did not come within the time given: why, as the node explains it.
    TimedOut { why: Error },
}

/// How a wait paces its tries, for every wait alike (`call --until`, `wait`,
/// MCP `call_until` and `wait_for_context`): the deadline is set when the
/// wait starts, so it bounds everything before the first try too (finding
/// the context, an alias lookup); a try starts every `every`, and the last
/// one at the deadline, never later — so `--every` ≥ `--within` still makes
/// a try at the start and one at the deadline. A try in flight at the
/// deadline has [`GRACE`] more to answer.
#[derive(Debug, Clone, Copy)]
pub struct Pace {
    every: Duration,
    within: Duration,
    started: tokio::time::Instant,
    deadline: tokio::time::Instant,
}

/// How long a try in flight at the deadline may still take.
pub(crate) const GRACE: Duration = Duration::from_secs(2);

impl Pace {
    /// A wait starting now.
    pub fn new(every: Duration, within: Duration) -> Pace {
        let started = tokio::time::Instant::now();
        Pace {
            every,
            within,
            started,
            deadline: started + within,
        }
    }

    /// `f`, bounded by the deadline (a step before the first try); `None`
    /// when the deadline came first.
    pub async fn before<F: std::future::Future>(&self, f: F) -> Option<F::Output> {
        tokio::time::timeout_at(self.deadline, f).await.ok()
    }

    /// One try, bounded by the deadline and [`GRACE`]; `None` when cut short.
    pub(crate) async fn attempt<F: std::future::Future>(&self, f: F) -> Option<F::Output> {
        tokio::time::timeout_at(self.deadline + GRACE, f).await.ok()
    }

    /// Waits for the next try: `every` from now, but no later than the
    /// deadline; `false` once the deadline has passed (the last try was made).
    pub(crate) async fn next(&self) -> bool {
        let now = tokio::time::Instant::now();
        if now >= self.deadline {
            return false;
        }
        tokio::time::sleep_until((now + self.every).min(self.deadline)).await;
        true
    }

    /// The error of a wait whose deadline came during `step` (before the
    /// first try): exit 124, as any wait that runs out.
    pub fn ran_out(&self, step: &str) -> Error {
        Error::new(
            ErrorKind::Timeout,
            Code::Timeout,
            format!(
                "{step} did not finish within {} s (0 tries, {})",
                self.within.as_secs_f64(),
                self.elapsed()
            ),
        )
        .with_hint("raise --within, or check that the node answers")
    }

    /// `--within` as given.
    pub(crate) fn within(&self) -> Duration {
        self.within
    }

    /// How long the wait has taken so far, for messages: `4.0 s`.
    pub(crate) fn elapsed(&self) -> String {
        format!("{:.1} s", self.started.elapsed().as_secs_f64())
    }
}

/// How a repetition ended without the expected result.
#[derive(Debug, Default)]
pub struct Unmatched {
    pub tries: u64,
    /// The last result, when the last try answered.
    pub last: Option<Value>,
    /// The last try's (retryable) error, when it failed.
    pub last_error: Option<Error>,
}

impl Unmatched {
    /// `(N tries, 4.0 s)`: what was done, and the real time it took.
    pub fn tries(&self, pace: &Pace) -> String {
        format!(
            "{} {}, {}",
            self.tries,
            if self.tries == 1 { "try" } else { "tries" },
            pace.elapsed()
        )
    }
}

/// Tries `try_once` at `pace` until its result matches `expect` (the result),
/// a try fails for good (a typed error that is not [`Error::retryable`]),
/// or the deadline has passed ([`Unmatched`]). `on_try` is told each answer.
pub async fn repeat<F, Fut>(
    pace: &Pace,
    expect: &Expect,
    mut try_once: F,
    on_try: &mut (dyn FnMut(u64, &Result<Value>, bool) + Send),
) -> Result<std::result::Result<Value, Unmatched>>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<Value>>,
{
    let mut seen = Unmatched::default();
    loop {
        seen.tries += 1;
        let Some(answer) = pace.attempt(try_once()).await else {
            break;
        };
        let done = matches!(&answer, Ok(out) if expect.matches(out));
        on_try(seen.tries, &answer, done);
        match answer {
            Ok(out) if done => return Ok(Ok(out)),
            Ok(out) => (seen.last, seen.last_error) = (Some(out), None),
            Err(e) if e.retryable => seen.last_error = Some(e),
            Err(e) => return Err(e),
        }
        if !pace.next().await {
            break;
        }
    }
    Ok(Err(seen))
}

/// Finds the context `value` names (an id or an alias) and checks at `pace`
/// until the node has its state; `on_check` is told each check's answer. A
/// retryable error is checked again; any other ends the wait. Finding the
/// context counts against the deadline too.
pub(crate) async fn until_initialized(
    client: &Client,
    value: &str,
    pace: &Pace,
    on_check: &mut (dyn FnMut(u64, &Result<Option<bool>>) + Send),
) -> Result<(Option<ContextInfo>, Waited)> {
    let named = super::call::bind_named(client, value);
    let Some(target) = pace.before(named).await else {
        let why = Error::new(
            ErrorKind::Timeout,
            Code::Timeout,
            format!(
                "the node at {} did not say which context `{}` is within {} s (waited {})",
                client.url(),
                sanitize_line(value),
                pace.within().as_secs_f64(),
                pace.elapsed()
            ),
        );
        return Ok((None, Waited::TimedOut { why }));
    };
    let info = target?.info;
    let mut checks = 0u64;
    let mut unknown = false;
    loop {
        checks += 1;
        let Some(answer) = pace.attempt(initialized(client, &info)).await else {
            break;
        };
        on_check(checks, &answer);
        match answer {
            Ok(Some(true)) => return Ok((Some(info), Waited::Initialized { checks })),
            Ok(Some(false)) => unknown = false,
            Ok(None) => unknown = true,
            Err(e) if e.retryable => {}
            Err(e) => return Err(e),
        }
        if !pace.next().await {
            break;
        }
    }
    let why = not_initialized(client, &info, unknown, checks, pace).await;
    Ok((Some(info), Waited::TimedOut { why }))
}

/// Why a context is still not initialized, as the node explains it.
pub(crate) async fn not_initialized(
    client: &Client,
    info: &ContextInfo,
    unknown: bool,
    checks: u64,
    pace: &Pace,
) -> Error {
    let shown = sanitize_line(&info.id);
    let waited = format!(
        "{checks} {}, {}",
        if checks == 1 { "check" } else { "checks" },
        pace.elapsed()
    );
    if unknown {
        return Error::new(
            ErrorKind::Timeout,
            Code::Timeout,
            format!(
                "the node at {} does not say whether context {shown} is initialized (no root hash, no sync status); waited {} s ({waited})",
                client.url(),
                pace.within().as_secs_f64()
            ),
        );
    }
    let mut e = Error::new(
        ErrorKind::Timeout,
        Code::Uninitialized,
        format!(
            "context {shown} is still not initialized on the node at {} after {} s ({waited})",
            client.url(),
            pace.within().as_secs_f64()
        ),
    );
    let why = client.uninitialized_why(&info.id, true);
    if let Ok(Some(d)) = tokio::time::timeout(Duration::from_secs(10), why).await {
        e.message = format!("{}: {}", e.message, d.why);
        e.hint = Some(d.hint);
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn until(path: Option<&str>, raw: &str) -> Expect {
        Expect::new(path, raw)
    }

    #[test]
    fn values_are_compared_as_json_and_bare_words_as_strings() {
        assert!(until(None, "3").matches(&json!(3)));
        assert!(until(None, "5").matches(&json!(5.0)), "numbers by value");
        assert!(
            until(None, "5").matches(&json!("5")),
            "a string result, unquoted"
        );
        assert!(until(None, "\"5\"").matches(&json!("5")));
        assert!(
            until(None, "\"5\"").matches(&json!(5)),
            "a number's decimal string"
        );
        assert!(
            !until(None, "18446744073709552000").matches(&json!(18446744073709551615u64)),
            "by the text as written, not through a double"
        );
        assert!(until(None, "done").matches(&json!("done")));
        assert!(until(None, "null").matches(&json!(null)));
        assert!(!until(None, "null").matches(&json!("x")));
        assert!(until(None, r#"{"b":1,"a":[true]}"#).matches(&json!({"a": [true], "b": 1})));
        assert!(!until(None, r#"{"a":1}"#).matches(&json!({"a": 1, "b": 2})));
        assert!(
            until(None, "18446744073709551615").matches(&json!(18446744073709551615u64)),
            "u64 exactly"
        );
        assert!(!until(None, "18446744073709551614").matches(&json!(18446744073709551615u64)));
    }

    #[test]
    fn paths_are_pointers_or_dotted() {
        let r = json!({"items": [{"name": "a/b"}], "n": 2, "k.x": 1});
        assert!(until(Some("items.0.name"), "a/b").matches(&r));
        assert!(until(Some("/items/0/name"), "\"a/b\"").matches(&r));
        assert!(until(Some("n"), "2").matches(&r));
        assert!(
            !until(Some("items.1.name"), "a/b").matches(&r),
            "absent: no match"
        );
        assert!(
            until(Some("/k.x"), "1").matches(&r),
            "a pointer for keys with dots"
        );
        assert_eq!(pointer("a.b~c/d"), "/a/b~0c~1d");
        assert!(
            Expect::parse_path_value("a.b=1").is_some_and(|e| e.matches(&json!({"a": {"b": 1}})))
        );
        assert!(Expect::parse_path_value("nothing").is_none());
    }
}
