//! An app's events as the node delivers them, decoded against the ABI.
//!
//! The SDK emits each application event as a `kind` (the variant's name, the
//! name in the ABI's `events`) and `data`: the JSON bytes of its payload
//! (`null` for a payload-less variant; older SDKs and hand-written apps send
//! no bytes at all). [`Decoder::decode`] parses those bytes and checks the
//! value against the event's payload schema, built in output mode like a
//! method's return, so bytes, variants, CRDT wrappers and `$ref`s read
//! exactly as method results do. An event the ABI does not declare, bytes
//! that are not JSON and a payload that does not match are all still
//! returned, marked invalid, with the problem in words. Pure: no I/O.

use std::collections::HashMap;

use base64::Engine as _;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::schema::{RefMode, event_schema};
use crate::abi::Manifest;
use crate::text::sanitize_line;

/// One decoded application event.
#[derive(Debug, Clone, PartialEq)]
pub struct Decoded {
    /// The event's name as the node sent it.
    pub event: String,
    /// The payload: the decoded JSON, `null` when there is none, or, when
    /// the bytes are not JSON, their text (`null` when they are not UTF-8).
    pub payload: Value,
    /// Whether the ABI declares the event and the payload matches its schema.
    pub valid: bool,
    /// What is wrong when it is not valid.
    pub problem: Option<String>,
    /// The raw bytes, kept when they could not be decoded as JSON.
    pub raw: Option<Vec<u8>>,
}

/// One event as `calimcp watch --json` prints it and `wait_for_events`
/// returns it: `{"time","context","event","payload","valid"}`, plus `problem`
/// when not valid and `raw` (the bytes, in base64) when the data could not
/// be decoded.
#[derive(Debug, Serialize, JsonSchema)]
pub struct EventLine<'a> {
    /// When calimcp received it (RFC 3339, UTC).
    pub time: &'a str,
    /// The context it happened in (empty for a group's event).
    pub context: &'a str,
    /// The group (64 hex) of a group's membership or migration event
    /// (`watch --group`, `wait_for_events` `groups`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<&'a str>,
    /// The event's name (the node's event kind for the node's own events).
    pub event: &'a str,
    /// The payload, decoded (`null` without one).
    pub payload: &'a Value,
    /// Whether the ABI declares the event and the payload matches its
    /// schema; `null` for the node's own events.
    pub valid: Option<bool>,
    /// What is wrong, when it is not valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<&'a str>,
    /// The data in base64, when it could not be decoded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(extend("contentEncoding" = "base64"))]
    pub raw: Option<String>,
}

/// [`EventLine`] as a JSON value.
pub fn record(
    time: &str,
    context: &str,
    event: &str,
    payload: &Value,
    valid: Option<bool>,
    problem: Option<&str>,
    raw: Option<&[u8]>,
) -> Value {
    let line = EventLine {
        time,
        context,
        group: None,
        event,
        payload,
        valid,
        problem,
        raw: raw.map(|r| base64::engine::general_purpose::STANDARD.encode(r)),
    };
    serde_json::to_value(line).unwrap_or_default()
}

/// A group's event (`MemberJoined`, `MigrationStarted`, …) as an
/// [`EventLine`]: no context, the group, the node's payload, `valid` null.
pub fn group_record(time: &str, group: &str, event: &str, payload: &Value) -> Value {
    let line = EventLine {
        time,
        context: "",
        group: Some(group),
        event,
        payload,
        valid: None,
        problem: None,
        raw: None,
    };
    serde_json::to_value(line).unwrap_or_default()
}

struct Compiled {
    validator: Option<jsonschema::Validator>,
    /// The schema could not be compiled (a generator bug): the payload is not checked.
    broken: Option<String>,
}

/// Decodes the events of one manifest; compiled schemas are kept for reuse.
pub struct Decoder<'m> {
    manifest: &'m Manifest,
    compiled: HashMap<String, Compiled>,
}

impl<'m> Decoder<'m> {
    pub fn new(manifest: &'m Manifest) -> Self {
        Decoder {
            manifest,
            compiled: HashMap::new(),
        }
    }

    /// Decodes `data` as the payload of the event `kind`.
    pub fn decode(&mut self, kind: &str, data: &[u8]) -> Decoded {
        let text = std::str::from_utf8(data).ok().map(str::trim);
        let parsed: Result<Value, String> = match text {
            Some("") => Ok(Value::Null),
            Some(t) => serde_json::from_str(t).map_err(|e| format!("its data is not JSON ({e})")),
            None => Err("its data is not UTF-8 text".to_string()),
        };
        let payload = match parsed {
            Ok(v) => v,
            Err(problem) => {
                // The bytes are kept once (`raw`, printed as base64): never a
                // JSON value per byte, which cost ~80 bytes of memory each.
                let payload = match text {
                    Some(t) => Value::String(t.to_string()),
                    None => Value::Null,
                };
                return Decoded {
                    event: kind.to_string(),
                    payload,
                    valid: false,
                    problem: Some(problem),
                    raw: Some(data.to_vec()),
                };
            }
        };
        let problem = self.check(kind, &payload);
        Decoded {
            event: kind.to_string(),
            payload,
            valid: problem.is_none(),
            problem,
            raw: None,
        }
    }

    fn check(&mut self, kind: &str, payload: &Value) -> Option<String> {
        let Some(event) = self.manifest.events.iter().find(|e| e.name == kind) else {
            return Some("the ABI declares no such event".to_string());
        };
        let manifest = self.manifest;
        let compiled = self
            .compiled
            .entry(kind.to_string())
            .or_insert_with(|| match event_schema(manifest, event, RefMode::Defs).0 {
                None => Compiled {
                    validator: None,
                    broken: None,
                },
                Some(schema) => match jsonschema::draft202012::new(&schema) {
                    Ok(v) => Compiled {
                        validator: Some(v),
                        broken: None,
                    },
                    Err(e) => Compiled {
                        validator: None,
                        broken: Some(e.to_string()),
                    },
                },
            });
        if compiled.broken.is_some() {
            return None;
        }
        let Some(validator) = &compiled.validator else {
            // No payload declared: nothing, or `null`, is what the SDK sends.
            return (!payload.is_null())
                .then(|| "the ABI declares no payload for it, but it carries one".to_string());
        };
        let problems: Vec<String> = validator
            .iter_errors(payload)
            .map(|err| {
                let at = err.instance_path().to_string();
                let message = sanitize_line(&err.to_string());
                if at.is_empty() {
                    message
                } else {
                    format!("at {}: {message}", sanitize_line(&at))
                }
            })
            .collect();
        match problems.as_slice() {
            [] => None,
            [one] if one.starts_with("at ") => {
                Some(format!("its payload does not match the ABI {one}"))
            }
            [one] => Some(format!("its payload does not match the ABI: {one}")),
            all => {
                let shown: Vec<&str> = all.iter().take(MAX_PROBLEMS).map(String::as_str).collect();
                let more = match all.len().saturating_sub(MAX_PROBLEMS) {
                    0 => String::new(),
                    n => format!("; and {n} more"),
                };
                Some(format!(
                    "its payload does not match the ABI ({} problems): {}{more}",
                    all.len(),
                    shown.join("; ")
                ))
            }
        }
    }
}

/// Problems of one payload named in full; past that, only counted (a hostile
/// payload could otherwise make one line of any length).
const MAX_PROBLEMS: usize = 10;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::parse_manifest;

    fn manifest() -> Manifest {
        let m = r#"{"schema_version":"wasm-abi/1","types":{
            "Entry":{"kind":"record","fields":[{"name":"key","type":{"kind":"string"}},{"name":"n","type":{"kind":"u64"}}]}},
            "methods":[],
            "events":[{"name":"Inserted","payload":{"$ref":"Entry"}},{"name":"Cleared"},
                      {"name":"Tagged","payload":{"kind":"bytes","size":32,"encoding":"hex"}}]}"#;
        parse_manifest(m.as_bytes(), &mut Vec::new()).unwrap()
    }

    #[test]
    fn payloads_decode_and_validate_against_the_abi() {
        let m = manifest();
        let mut d = Decoder::new(&m);
        let ok = d.decode("Inserted", br#"{"key":"a","n":18446744073709551615}"#);
        assert!(ok.valid, "{ok:?}");
        assert_eq!(ok.payload["n"], serde_json::json!(u64::MAX));
        let bad = d.decode("Inserted", br#"{"key":"a","n":"x"}"#);
        assert!(!bad.valid);
        assert!(bad.problem.unwrap().contains("/n"));
        // Payload-less: no bytes (old SDKs) or `null` (the rc SDK's macro).
        assert!(d.decode("Cleared", b"").valid);
        assert!(d.decode("Cleared", b"null").valid);
        assert!(!d.decode("Cleared", b"1").valid);
        let hex = "ab".repeat(32);
        assert!(d.decode("Tagged", format!("\"{hex}\"").as_bytes()).valid);
    }

    /// Issue 22.16: every problem of a payload is reported, not the first.
    #[test]
    fn every_problem_of_a_payload_is_reported() {
        let m = manifest();
        let mut d = Decoder::new(&m);
        let bad = d.decode("Inserted", br#"{"key":1,"n":"x"}"#);
        let problem = bad.problem.unwrap();
        assert!(problem.contains("(2 problems)"), "{problem}");
        assert!(
            problem.contains("at /key") && problem.contains("at /n"),
            "{problem}"
        );
        let one = d.decode("Inserted", br#"{"key":"a","n":"x"}"#);
        let problem = one.problem.unwrap();
        assert!(
            problem.starts_with("its payload does not match the ABI at /n: "),
            "{problem}"
        );
    }

    #[test]
    fn undeclared_events_and_undecodable_data_are_kept_and_marked() {
        let m = manifest();
        let mut d = Decoder::new(&m);
        let u = d.decode("Nope", b"{}");
        assert!(!u.valid);
        assert_eq!(u.problem.as_deref(), Some("the ABI declares no such event"));
        let t = d.decode("Inserted", b"not json");
        assert_eq!(t.payload, Value::String("not json".into()));
        assert_eq!(t.raw.as_deref(), Some(&b"not json"[..]));
        let b = d.decode("Inserted", &[0xff, 0x00]);
        assert_eq!(b.payload, Value::Null);
        assert!(b.problem.as_deref().unwrap().contains("UTF-8"));
        // `raw` is the bytes in base64: one string, never a number per byte.
        let r = record(
            "t",
            "c",
            "Inserted",
            &b.payload,
            Some(false),
            None,
            b.raw.as_deref(),
        );
        assert_eq!(r["raw"], "/wA=");
    }
}
