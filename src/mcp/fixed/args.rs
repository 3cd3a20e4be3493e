//! The fixed tools' arguments as types: each tool's `inputSchema` is
//! generated from the type its arguments are read into (`schemars`, JSON
//! Schema 2020-12), and a call's arguments are checked against that schema
//! first — every problem at once, worded as for app tools
//! ([`calimcp_core::mapping::args::Validator`]) — before the type reads them. An
//! argument given as `null` counts as absent unless its schema takes any value.
//! The tools' names and their arguments' defaults and bounds are here too,
//! with the types that use them: this module imports nothing of the server,
//! so the modules that read arguments can depend on it without a circle.

use std::collections::HashMap;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use calimcp_core::mapping::args::Validator;

pub(crate) const DESCRIBE_APP: &str = "describe_app";
pub(crate) const SELECT_APP: &str = "select_app";
pub(crate) const WAIT_FOR_EVENTS: &str = "wait_for_events";
pub(crate) const WAIT_FOR_CONTEXT: &str = "wait_for_context";
pub(crate) const CALL_UNTIL: &str = "call_until";
pub(crate) const CALL_MANY: &str = "call_many";

/// How long a `wait_for_events` lasts without `timeout`, and at most.
pub(crate) const DEFAULT_WAIT: f64 = 10.0;
pub(crate) const MAX_WAIT: f64 = 60.0;
/// Events `wait_for_events` returns without `max`, and at most.
pub(crate) const DEFAULT_MAX: u64 = 100;
pub(crate) const MAX_MAX: u64 = 1000;

/// Calls in one `call_many`, at most (as the node's own MCP server).
pub(crate) const MAX_CALLS: usize = 32;

/// Seconds `wait_for_context` and `call_until` wait by default, and at most.
pub(crate) const DEFAULT_WITHIN: f64 = 60.0;
pub(crate) const MAX_WITHIN: f64 = 600.0;
/// Seconds between their tries by default, and at least.
pub(crate) const DEFAULT_EVERY: f64 = 1.0;
pub(crate) const MIN_EVERY: f64 = 0.01;

/// `describe_app`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribeAppArgs {
    /// The app: its package (com.calimero.kv-store), trailing segments (kv-store), name, tool prefix (kv_store) or application id. Omit to list the apps.
    pub app: Option<String>,
    /// For a multi-service app: only this service.
    pub service: Option<String>,
}

/// `select_app`'s arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SelectAppArgs {
    /// The app, named as for describe_app.
    pub app: String,
    /// Context id or alias to pin; default: the app's only context.
    pub context: Option<String>,
    /// For a multi-service app: the service whose context to pin.
    pub service: Option<String>,
}

/// `wait_for_context`'s arguments, as sent.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WaitForContextInput {
    /// Context id or alias.
    #[schemars(length(min = 1))]
    pub context: String,
    #[schemars(
        description = format!("Seconds to wait at most (default {DEFAULT_WITHIN})."),
        extend("exclusiveMinimum" = 0, "maximum" = MAX_WITHIN)
    )]
    pub within: Option<f64>,
    #[schemars(
        description = format!("Seconds between checks (default {DEFAULT_EVERY})."),
        extend("minimum" = MIN_EVERY, "maximum" = MAX_WITHIN)
    )]
    pub every: Option<f64>,
}

/// `call_until`'s arguments, as sent.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CallUntilInput {
    /// The [view] tool to call.
    #[schemars(length(min = 1))]
    pub tool: String,
    /// Its arguments, as for calling it (with `_context` if needed).
    pub arguments: Option<Map<String, Value>>,
    /// The value waited for (any JSON; an integer beyond 2^53 as a decimal string).
    pub until: Value,
    /// Compare only the value at this path of the result (JSON pointer or dotted path).
    pub until_path: Option<String>,
    #[schemars(
        description = format!("Seconds to try at most (default {DEFAULT_WITHIN})."),
        extend("exclusiveMinimum" = 0, "maximum" = MAX_WITHIN)
    )]
    pub within: Option<f64>,
    #[schemars(
        description = format!("Seconds between tries (default {DEFAULT_EVERY})."),
        extend("minimum" = MIN_EVERY, "maximum" = MAX_WITHIN)
    )]
    pub every: Option<f64>,
}

/// `call_many`'s arguments, as sent.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CallManyInput {
    /// The calls, answered in this order; consecutive [view] calls run concurrently, each [mut] call alone.
    #[schemars(length(min = 1, max = MAX_CALLS))]
    pub calls: Vec<ManyCall>,
}

/// One call of `call_many`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ManyCall {
    /// The app tool to call.
    #[schemars(length(min = 1))]
    pub tool: String,
    /// Its arguments, as for calling it (with `_context` if needed).
    pub arguments: Option<Map<String, Value>>,
}

/// `wait_for_events`'s arguments, as sent.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct WaitForEventsInput {
    /// The app, named as for describe_app.
    pub app: String,
    /// Context id or alias; default: the pinned one, else the app's only context.
    pub context: Option<String>,
    /// The same as `context` (the name app tools use for it).
    #[serde(rename = "_context")]
    pub context_alias: Option<String>,
    /// For a multi-service app: the service whose events to read.
    pub service: Option<String>,
    /// Only events with these names (`*` and `?` globs); default: all. describe_app lists an app's events.
    pub events: Option<Vec<String>>,
    /// Also these groups' or namespaces' (ids, 64 hex) membership and migration events (MemberJoined, MemberAdded, MemberRemoved, MigrationStarted, MigrationProgress, CascadeProgress, MigrationCompleted; merod 0.11.0-rc.18 and later), returned with `group` set and `context` empty.
    pub groups: Option<Vec<String>>,
    #[schemars(
        description = format!("Seconds to wait at most (default {DEFAULT_WAIT})."),
        extend("exclusiveMinimum" = 0, "maximum" = MAX_WAIT)
    )]
    pub timeout: Option<f64>,
    #[schemars(
        description = format!("Return once this many events came (default {DEFAULT_MAX})."),
        extend("minimum" = 1, "maximum" = MAX_MAX)
    )]
    pub max: Option<u64>,
}

/// The input schema generated from `T`: JSON Schema 2020-12, an optional
/// field as its type alone (`null` counts as absent, [`parse`]), without the
/// generator's `$schema`, `title` and numeric `format`s (`double`, `uint64`:
/// not formats JSON Schema defines, which strict validators such as ajv refuse).
fn generate<T: JsonSchema>() -> Value {
    let mut settings = schemars::generate::SchemaSettings::draft2020_12();
    settings.meta_schema = None;
    let mut schema = settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value();
    if let Some(o) = schema.as_object_mut() {
        // The type's own doc comment is for readers of this file.
        o.remove("title");
        o.remove("description");
    }
    tidy(&mut schema);
    schema
}

/// `"type": ["string", "null"]` as `"type": "string"`; no numeric `format`.
fn tidy(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if let Some(Value::Array(types)) = o.get("type")
                && let [one, null] = types.as_slice()
                && null == "null"
            {
                let one = one.clone();
                o.insert("type".into(), one);
            }
            if matches!(
                o.get("type").and_then(Value::as_str),
                Some("number" | "integer")
            ) {
                o.remove("format");
            }
            o.values_mut().for_each(tidy);
        }
        Value::Array(a) => a.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// One fixed tool's generated schema and its compiled validator.
struct Fixed {
    schema: Value,
    validator: Validator,
}

fn fixed() -> &'static HashMap<&'static str, Fixed> {
    static FIXED: OnceLock<HashMap<&'static str, Fixed>> = OnceLock::new();
    FIXED.get_or_init(|| {
        [
            (DESCRIBE_APP, generate::<DescribeAppArgs>()),
            (SELECT_APP, generate::<SelectAppArgs>()),
            (WAIT_FOR_CONTEXT, generate::<WaitForContextInput>()),
            (CALL_UNTIL, generate::<CallUntilInput>()),
            (CALL_MANY, generate::<CallManyInput>()),
            (WAIT_FOR_EVENTS, generate::<WaitForEventsInput>()),
        ]
        .into_iter()
        .map(|(name, schema)| {
            let validator = Validator::new(&schema)
                .unwrap_or_else(|e| panic!("the generated schema of {name}: {e}"));
            (name, Fixed { schema, validator })
        })
        .collect()
    })
}

/// The input schema of the fixed tool `tool`.
pub(crate) fn schema_of(tool: &str) -> Value {
    fixed()
        .get(tool)
        .map(|f| f.schema.clone())
        .unwrap_or_default()
}

/// `raw` read as `T`, the arguments of `tool`: checked against its schema
/// first; the text of an `isError` result naming every problem otherwise.
pub(crate) fn parse<T: DeserializeOwned>(
    tool: &str,
    raw: &Map<String, Value>,
) -> Result<T, String> {
    let Some(f) = fixed().get(tool) else {
        return Err(format!("{tool} is no fixed tool"));
    };
    let given: Map<String, Value> = raw
        .iter()
        .filter(|(k, v)| !v.is_null() || f.schema["properties"][k.as_str()].get("type").is_none())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let given = Value::Object(given);
    let problems = f.validator.check(&given);
    if !problems.is_empty() {
        return Err(invalid(tool, problems.iter().map(ToString::to_string)));
    }
    serde_json::from_value(given).map_err(|e| invalid(tool, [e.to_string()]))
}

/// The text of an `isError` result for bad arguments of `tool`.
pub(crate) fn invalid(tool: &str, problems: impl IntoIterator<Item = String>) -> String {
    let lines: Vec<String> = problems.into_iter().map(|p| format!("  - {p}")).collect();
    format!("Invalid arguments for {tool}:\n{}", lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn map(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(o) => o,
            _ => Map::new(),
        }
    }

    /// The generated schemas, as published (a change shows in review).
    #[test]
    fn the_generated_schemas() {
        for tool in [
            DESCRIBE_APP,
            SELECT_APP,
            WAIT_FOR_CONTEXT,
            CALL_UNTIL,
            CALL_MANY,
            WAIT_FOR_EVENTS,
        ] {
            insta::assert_json_snapshot!(tool, schema_of(tool));
        }
    }

    #[test]
    fn every_problem_is_named_at_once() {
        let e = parse::<WaitForContextInput>(
            WAIT_FOR_CONTEXT,
            &map(json!({"context": 3, "within": 601, "x": 1})),
        )
        .unwrap_err();
        assert!(
            e.starts_with("Invalid arguments for wait_for_context:\n"),
            "{e}"
        );
        assert!(e.contains("x: unknown argument"), "{e}");
        assert!(
            e.contains("context: expected a string, got an integer: 3"),
            "{e}"
        );
        assert!(e.contains("within: "), "{e}");
        let e = parse::<CallUntilInput>(CALL_UNTIL, &map(json!({"tool": "t"}))).unwrap_err();
        assert!(e.contains("until: missing required argument"), "{e}");
    }

    #[test]
    fn null_is_absent_for_an_optional_argument_and_a_value_for_until() {
        let a: CallUntilInput = parse(
            CALL_UNTIL,
            &map(json!({"tool": "t", "until": null, "within": null, "until_path": null})),
        )
        .unwrap();
        assert_eq!(a.until, Value::Null);
        assert!(a.within.is_none() && a.until_path.is_none());
        let e = parse::<SelectAppArgs>(SELECT_APP, &map(json!({"app": null}))).unwrap_err();
        assert!(e.contains("app: missing required argument"), "{e}");
    }

    #[test]
    fn bounds_come_from_the_constants() {
        let s = schema_of(WAIT_FOR_EVENTS);
        assert_eq!(s["properties"]["max"]["maximum"], json!(MAX_MAX));
        assert_eq!(s["properties"]["timeout"]["maximum"], json!(MAX_WAIT));
        let s = schema_of(CALL_UNTIL);
        assert_eq!(s["properties"]["every"]["minimum"], json!(MIN_EVERY));
        assert_eq!(s["required"], json!(["tool", "until"]));
        assert_eq!(s["additionalProperties"], json!(false));
    }
}
