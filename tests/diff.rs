//! `calimcp diff`: every rule fires on its change and stays silent on the
//! compatible neighbour change; examples are real counter-examples; the
//! shared corpus; the command's formats and exit codes.

mod support;

use std::sync::Arc;

use calimcp_core::abi::{App, LoadOptions, Manifest, Service, load_path, parse_manifest_value};
use calimcp_core::mapping::args::Validator;
use calimcp_core::mapping::diff::policy::{self, Policy};
use calimcp_core::mapping::diff::{Finding, Level, RULES, diff_apps};
use calimcp_core::mapping::{RefMode, ToolOptions, method_schemas};
use serde_json::{Value, json};

// ---------------------------------------------------------------- builders

/// A small app: a view, a mutation, an init, an event, and state with an
/// identity-gated map, at state_version 1.
fn base() -> Value {
    json!({
        "schema_version": "wasm-abi/1",
        "state_root": "State",
        "state_version": 1,
        "types": {
            "State": {"kind": "record", "fields": [
                {"name": "count", "type": {"kind": "record", "fields": [], "crdt_type": "lww_register", "inner_type": {"kind": "u64"}}},
                {"name": "wiki", "type": {"kind": "map", "key": {"kind": "string"}, "value": {"kind": "string"}, "crdt_type": "authored_map"}}
            ]},
            "Item": {"kind": "record", "fields": [
                {"name": "id", "type": {"kind": "u32"}},
                {"name": "note", "type": {"kind": "string"}, "nullable": true}
            ]},
            "Color": {"kind": "variant", "variants": [{"name": "Red"}, {"name": "Green"}]},
            "Node": {"kind": "record", "fields": [
                {"name": "value", "type": {"kind": "u32"}},
                {"name": "children", "type": {"kind": "list", "items": {"$ref": "Node"}}}
            ]}
        },
        "methods": [
            {"name": "get", "params": [{"name": "key", "type": {"kind": "string"}}],
             "returns": {"kind": "string"}, "intent": "read_only", "doc": "Reads a key."},
            {"name": "init", "params": [{"name": "seed", "type": {"kind": "u32"}}], "returns": {"kind": "unit"}},
            {"name": "pick", "params": [], "returns": {"$ref": "Color"}, "intent": "read_only"},
            {"name": "put", "params": [
                {"name": "key", "type": {"kind": "string"}},
                {"name": "n", "type": {"kind": "u32"}},
                {"name": "opt", "type": {"kind": "u32"}, "nullable": true},
                {"name": "item", "type": {"$ref": "Item"}},
                {"name": "color", "type": {"$ref": "Color"}},
                {"name": "tree", "type": {"$ref": "Node"}},
                {"name": "tags", "type": {"kind": "list", "items": {"kind": "string"}}},
                {"name": "blob", "type": {"kind": "bytes"}}
            ], "returns": {"$ref": "Item"}, "intent": "mutating"}
        ],
        "events": [{"name": "Changed", "payload": {"kind": "u32"}}]
    })
}

/// `base()` with `f` applied.
fn with(f: impl FnOnce(&mut Value)) -> Value {
    let mut v = base();
    f(&mut v);
    v
}

fn method<'v>(m: &'v mut Value, name: &str) -> &'v mut Value {
    m["methods"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|x| x["name"] == name)
        .unwrap()
}

fn param<'v>(m: &'v mut Value, method_name: &str, name: &str) -> &'v mut Value {
    method(m, method_name)["params"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|x| x["name"] == name)
        .unwrap()
}

fn remove_method(m: &mut Value, name: &str) {
    m["methods"]
        .as_array_mut()
        .unwrap()
        .retain(|x| x["name"] != name);
}

fn manifest(v: &Value) -> Manifest {
    parse_manifest_value(v, &mut Vec::new()).expect("a valid test manifest")
}

/// An app of one manifest, or of `{"services": {name: manifest}}`; `package` names it.
fn app(v: &Value, package: &str) -> App {
    let services = match v.get("services") {
        Some(Value::Object(map)) => map
            .iter()
            .map(|(name, m)| Service {
                name: Some(name.clone()),
                manifest: Arc::new(manifest(m)),
            })
            .collect(),
        _ => vec![Service {
            name: None,
            manifest: Arc::new(manifest(v)),
        }],
    };
    App {
        id: format!("id-{package}").into(),
        package: Some(package.into()),
        // The app's version (a bundle's or the node's), when a case sets one.
        version: v
            .get("x-app-version")
            .and_then(Value::as_str)
            .map(str::to_string),
        source: "test".into(),
        services,
        ..App::default()
    }
}

/// The findings of `old` → `new` under the default policy (no file).
fn diff(old: &Value, new: &Value) -> Vec<Finding> {
    let (a, b) = (app(old, "com.example.app"), app(new, "com.example.app"));
    let mut report = diff_apps(&a, &b, None, &ToolOptions::default());
    policy::apply(
        &mut report,
        &Policy::none(),
        a.version.as_deref(),
        b.version.as_deref(),
    );
    report.findings
}

fn rules(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.rule).collect()
}

fn find<'f>(findings: &'f [Finding], rule: &str) -> &'f Finding {
    findings
        .iter()
        .find(|f| f.rule == rule)
        .unwrap_or_else(|| panic!("no {rule} among {:?}", rules(findings)))
}

// ---------------------------------------------------------------- every rule

/// One rule: the change that must fire it, and the compatible neighbour
/// change (from the same old version) that must not.
struct Case {
    rule: &'static str,
    old: Value,
    fires: Value,
    silent: Value,
}

fn state_field(m: &mut Value, i: usize) -> &mut Value {
    &mut m["types"]["State"]["fields"][i]
}

fn two_services(a: Value, b: Value) -> Value {
    json!({"services": {"a": a, "b": b}})
}

/// `m` with a stored `mode: Color` appended to its state root.
fn stored_color(mut m: Value) -> Value {
    m["types"]["State"]["fields"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "mode", "type": {"$ref": "Color"}}));
    m
}

/// `base()` with a method `deep(p: T0)` over a chain of `n` records
/// `T0 { next: T1 }` … `T{n-1} { v: leaf }`.
fn chain(n: usize, leaf: &str) -> Value {
    with(|m| {
        for i in 0..n {
            let ty = if i + 1 == n {
                json!({"kind": "record", "fields": [{"name": "v", "type": {"kind": leaf}}]})
            } else {
                json!({"kind": "record", "fields": [{"name": "next", "type": {"$ref": format!("T{}", i + 1)}}]})
            };
            m["types"][format!("T{i}")] = ty;
        }
        add_method(m, "deep");
        method(m, "deep")["params"] = json!([{"name": "p", "type": {"$ref": "T0"}}]);
    })
}

/// Adds a method `name()` and keeps methods sorted, as the node requires.
fn add_method(m: &mut Value, name: &str) {
    let methods = m["methods"].as_array_mut().unwrap();
    methods.push(json!({"name": name, "params": [], "returns": {"kind": "unit"}}));
    methods.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
}

fn cases() -> Vec<Case> {
    let bumped = |m: &mut Value, method_name: &str| {
        m["state_version"] = json!(2);
        m["migrations"] = json!([{"method": method_name, "fromVersion": 1}]);
    };
    vec![
        Case {
            rule: "service-removed",
            old: two_services(base(), base()),
            fires: json!({"services": {"a": base(), "c": base()}}),
            silent: two_services(base(), base()),
        },
        Case {
            rule: "service-added",
            old: two_services(base(), base()),
            fires: json!({"services": {"a": base(), "b": base(), "c": base()}}),
            silent: two_services(base(), base()),
        },
        Case {
            rule: "method-removed",
            old: base(),
            fires: with(|m| remove_method(m, "get")),
            silent: with(|m| method(m, "get")["name"] = json!("get_all")).pipe(|mut v| {
                // renaming `get` removes it; the neighbour keeps `get` and adds another
                v["methods"]
                    .as_array_mut()
                    .unwrap()
                    .push(base()["methods"][0].clone());
                v
            }),
        },
        Case {
            rule: "method-added",
            old: base(),
            fires: with(|m| {
                m["methods"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "extra", "params": []}))
            }),
            silent: with(|m| method(m, "get")["doc"] = json!("Reads.")),
        },
        Case {
            rule: "method-view-to-mutation",
            old: base(),
            fires: with(|m| method(m, "get")["intent"] = json!("mutating")),
            silent: with(|m| method(m, "put")["intent"] = json!("read_only")),
        },
        Case {
            rule: "method-mutation-to-view",
            old: base(),
            fires: with(|m| method(m, "put")["intent"] = json!("read_only")),
            silent: with(|m| method(m, "get")["intent"] = json!("read_only")),
        },
        Case {
            // a method name sanitised differently keeps its node name but not its tool name
            rule: "tool-renamed",
            old: json!({"services": {"a": base()}}),
            fires: json!({"services": {"a": base(), "b": base()}}),
            silent: json!({"services": {"a": base()}}),
        },
        Case {
            // Once a module marks any method #[app::xcall], xcalls reach only those.
            rule: "xcall-removed",
            old: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "put")["xcall_callable"] = json!(true);
            }),
            fires: with(|m| method(m, "get")["xcall_callable"] = json!(true)),
            silent: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "put")["xcall_callable"] = json!(true);
                method(m, "put")["doc"] = json!("Puts.");
            }),
        },
        Case {
            rule: "xcall-added",
            old: with(|m| method(m, "get")["xcall_callable"] = json!(true)),
            fires: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "put")["xcall_callable"] = json!(true);
            }),
            silent: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "put")["doc"] = json!("Puts.");
            }),
        },
        Case {
            // The module's last mark gone: the node stops gating xcalls, so
            // methods no other context could reach are open to all.
            rule: "xcall-gate-removed",
            old: with(|m| method(m, "get")["xcall_callable"] = json!(true)),
            fires: base(),
            silent: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "put")["xcall_callable"] = json!(true);
            }),
        },
        Case {
            rule: "xcall-callers-narrowed",
            old: with(|m| method(m, "get")["xcall_callable"] = json!(true)),
            fires: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "get")["xcall_callers"] = json!("same_app");
            }),
            silent: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "get")["xcall_callers"] = json!("any_in_namespace");
            }),
        },
        Case {
            rule: "xcall-callers-widened",
            old: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "get")["xcall_callers"] = json!("same_app");
            }),
            fires: with(|m| method(m, "get")["xcall_callable"] = json!(true)),
            silent: with(|m| {
                method(m, "get")["xcall_callable"] = json!(true);
                method(m, "get")["xcall_callers"] = json!("same_app");
                method(m, "get")["doc"] = json!("Gets.");
            }),
        },
        Case {
            // A field of zero bytes, or a map that became sorted: same bytes.
            rule: "state-layout-same",
            old: base(),
            fires: with(|m| {
                state_fields(m).push(json!({"name": "marker", "type": {"kind": "unit"}}));
            }),
            silent: with(|m| state_field(m, 0)["doc"] = json!("The count.")),
        },
        Case {
            rule: "state-type-reinterpreted",
            old: with(|m| {
                state_fields(m).push(json!({"name": "label", "type": {"kind": "string"}}));
            }),
            fires: with(|m| {
                state_fields(m).push(json!({"name": "label", "type": {"kind": "bytes"}}));
            }),
            silent: with(|m| {
                state_fields(m)
                    .push(json!({"name": "label", "type": {"kind": "string"}, "doc": "A label."}));
            }),
        },
        Case {
            rule: "handler-removed",
            old: with(|m| method(m, "put")["handler"] = json!(true)),
            fires: base(),
            silent: with(|m| {
                method(m, "put")["handler"] = json!(true);
                method(m, "put")["doc"] = json!("Puts.");
            }),
        },
        Case {
            rule: "handler-added",
            old: base(),
            fires: with(|m| method(m, "put")["handler"] = json!(true)),
            silent: with(|m| method(m, "put")["doc"] = json!("Puts.")),
        },
        Case {
            // Two fields of one name: JSON holds one value per name.
            rule: "name-duplicated",
            old: base(),
            fires: with(|m| {
                m["types"]["Item"]["fields"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "id", "type": {"kind": "u64"}, "nullable": true}))
            }),
            silent: with(|m| {
                m["types"]["Item"]["fields"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "id2", "type": {"kind": "u64"}, "nullable": true}))
            }),
        },
        Case {
            rule: "init-removed",
            old: base(),
            fires: with(|m| remove_method(m, "init")),
            silent: with(|m| param(m, "init", "seed")["type"] = json!({"kind": "u64"})),
        },
        Case {
            rule: "init-added",
            old: with(|m| remove_method(m, "init")),
            fires: base(),
            silent: with(|m| remove_method(m, "init")),
        },
        Case {
            rule: "init-params-changed",
            old: base(),
            fires: with(|m| param(m, "init", "seed")["type"] = json!({"kind": "string"})),
            silent: with(|m| param(m, "init", "seed")["type"] = json!({"kind": "u64"})),
        },
        Case {
            rule: "param-added-required",
            old: base(),
            fires: with(|m| {
                method(m, "get")["params"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "ns", "type": {"kind": "string"}}))
            }),
            silent: with(|m| {
                method(m, "get")["params"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "ns", "type": {"kind": "string"}, "nullable": true}))
            }),
        },
        Case {
            rule: "param-added-optional",
            old: base(),
            fires: with(|m| {
                method(m, "get")["params"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "ns", "type": {"kind": "string"}, "nullable": true}))
            }),
            silent: with(|m| param(m, "get", "key")["doc"] = json!("The key.")),
        },
        Case {
            rule: "param-removed",
            old: base(),
            fires: with(|m| {
                method(m, "put")["params"]
                    .as_array_mut()
                    .unwrap()
                    .retain(|p| p["name"] != "tags")
            }),
            silent: with(|m| param(m, "put", "tags")["nullable"] = json!(true)),
        },
        Case {
            rule: "param-became-required",
            old: base(),
            fires: with(|m| param(m, "put", "opt")["nullable"] = json!(false)),
            silent: with(|m| param(m, "put", "n")["nullable"] = json!(true)),
        },
        Case {
            rule: "param-became-optional",
            old: base(),
            fires: with(|m| param(m, "put", "n")["nullable"] = json!(true)),
            silent: with(|m| param(m, "put", "opt")["type"] = json!({"kind": "u64"})),
        },
        Case {
            rule: "param-type-changed",
            old: base(),
            fires: with(|m| param(m, "put", "n")["type"] = json!({"kind": "i32"})),
            silent: with(|m| param(m, "put", "n")["type"] = json!({"kind": "u64"})),
        },
        Case {
            rule: "param-type-widened",
            old: base(),
            fires: with(|m| param(m, "put", "n")["type"] = json!({"kind": "i64"})),
            silent: with(|m| param(m, "put", "key")["doc"] = json!("doc only")),
        },
        Case {
            rule: "result-type-changed",
            old: base(),
            fires: with(|m| {
                m["types"]["Color"]["variants"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "Blue"}))
            }),
            silent: with(|m| {
                m["types"]["Color"]["variants"]
                    .as_array_mut()
                    .unwrap()
                    .pop();
                // the neighbour narrows the result but also narrows put's parameter: check only results
                param(m, "put", "color")["type"] = json!({"kind": "string"});
            }),
        },
        Case {
            rule: "result-type-narrowed",
            old: base(),
            fires: with(|m| method(m, "get")["returns"] = json!({"$ref": "Color"})),
            silent: with(|m| method(m, "get")["returns"] = json!({"kind": "u32"})),
        },
        Case {
            rule: "result-became-nullable",
            old: base(),
            fires: with(|m| method(m, "get")["returns_nullable"] = json!(true)),
            silent: with(|m| method(m, "get")["returns_doc"] = json!("The value.")),
        },
        Case {
            rule: "result-became-non-nullable",
            old: with(|m| method(m, "get")["returns_nullable"] = json!(true)),
            fires: base(),
            silent: with(|m| method(m, "get")["returns_nullable"] = json!(true)),
        },
        Case {
            rule: "event-removed",
            old: base(),
            fires: with(|m| m["events"] = json!([])),
            silent: with(|m| {
                m["events"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "Other"}))
            }),
        },
        Case {
            rule: "event-added",
            old: base(),
            fires: with(|m| {
                m["events"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "Other"}))
            }),
            silent: base(),
        },
        Case {
            rule: "event-payload-changed",
            old: base(),
            fires: with(|m| m["events"][0]["payload"] = json!({"kind": "u64"})),
            silent: with(|m| {
                m["events"][0]["payload"] = json!({"kind": "i32"}).pipe(|_| json!({"kind": "u32"}))
            }),
        },
        Case {
            rule: "event-payload-narrowed",
            old: with(|m| m["events"][0]["payload"] = json!({"kind": "u64"})),
            fires: base(),
            silent: with(|m| m["events"][0]["payload"] = json!({"kind": "u64"})),
        },
        Case {
            rule: "state-identity-downgrade",
            old: base(),
            fires: with(|m| {
                state_field(m, 1)["type"]["crdt_type"] = json!("unordered_map");
                bumped(m, "migrate_v1");
            }),
            silent: with(|m| {
                state_field(m, 1)["type"]["crdt_type"] = json!("authored_sorted_map");
                bumped(m, "migrate_v1");
            }),
        },
        Case {
            rule: "state-field-changed",
            old: base(),
            fires: with(|m| state_field(m, 0)["type"]["inner_type"] = json!({"kind": "string"})),
            silent: with(|m| {
                m["types"]["State"]["fields"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "extra", "type": {"kind": "u64"}}))
            }),
        },
        Case {
            rule: "state-field-removed",
            old: base(),
            fires: with(|m| {
                m["types"]["State"]["fields"]
                    .as_array_mut()
                    .unwrap()
                    .remove(0);
            }),
            silent: with(|m| {
                m["types"]["State"]["fields"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "extra", "type": {"kind": "u64"}}))
            }),
        },
        Case {
            rule: "state-field-added",
            old: base(),
            fires: with(|m| {
                m["types"]["State"]["fields"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "extra", "type": {"kind": "u64"}}))
            }),
            silent: with(|m| m["types"]["State"]["fields"][0]["name"] = json!("count")),
        },
        Case {
            // The root is read by position: swapped fields each read the other's bytes.
            rule: "state-field-moved",
            old: base(),
            fires: with(|m| {
                m["types"]["State"]["fields"]
                    .as_array_mut()
                    .unwrap()
                    .swap(0, 1)
            }),
            silent: with(|m| {
                m["types"]["State"]["fields"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "extra", "type": {"kind": "u64"}}))
            }),
        },
        Case {
            // borsh stores no names: a field renamed in place still reads; renamed
            // and retyped is a change, not a rename.
            rule: "state-field-renamed",
            old: base(),
            fires: with(|m| state_field(m, 0)["name"] = json!("total")),
            silent: with(|m| {
                state_field(m, 0)["name"] = json!("total");
                state_field(m, 0)["type"]["inner_type"] = json!({"kind": "string"});
            }),
        },
        Case {
            // borsh stores an enum's case index: an appended case keeps old indexes;
            // a case inserted first shifts them (breaking, not this rule).
            rule: "state-enum-case-added",
            old: stored_color(base()),
            fires: stored_color(with(|m| {
                m["types"]["Color"]["variants"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"name": "Blue"}))
            })),
            silent: stored_color(with(|m| {
                m["types"]["Color"]["variants"]
                    .as_array_mut()
                    .unwrap()
                    .insert(0, json!({"name": "Blue"}))
            })),
        },
        Case {
            // Never fail open: a change past the depth calimcp compares is reported;
            // the same deep chain with only a doc change is not.
            rule: "comparison-limit-reached",
            old: chain(600, "u32"),
            fires: chain(600, "string"),
            silent: chain(600, "u32").pipe(|mut v| {
                method(&mut v, "deep")["doc"] = json!("Deep.");
                v
            }),
        },
        Case {
            // `get-x` next to `get_x` takes a tool name a stored call uses.
            rule: "tool-name-reused",
            old: with(|m| add_method(m, "get_x")),
            fires: with(|m| {
                add_method(m, "get_x");
                add_method(m, "get-x");
            }),
            silent: with(|m| {
                add_method(m, "get_x");
                add_method(m, "get_y");
            }),
        },
        Case {
            rule: "state-root-missing",
            old: base(),
            fires: with(|m| {
                m.as_object_mut().unwrap().remove("state_root");
            }),
            silent: with(|m| {
                let state = m["types"]["State"].clone();
                m["types"]["Root"] = state;
                m["state_root"] = json!("Root");
            }),
        },
        Case {
            rule: "state-version-not-bumped",
            old: base(),
            fires: with(|m| state_field(m, 0)["type"]["inner_type"] = json!({"kind": "string"})),
            silent: with(|m| {
                state_field(m, 0)["type"]["inner_type"] = json!({"kind": "string"});
                bumped(m, "migrate_v1");
            }),
        },
        Case {
            rule: "state-migration-missing",
            old: base(),
            fires: with(|m| m["state_version"] = json!(2)),
            silent: with(|m| bumped(m, "migrate_v1")),
        },
        Case {
            rule: "state-version-skipped",
            old: base(),
            fires: with(|m| {
                m["state_version"] = json!(3);
                m["migrations"] = json!([{"method": "m2", "fromVersion": 2}]);
            }),
            silent: with(|m| bumped(m, "migrate_v1")),
        },
        Case {
            rule: "state-version-lowered",
            old: with(|m| m["state_version"] = json!(2)),
            fires: base(),
            silent: with(|m| m["state_version"] = json!(2)),
        },
        Case {
            rule: "state-migrations-differ",
            old: two_services(base(), base()),
            fires: two_services(
                with(|m| bumped(m, "migrate_a")),
                with(|m| bumped(m, "migrate_b")),
            ),
            silent: two_services(
                with(|m| bumped(m, "migrate")),
                with(|m| bumped(m, "migrate")),
            ),
        },
        Case {
            rule: "state-migration",
            old: base(),
            fires: with(|m| bumped(m, "migrate_v1")),
            silent: base(),
        },
        Case {
            // A breaking release needs a new major version when both are known.
            rule: "app-version-not-bumped",
            old: with(|m| m["x-app-version"] = json!("1.2.0")),
            fires: with(|m| {
                remove_method(m, "get");
                m["x-app-version"] = json!("1.3.0");
            }),
            silent: with(|m| {
                remove_method(m, "get");
                m["x-app-version"] = json!("2.0.0");
            }),
        },
        Case {
            rule: "method-doc-changed",
            old: base(),
            fires: with(|m| method(m, "get")["doc"] = json!("Reads one key.")),
            silent: with(|m| param(m, "get", "key")["doc"] = json!("The key.")),
        },
        Case {
            rule: "schema-changed",
            old: base(),
            fires: with(|m| param(m, "get", "key")["doc"] = json!("The key.")),
            silent: with(|m| param(m, "get", "key")["type"] = json!({"kind": "u32"})),
        },
    ]
}

trait Pipe: Sized {
    fn pipe<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
}
impl<T> Pipe for T {}

#[test]
fn every_rule_fires_on_its_change_and_not_on_the_compatible_neighbour() {
    let mut failures = Vec::new();
    for case in cases() {
        let fired = diff(&case.old, &case.fires);
        if !rules(&fired).contains(&case.rule) {
            failures.push(format!(
                "{} did not fire; got {:?}",
                case.rule,
                rules(&fired)
            ));
        }
        let quiet = diff(&case.old, &case.silent);
        if rules(&quiet).contains(&case.rule) {
            failures.push(format!(
                "{} fired on its neighbour; got {:?}",
                case.rule,
                rules(&quiet)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_rule_of_the_table_has_a_case_and_every_finding_a_rule() {
    let ids: Vec<&str> = cases().iter().map(|c| c.rule).collect();
    for r in RULES {
        assert!(
            ids.contains(&r.id),
            "rule {} has no fires/silent case",
            r.id
        );
    }
    for case in cases() {
        for f in diff(&case.old, &case.fires) {
            let r = RULES
                .iter()
                .find(|r| r.id == f.rule)
                .expect("a finding names a rule of the table");
            if !f.rule.starts_with("state-field-") {
                assert_eq!(f.level, r.level, "{} has the table's level", f.rule);
            }
            assert!(!f.message.is_empty() && !f.path.is_empty(), "{f:?}");
        }
    }
}

#[test]
fn the_same_app_reports_nothing() {
    assert!(diff(&base(), &base()).is_empty());
    let multi = two_services(base(), base());
    assert!(diff(&multi, &multi).is_empty());
}

// ---------------------------------------------------------------- examples are counter-examples

/// The input schema of `method` in `m`, compiled.
fn input_validator(m: &Value, name: &str) -> Validator {
    let man = manifest(m);
    let method = man.method(name).unwrap().clone();
    Validator::new(&method_schemas(&man, &method, RefMode::Defs).input).unwrap()
}

/// A parameter's example, checked: the old schema accepts it, the new rejects it.
fn assert_counter_example(old: &Value, new: &Value, expect_path: &str) -> Value {
    let findings = diff(old, new);
    let f = find(&findings, "param-type-changed");
    assert_eq!(f.path, expect_path);
    let example = f.example.clone().expect("an example value");
    let (method_name, param_name) = {
        let mut parts = f.path.split('.');
        let m = parts.next().unwrap().to_string();
        parts.next();
        let p = parts.next().unwrap();
        let end = p.find(['<', '[', '{']).unwrap_or(p.len());
        (m, p[..end].to_string())
    };
    let mut args = serde_json::Map::new();
    let old_man = manifest(old);
    for p in &old_man.method(&method_name).unwrap().params {
        let v = if p.name == param_name {
            example.clone()
        } else if p.nullable {
            Value::Null
        } else {
            calimcp_core::mapping::diff::compat::example(&old_man, &p.ty)
        };
        args.insert(p.name.clone(), v);
    }
    let args = Value::Object(args);
    let old_v = input_validator(old, &method_name);
    let new_v = input_validator(new, &method_name);
    assert!(
        old_v.check(&args).is_empty(),
        "the old version accepts {args}: {:?}",
        old_v.check(&args)
    );
    assert!(
        !new_v.check(&args).is_empty(),
        "the new version rejects {args}"
    );
    example
}

#[test]
fn narrowing_integers_gives_an_out_of_range_example() {
    let old = with(|m| param(m, "put", "n")["type"] = json!({"kind": "u64"}));
    let ex = assert_counter_example(&old, &base(), "put.params.n");
    assert_eq!(ex, json!(4_294_967_296u64));
    let ex = assert_counter_example(
        &base(),
        &with(|m| param(m, "put", "n")["type"] = json!({"kind": "i32"})),
        "put.params.n",
    );
    assert_eq!(ex, json!(2_147_483_648u64));
}

#[test]
fn string_to_bytes_and_list_to_map_are_breaking() {
    let new = with(|m| param(m, "put", "key")["type"] = json!({"kind": "bytes"}));
    assert_eq!(
        assert_counter_example(&base(), &new, "put.params.key"),
        json!("example")
    );
    let new = with(|m| {
        param(m, "put", "tags")["type"] =
            json!({"kind": "map", "key": {"kind": "string"}, "value": {"kind": "string"}})
    });
    assert_eq!(
        assert_counter_example(&base(), &new, "put.params.tags"),
        json!([])
    );
    let new = with(|m| param(m, "put", "blob")["type"] = json!({"kind": "bytes", "size": 4}));
    assert_counter_example(&base(), &new, "put.params.blob");
}

#[test]
fn a_record_gaining_a_required_field_breaks_and_a_nullable_one_does_not() {
    let add = |nullable: bool| {
        with(move |m| {
            m["types"]["Item"]["fields"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": "tag", "type": {"kind": "string"}, "nullable": nullable}))
        })
    };
    let findings = diff(&base(), &add(false));
    let f = find(&findings, "param-type-changed");
    assert_eq!(f.path, "put.params.item.tag");
    assert_eq!(f.example, Some(json!({"id": 0, "note": null})));
    let findings = diff(&base(), &add(true));
    assert!(
        !rules(&findings).contains(&"param-type-changed"),
        "{:?}",
        rules(&findings)
    );
    // Readers: a result record gaining a field is fine, losing one is not.
    assert!(!rules(&findings).contains(&"result-type-changed"));
    let lost = with(|m| {
        m["types"]["Item"]["fields"]
            .as_array_mut()
            .unwrap()
            .remove(0);
    });
    let findings = diff(&base(), &lost);
    let f = find(&findings, "result-type-changed");
    assert_eq!(f.path, "put.returns.id");
}

#[test]
fn a_variant_losing_a_case_breaks_callers_and_gaining_one_breaks_readers() {
    let lose = with(|m| {
        m["types"]["Color"]["variants"]
            .as_array_mut()
            .unwrap()
            .pop();
    });
    let ex = assert_counter_example(&base(), &lose, "put.params.color<Green>");
    assert_eq!(ex, json!("Green"));
    let gain = with(|m| {
        m["types"]["Color"]["variants"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "Blue"}))
    });
    let findings = diff(&base(), &gain);
    assert!(!rules(&findings).contains(&"param-type-changed"));
    let f = find(&findings, "result-type-changed");
    assert_eq!(
        (f.path.as_str(), f.example.clone()),
        ("pick.returns<Blue>", Some(json!("Blue")))
    );
    assert_eq!(f.level, Level::Breaking);
}

#[test]
fn recursive_types_are_compared_through_the_cycle() {
    let new = with(|m| m["types"]["Node"]["fields"][0]["type"] = json!({"kind": "u64"}));
    assert!(
        diff(&base(), &new)
            .iter()
            .all(|f| f.rule != "param-type-changed")
    );
    let narrowed = with(|m| m["types"]["Node"]["fields"][0]["type"] = json!({"kind": "i32"}));
    let ex = assert_counter_example(&base(), &narrowed, "put.params.tree.value");
    assert_eq!(ex, json!({"value": 2_147_483_648u64, "children": []}));
    // An alias cycle and a dangling reference never hang or panic.
    let odd = with(|m| {
        m["types"]["A"] = json!({"kind": "alias", "target": {"$ref": "B"}});
        m["types"]["B"] = json!({"kind": "alias", "target": {"$ref": "A"}});
        param(m, "put", "tags")["type"] = json!({"$ref": "A"});
        param(m, "put", "key")["type"] = json!({"$ref": "Missing"});
    });
    diff(&base(), &odd);
    diff(&odd, &base());
}

#[test]
fn a_rename_is_reported_as_removed_plus_added_and_says_so() {
    let new = with(|m| param(m, "get", "key")["name"] = json!("name"));
    let findings = diff(&base(), &new);
    let removed = find(&findings, "param-removed");
    assert!(
        removed.message.contains("renamed to `name`"),
        "{}",
        removed.message
    );
    let added = find(&findings, "param-added-required");
    assert!(added.message.contains("rename"), "{}", added.message);
}

#[test]
fn state_changes_covered_by_a_declared_migration_are_warnings() {
    let new = with(|m| {
        state_field(m, 0)["type"]["inner_type"] = json!({"kind": "string"});
        m["state_version"] = json!(2);
        m["migrations"] = json!([{"method": "migrate_v1", "fromVersion": 1}]);
    });
    let report = diff_apps(
        &app(&base(), "p"),
        &app(&new, "p"),
        None,
        &ToolOptions::default(),
    );
    let f = find(&report.findings, "state-field-changed");
    assert_eq!(f.level, Level::Warning);
    assert!(f.message.contains("migrate_v1"));
    assert!(report.gates[0].accepted, "{:?}", report.gates);
    // The same change without the migration: breaking, and the gate's verdict stays code-only.
    let bare = with(|m| state_field(m, 0)["type"]["inner_type"] = json!({"kind": "string"}));
    let report = diff_apps(
        &app(&base(), "p"),
        &app(&bare, "p"),
        None,
        &ToolOptions::default(),
    );
    assert_eq!(
        find(&report.findings, "state-field-changed").level,
        Level::Breaking
    );
}

// ---------------------------------------------------------------- the shared corpus

fn load(path: &std::path::Path) -> App {
    let mut skipped = Vec::new();
    load_path(path, &LoadOptions::default(), &mut skipped)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .remove(0)
}

#[test]
fn the_real_identity_downgrade_pair_is_reported() {
    let Some(dir) = support::fixtures("the_real_identity_downgrade_pair_is_reported") else {
        return;
    };
    let old = load(&dir.join("core-state-identity-downgrade-v1.json"));
    let new = load(&dir.join("core-state-identity-downgrade-v2.json"));
    let report = diff_apps(&old, &new, None, &ToolOptions::default());
    let f = find(&report.findings, "state-identity-downgrade");
    assert_eq!(
        (f.path.as_str(), f.old.as_str(), f.new.as_str()),
        ("state.wiki", "authored_map", "unordered_map")
    );
    assert_eq!(f.level, Level::Breaking);
    assert!(!report.gates[0].accepted);
    let golden = load(&dir.join("core-sdk-golden-state-v2.json"));
    let same = diff_apps(&golden, &golden, None, &ToolOptions::default());
    assert!(same.findings.is_empty(), "{:?}", rules(&same.findings));
}

#[test]
fn every_fixture_against_itself_reports_nothing_and_every_pair_completes() {
    let Some(dir) =
        support::fixtures("every_fixture_against_itself_reports_nothing_and_every_pair_completes")
    else {
        return;
    };
    let apps: Vec<(String, App)> = support::fixture_manifests(&dir)
        .iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                load(p),
            )
        })
        .collect();
    assert!(apps.len() >= 17);
    let opts = ToolOptions::default();
    for (name, a) in &apps {
        let same = diff_apps(a, a, None, &opts);
        assert!(
            same.findings.is_empty(),
            "{name} against itself: {:?}",
            rules(&same.findings)
        );
        for (_, b) in &apps {
            let r = diff_apps(a, b, None, &opts);
            for f in &r.findings {
                assert!(RULES.iter().any(|x| x.id == f.rule));
            }
        }
    }
}

// ---------------------------------------------------------------- the command

fn write(dir: &std::path::Path, name: &str, v: &Value) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_vec(v).unwrap()).unwrap();
    p
}

#[test]
fn exit_codes_follow_fail_on() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(dir.path(), "abi.json", &base());
    let breaking = write(
        dir.path(),
        "breaking.json",
        &with(|m| remove_method(m, "get")),
    );
    let info = write(
        dir.path(),
        "info.json",
        &with(|m| method(m, "get")["doc"] = json!("Other.")),
    );
    let run = |new: &std::path::Path, fail_on: &str| {
        support::offline()
            .args(["diff", "--package", "app"])
            .arg(&old)
            .arg(new)
            .args(["--fail-on", fail_on])
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(run(&breaking, "breaking"), Some(1));
    assert_eq!(run(&breaking, "none"), Some(0));
    assert_eq!(run(&info, "breaking"), Some(0));
    assert_eq!(run(&info, "warning"), Some(0));
    assert_eq!(run(&info, "any"), Some(1));
    assert_eq!(run(&old, "any"), Some(0));
    // Findings are an error of their own (exit 1), printed after the report:
    // the code printed and the exit code agree.
    let out = support::offline()
        .args(["diff", "--package", "app", "--json"])
        .arg(&old)
        .arg(&breaking)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["summary"]["failed"], true);
    let err = String::from_utf8_lossy(&out.stderr);
    let line: serde_json::Value = serde_json::from_str(err.trim()).unwrap();
    assert_eq!(line["error"]["code"], "findings", "{err}");
    assert_eq!(
        line["error"]["message"],
        "1 finding at or above --fail-on breaking"
    );
    let out = support::offline()
        .args(["diff", "--package", "app"])
        .arg(&old)
        .arg(&info)
        .args(["--fail-on", "any"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: 1 finding at or above --fail-on any"
    );
    // Bad input is 2, with the error on stderr and nothing on stdout.
    let out = support::offline()
        .args(["diff", "missing.json"])
        .arg(&old)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let out = support::offline()
        .args(["diff", "-", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn stdin_is_compared_like_the_file_it_came_from() {
    let dir = tempfile::tempdir().unwrap();
    let new = write(
        dir.path(),
        "abi.json",
        &with(|m| param(m, "put", "n")["type"] = json!({"kind": "u64"})),
    );
    let out = support::offline()
        .args(["diff", "-"])
        .arg(&new)
        .arg("--json")
        .write_stdin(serde_json::to_vec(&base()).unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    // no tool-renamed: the piped manifest takes the other side's package
    assert_eq!(rules, ["param-type-widened"]);
}

#[test]
fn json_output_has_the_documented_shape() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(dir.path(), "abi.json", &base());
    let new = write(
        dir.path(),
        "new.json",
        &with(|m| param(m, "put", "n")["type"] = json!({"kind": "i32"})),
    );
    let out = support::offline()
        .args(["diff", "--package", "app", "--format", "json"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["old"], json!(old.to_str().unwrap()));
    assert_eq!(v["new"], json!(new.to_str().unwrap()));
    let f = &v["findings"][0];
    let keys: Vec<&str> = f.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        [
            "rule", "level", "service", "path", "old", "new", "example", "message"
        ]
    );
    assert_eq!(f["rule"], "param-type-changed");
    assert_eq!(f["level"], "breaking");
    assert_eq!(f["path"], "put.params.n");
    assert_eq!(
        (f["old"].as_str(), f["new"].as_str()),
        (Some("u32"), Some("i32"))
    );
    assert_eq!(f["example"], json!(2_147_483_648u64));
    assert_eq!(v["summary"]["breaking"], 1);
    assert_eq!(v["summary"]["failed"], true);
    assert_eq!(v["summary"]["fail_on"], "breaking");
    assert_eq!(v["summary"]["upgrade_gate"][0]["action"], "code-only");
}

#[test]
fn text_markdown_and_github_formats() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(dir.path(), "abi.json", &base());
    let new = write(
        dir.path(),
        "new.json",
        &with(|m| {
            remove_method(m, "get");
            method(m, "pick")["doc"] = json!("Picks | a colour.");
        }),
    );
    let run = |format: &str| {
        let out = support::offline()
            .args(["diff", "--package", "app", "--format", format])
            .arg(&old)
            .arg(&new)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run("text");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "breaking (1)");
    assert!(
        lines[1]
            .starts_with("  method-removed  get  [view] get(key: string) -> string → (removed) — "),
        "{text}"
    );
    assert_eq!(lines[2], "info (1)");
    assert!(lines[3].starts_with("  method-doc-changed  pick"));
    assert!(
        lines[4].ends_with(
            ": 1 breaking, 0 warning, 1 info; upgrade gate: code-only; fails (--fail-on breaking)"
        ),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "no colour off a terminal");
    let md = run("markdown");
    assert!(md.contains("| Level | Rule | Path | Old → New | Example | Why |"));
    assert!(
        md.contains("| 🔴 breaking | `method-removed` | `get` |"),
        "{md}"
    );
    assert!(
        md.contains("Picks \\| a colour."),
        "a pipe in a doc does not break the table: {md}"
    );
    let gh = run("github");
    let first = gh.lines().next().unwrap();
    assert!(
        first.starts_with(&format!(
            "::error file={},title=calimcp diff method-removed::get: ",
            new.display()
        )),
        "{gh}"
    );
    assert!(gh.lines().nth(1).unwrap().starts_with("::notice "), "{gh}");
    let last = gh.lines().last().unwrap();
    assert!(
        last.starts_with("calimcp diff ") && last.contains("(local): 1 breaking"),
        "{gh}"
    );
}

#[test]
fn multi_service_bundles_compare_service_by_service() {
    let Some(fixtures) = support::fixtures("multi_service_bundles_compare_service_by_service")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bundle = support::mero_docs_bundle(&fixtures, dir.path());
    let out = support::offline()
        .args(["diff", "--json"])
        .arg(&bundle)
        .arg(&bundle)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"], json!([]));
    assert_eq!(v["summary"]["upgrade_gate"].as_array().unwrap().len(), 2);
    // One service against the bundle's docs service, with --service.
    let out = support::offline()
        .args(["diff", "--json", "--service", "docs"])
        .arg(&bundle)
        .arg(&bundle)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["summary"]["upgrade_gate"].as_array().unwrap().len(), 1);
    // A method removed from one service is reported under that service only.
    let other = tempfile::tempdir().unwrap();
    let changed = support::mero_docs_bundle(&fixtures, other.path());
    let mut registry: Value =
        serde_json::from_slice(&std::fs::read(changed.join("registry-abi.json")).unwrap()).unwrap();
    let gone = registry["methods"].as_array_mut().unwrap().remove(0);
    std::fs::write(
        changed.join("registry-abi.json"),
        serde_json::to_vec(&registry).unwrap(),
    )
    .unwrap();
    let out = support::offline()
        .args(["diff", "--json"])
        .arg(&bundle)
        .arg(&changed)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let f = &v["findings"][0];
    assert_eq!(
        (&f["rule"], &f["service"], &f["path"]),
        (&json!("method-removed"), &json!("registry"), &gone["name"])
    );
    let out = support::offline()
        .args(["diff"])
        .arg(&bundle)
        .arg(&changed)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("registry/{}", gone["name"].as_str().unwrap())),
        "{text}"
    );
    let out = support::offline()
        .args(["diff", "--service", "docs"])
        .arg(&bundle)
        .arg(&changed)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "the docs service did not change"
    );
}

#[test]
fn the_diff_reference_lists_every_rule_with_its_level() {
    let readme = std::fs::read_to_string(support::root().join("docs/reference/diff.md")).unwrap();
    for r in RULES {
        let row = format!("| `{}` | {}", r.id, r.level.name());
        assert!(
            readme.contains(&row),
            "docs/reference/diff.md has no row starting {row}"
        );
    }
}

#[test]
fn identity_downgrades_follow_the_node_gate_through_aliases_and_fail_closed() {
    let root = |fields: Value, extra: Value| {
        let mut m = json!({"schema_version": "wasm-abi/1", "methods": [], "state_root": "S",
            "types": {"S": {"kind": "record", "fields": fields}}});
        for (k, v) in extra.as_object().unwrap() {
            m["types"][k] = v.clone();
        }
        m
    };
    let map = |crdt: &str| json!({"kind": "map", "key": {"kind": "string"}, "value": {"kind": "string"}, "crdt_type": crdt});
    let field = |t: Value| json!([{"name": "wiki", "type": t}]);
    // Behind an alias: still identity-gated.
    let old = root(
        field(json!({"$ref": "Wiki"})),
        json!({"Wiki": {"kind": "alias", "target": map("shared_storage")}}),
    );
    let new = root(
        field(json!({"$ref": "Wiki"})),
        json!({"Wiki": {"kind": "alias", "target": map("vector")}}),
    );
    assert!(rules(&diff(&old, &new)).contains(&"state-identity-downgrade"));
    // A dangling reference cannot be ruled out: a plain new type is a downgrade (fail closed) ...
    let dangling = root(field(json!({"$ref": "Gone"})), json!({}));
    let plain = root(field(map("unordered_map")), json!({}));
    assert!(rules(&diff(&dangling, &plain)).contains(&"state-identity-downgrade"));
    // ... but carried through unresolvable on both sides it is not.
    assert!(!rules(&diff(&dangling, &dangling)).contains(&"state-identity-downgrade"));
    // Gating added is never a downgrade.
    let gated = root(field(map("authored_vector")), json!({}));
    assert!(!rules(&diff(&plain, &gated)).contains(&"state-identity-downgrade"));
    assert!(rules(&diff(&gated, &plain)).contains(&"state-identity-downgrade"));
}

#[test]
fn manifest_strings_never_reach_the_terminal_raw() {
    let dir = tempfile::tempdir().unwrap();
    let evil = with(|m| {
        m["methods"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "x\u{1b}[31m\u{202e}evil", "params": []}))
    });
    let old = write(dir.path(), "abi.json", &evil);
    let new = write(dir.path(), "new.json", &base());
    for format in ["text", "markdown", "github", "json"] {
        let out = support::offline()
            .args(["diff", "--package", "app", "--format", format])
            .arg(&old)
            .arg(&new)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("evil"), "{format}: {text}");
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{format}: {text:?}"
        );
    }
}

#[test]
fn apps_are_named_like_everywhere_else() {
    // A name among --apps against a path: the same bundle, so nothing.
    let out = support::offline()
        .args([
            "diff",
            "kv-store",
            "examples/kv-store",
            "--apps",
            "examples",
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "kv-store (local examples/kv-store) → examples/kv-store (local): no changes; upgrade gate: code-only\n"
    );
    // An unknown name is bad input, with the catalog's error.
    let out = support::offline()
        .args([
            "diff",
            "kv-stor",
            "examples/kv-store",
            "--apps",
            "examples",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(err["error"]["code"], "unknown_app");
}

// ---------------------------------------------------------------- stored state by position (issue 21)

fn levels_of<'f>(findings: &'f [Finding], rule: &str) -> Vec<(&'f str, Level)> {
    findings
        .iter()
        .filter(|f| f.rule == rule)
        .map(|f| (f.path.as_str(), f.level))
        .collect()
}

fn state_fields(m: &mut Value) -> &mut Vec<Value> {
    m["types"]["State"]["fields"].as_array_mut().unwrap()
}

#[test]
fn a_root_field_appended_without_a_migration_breaks_stored_state() {
    // The root is one borsh blob read by position: the old bytes end before the
    // new field, so decoding fails (Calimero's migration-suite adds a root
    // field with version = 2 and a migration for this reason).
    let appended =
        with(|m| state_fields(m).push(json!({"name": "extra", "type": {"kind": "u64"}})));
    let f = diff(&base(), &appended);
    assert_eq!(
        levels_of(&f, "state-field-added"),
        [("state.extra", Level::Breaking)]
    );
    assert!(rules(&f).contains(&"state-version-not-bumped"), "{f:?}");
    // The pair: the same field with state_version bumped and a migration is a warning.
    let migrated = with(|m| {
        state_fields(m).push(json!({"name": "extra", "type": {"kind": "u64"}}));
        m["state_version"] = json!(2);
        m["migrations"] = json!([{"method": "migrate_v1", "fromVersion": 1}]);
    });
    let f = diff(&base(), &migrated);
    assert_eq!(
        levels_of(&f, "state-field-added"),
        [("state.extra", Level::Warning)]
    );
    assert!(!rules(&f).contains(&"state-version-not-bumped"));
}

#[test]
fn a_root_field_inserted_in_the_middle_breaks_and_says_where() {
    // Every later field now reads the bytes of the one before it.
    let inserted =
        with(|m| state_fields(m).insert(1, json!({"name": "mid", "type": {"kind": "u64"}})));
    let f = diff(&base(), &inserted);
    let added = find(&f, "state-field-added");
    assert_eq!(added.level, Level::Breaking);
    assert!(
        added.message.contains("inserted at position 1"),
        "{}",
        added.message
    );
    // wiki is still there, only shifted: reported as moved, not removed.
    assert_eq!(
        levels_of(&f, "state-field-moved"),
        [("state.wiki", Level::Breaking)]
    );
    assert!(!rules(&f).contains(&"state-field-removed"));
}

#[test]
fn root_fields_reordered_are_breaking_even_when_the_shapes_match() {
    // Two collection handles (32-byte ids) swapped decode silently into each
    // other's storage: the worst case, so it must not pass.
    let two_maps = |swap: bool| {
        with(|m| {
            let fields = state_fields(m);
            fields[0] = json!({"name": "a", "type": {"kind": "map", "key": {"kind": "string"}, "value": {"kind": "string"}, "crdt_type": "unordered_map"}});
            fields[1] = json!({"name": "b", "type": {"kind": "map", "key": {"kind": "string"}, "value": {"kind": "string"}, "crdt_type": "unordered_map"}});
            if swap {
                fields.swap(0, 1);
            }
        })
    };
    let f = diff(&two_maps(false), &two_maps(true));
    assert_eq!(
        levels_of(&f, "state-field-moved"),
        [("state.b", Level::Breaking), ("state.a", Level::Breaking)]
    );
    assert!(diff(&two_maps(false), &two_maps(false)).is_empty());
}

#[test]
fn a_stored_rename_or_an_appended_case_is_a_warning_not_a_break() {
    // borsh keeps no names and old case indexes stay valid.
    let renamed = with(|m| state_fields(m)[0]["name"] = json!("total"));
    let f = diff(&base(), &renamed);
    assert_eq!(
        levels_of(&f, "state-field-renamed"),
        [("state.total", Level::Warning)]
    );
    assert_eq!(
        f.iter().filter(|f| f.level == Level::Breaking).count(),
        0,
        "{f:?}"
    );

    let old = stored_color(base());
    let new = stored_color(with(|m| {
        m["types"]["Color"]["variants"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "Blue"}))
    }));
    let f = diff(&old, &new);
    assert_eq!(
        levels_of(&f, "state-enum-case-added"),
        [("state.mode<Blue>", Level::Warning)]
    );
    assert!(
        !rules(&f).iter().any(|r| r.starts_with("state-field")),
        "{f:?}"
    );
    assert!(!rules(&f).contains(&"state-version-not-bumped"));
    // Callers are a separate audience: `pick` returning Color keeps its own finding.
    assert!(rules(&f).contains(&"result-type-changed"));

    // The pair: a case inserted first shifts every stored index.
    let shifted = stored_color(with(|m| {
        m["types"]["Color"]["variants"]
            .as_array_mut()
            .unwrap()
            .insert(0, json!({"name": "Blue"}))
    }));
    let f = diff(&old, &shifted);
    let changed = find(&f, "state-field-changed");
    assert_eq!(changed.level, Level::Breaking);
    assert_eq!(changed.path, "state.mode<Red>");
}

#[test]
fn a_nested_stored_change_points_at_the_nested_field() {
    // `map<string, Doc> → map<string, Doc>` says nothing: the path and the
    // old → new are where the change is.
    let docs = |title: &str| {
        with(|m| {
            m["types"]["Doc"] = json!({"kind": "record", "fields": [
                {"name": "title", "type": {"kind": title}},
                {"name": "body", "type": {"kind": "string"}}
            ]});
            state_fields(m).push(json!({"name": "docs", "type": {"kind": "map", "key": {"kind": "string"}, "value": {"$ref": "Doc"}, "crdt_type": "unordered_map"}}));
        })
    };
    let f = diff(&docs("string"), &docs("u64"));
    let changed = find(&f, "state-field-changed");
    assert_eq!(changed.path, "state.docs{}.title");
    assert_eq!(
        (changed.old.as_str(), changed.new.as_str()),
        ("string", "u64")
    );
    assert!(changed.message.contains("docs"), "{}", changed.message);
    // A field added to the nested record breaks too (the root's rule, nested).
    let grown = with(|m| {
        let mut v = docs("string");
        std::mem::swap(m, &mut v);
        m["types"]["Doc"]["fields"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "tags", "type": {"kind": "string"}, "nullable": true}));
    });
    let f = diff(&docs("string"), &grown);
    assert_eq!(find(&f, "state-field-changed").path, "state.docs{}.tags");
}

/// The three wordings of `state-field-changed` (a field kept in place, the
/// same with the change deeper inside, a field renamed in place whose bytes
/// no longer read), pinned word for word.
#[test]
fn state_field_changed_says_which_field_where_and_whether_it_was_renamed() {
    let counter = |name: &str, inner: &str| {
        with(|m| {
            state_fields(m)[0] = json!({"name": name, "type": {"kind": "record", "fields": [], "crdt_type": "lww_register", "inner_type": {"kind": inner}}});
        })
    };
    let message = |old: &Value, new: &Value| {
        let f = diff(old, new);
        let changed = find(&f, "state-field-changed");
        assert_eq!(changed.level, Level::Breaking);
        (changed.path.clone(), changed.message.clone())
    };
    let (path, kept) = message(&counter("count", "u64"), &counter("count", "string"));
    assert_eq!(path, "state.count");
    assert!(
        kept.starts_with("BREAKING: stored state field `count` ")
            && kept.contains(", so the new code cannot read the stored state; "),
        "{kept}"
    );
    let (path, renamed) = message(&counter("count", "u64"), &counter("total", "string"));
    assert_eq!(path, "state.total");
    assert!(
        renamed.starts_with("BREAKING: stored state field 0 was `count` and is now `total`, and ")
            && renamed.contains(", so the new code cannot read the stored state; "),
        "{renamed}"
    );
    let docs = |title: &str| {
        with(|m| {
            m["types"]["Doc"] =
                json!({"kind": "record", "fields": [{"name": "title", "type": {"kind": title}}]});
            state_fields(m).push(json!({"name": "docs", "type": {"kind": "map", "key": {"kind": "string"}, "value": {"$ref": "Doc"}, "crdt_type": "unordered_map"}}));
        })
    };
    let (path, nested) = message(&docs("string"), &docs("u64"));
    assert_eq!(path, "state.docs{}.title");
    assert!(
        nested.starts_with("BREAKING: stored state field `docs` (at `{}.title`) ")
            && nested.contains(", so the new code cannot read the stored state; "),
        "{nested}"
    );
}

// ---------------------------------------------------------------- untagged enums, recursion, depth (issue 21)

fn untagged(cases: Value) -> Value {
    with(|m| {
        m["types"]["Shape"] = json!({"kind": "variant", "untagged": true, "variants": cases});
        method(m, "put")["params"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "shape", "type": {"$ref": "Shape"}}));
    })
}

#[test]
fn an_untagged_case_that_swallows_old_inputs_is_breaking_and_one_after_them_is_not() {
    // serde tries untagged cases in order: a new first case whose fields are
    // all optional takes every old object, so calls succeed with another meaning.
    let circle = json!({"name": "Circle", "payload": {"kind": "record", "fields": [{"name": "r", "type": {"kind": "u32"}}]}});
    let any = json!({"name": "Any", "payload": {"kind": "record", "fields": [{"name": "note", "type": {"kind": "string"}, "nullable": true}]}});
    let old = untagged(json!([circle.clone()]));
    let first = untagged(json!([any.clone(), circle.clone()]));
    let f = diff(&old, &first);
    let changed = find(&f, "param-type-changed");
    assert_eq!(changed.path, "put.params.shape<Circle>");
    assert!(
        changed.message.contains("another meaning"),
        "{}",
        changed.message
    );
    // The pair: the same case after the old one only widens.
    let last = untagged(json!([circle, any]));
    assert_eq!(rules(&diff(&old, &last)), ["param-type-widened"]);
}

/// `n` mutually recursive records `R0 … R{n-1}`, each pointing at the next two
/// (wrapping round), and a method per record; `leaf` is the type of R0's `v`.
fn mutual(n: usize, leaf: &str, methods: usize) -> Value {
    with(|m| {
        for i in 0..n {
            let mut fields = vec![
                json!({"name": "a", "type": {"$ref": format!("R{}", (i + 1) % n)}, "nullable": true}),
                json!({"name": "b", "type": {"$ref": format!("R{}", (i + 2) % n)}, "nullable": true}),
            ];
            if i == 0 {
                fields.push(json!({"name": "v", "type": {"kind": leaf}}));
            }
            m["types"][format!("R{i}")] = json!({"kind": "record", "fields": fields});
        }
        for j in 0..methods {
            add_method(m, &format!("r{j:04}"));
            method(m, &format!("r{j:04}"))["params"] =
                json!([{"name": "p", "type": {"$ref": format!("R{}", j % n)}}]);
        }
    })
}

#[test]
fn mutually_recursive_types_with_one_change_are_found_everywhere_once_each() {
    // 45 mutually recursive types: each method reaches the changed field;
    // each named pair is compared once (benches/diff.rs times it).
    let f = diff(&mutual(45, "u64", 45), &mutual(45, "u32", 45));
    let changed: Vec<&Finding> = f
        .iter()
        .filter(|f| f.rule == "param-type-changed")
        .collect();
    assert_eq!(changed.len(), 45, "{:?}", rules(&f));
    assert!(
        changed.iter().all(|c| c.path.ends_with(".v")),
        "{changed:?}"
    );
    // The pair: widening is compatible everywhere.
    let f = diff(&mutual(45, "u32", 45), &mutual(45, "u64", 45));
    assert!(f.iter().all(|f| f.level != Level::Breaking), "{f:?}");
}

#[test]
fn a_change_at_the_bottom_of_a_deep_chain_is_found_or_the_limit_is_reported() {
    // 200 deep: found, with a faithful example (no null for a required field).
    let f = diff(&chain(200, "u64"), &chain(200, "u32"));
    let changed = find(&f, "param-type-changed");
    assert!(changed.path.ends_with(".next.v"), "{}", changed.path);
    let example = changed.example.as_ref().expect("an example");
    let mut v = example.clone();
    let mut depth = 0;
    while let Some(next) = v.get("next") {
        v = next.clone();
        depth += 1;
    }
    assert_eq!(depth, 199);
    assert_eq!(v, json!({"v": 4_294_967_296u64}));
    // 600 deep: past the limit, reported (breaking) instead of passing.
    let f = diff(&chain(600, "u64"), &chain(600, "u32"));
    let limit = find(&f, "comparison-limit-reached");
    assert_eq!(limit.level, Level::Breaking);
    assert!(!rules(&f).contains(&"param-type-changed"));
}

#[test]
fn a_recursive_type_with_no_finite_value_gets_no_example() {
    // `Loop { next: Loop }` has no finite value: an example would hold a null
    // where null is not allowed, so none is shown.
    let looped = |leaf: &str| {
        with(|m| {
            m["types"]["Loop"] = json!({"kind": "record", "fields": [
                {"name": "next", "type": {"$ref": "Loop"}},
                {"name": "v", "type": {"kind": leaf}}
            ]});
            add_method(m, "spin");
            method(m, "spin")["params"] = json!([{"name": "p", "type": {"$ref": "Loop"}}]);
        })
    };
    let f = diff(&looped("u64"), &looped("u32"));
    let changed = find(&f, "param-type-changed");
    assert_eq!(changed.example, None, "{changed:?}");
}

#[test]
fn result_messages_read_old_to_new() {
    // A result u32 → u64: the change column and the reason both say u32 → u64.
    let old = with(|m| method(m, "get")["returns"] = json!({"kind": "u32"}));
    let new = with(|m| method(m, "get")["returns"] = json!({"kind": "u64"}));
    let f = diff(&old, &new);
    let changed = find(&f, "result-type-changed");
    assert_eq!((changed.old.as_str(), changed.new.as_str()), ("u32", "u64"));
    assert!(changed.message.contains("u32 → u64"), "{}", changed.message);
    assert!(
        !changed.message.contains("u64 → u32"),
        "{}",
        changed.message
    );
    // A typed result becoming unchecked is said that way round.
    let unknown = with(|m| method(m, "get")["returns"] = json!({"kind": "mystery"}));
    let f = diff(&old, &unknown);
    let changed = find(&f, "result-type-changed");
    assert!(
        changed
            .message
            .contains("a typed value became an unchecked value"),
        "{}",
        changed.message
    );
}

#[test]
fn schema_changed_ignores_json_only_reorders() {
    // Reordering the fields of a record only callers see changes nothing on
    // the wire (JSON objects are by name).
    let reordered = with(|m| {
        m["types"]["Item"]["fields"]
            .as_array_mut()
            .unwrap()
            .reverse()
    });
    assert!(
        diff(&base(), &reordered).is_empty(),
        "{:?}",
        diff(&base(), &reordered)
    );
    // The pair: a compatible record change still tells agents the schema moved,
    // without claiming the types did not change.
    let grown = with(|m| {
        m["types"]["Item"]["fields"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "extra", "type": {"kind": "u32"}, "nullable": true}))
    });
    let f = diff(&base(), &grown);
    let s = find(&f, "schema-changed");
    assert!(!s.message.contains("did not"), "{}", s.message);
}

#[test]
fn tool_name_theft_is_breaking() {
    // `get-x` added next to `get_x`: a stored tool name now calls another method.
    let old = with(|m| add_method(m, "get_x"));
    let new = with(|m| {
        add_method(m, "get_x");
        add_method(m, "get-x");
    });
    let f = diff(&old, &new);
    let stolen = find(&f, "tool-name-reused");
    assert_eq!(stolen.level, Level::Breaking);
}

// ---------------------------------------------------------------- CI-safe output (issue 24 point 10, issue 22 points 8 and 17)

/// Every string and key of `v`, recursively.
fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| strings(i, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            out.push(k.clone());
            strings(v, out)
        }),
        _ => {}
    }
}

#[test]
fn names_cannot_issue_workflow_commands_or_live_markdown() {
    // Methods named like a runner command, and one with backticks, a mention
    // and a link: removed, so they appear in every format. Then every other
    // kind of string (issue 30.3): an enum case lost, nested fields retyped,
    // a doc changed, each trying to start a workflow command.
    let dir = tempfile::tempdir().unwrap();
    let evil = with(|m| {
        add_method(m, "##[add-mask]secret");
        add_method(m, "::stop-commands::x");
        add_method(m, "a`@octocat`https://evil.example`b");
        m["types"]["Color"]["variants"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "::error::case"}));
        m["types"]["Item"]["fields"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "##[warning]nested\u{7}", "type": {"kind": "u64"}}));
        method(m, "get")["doc"] = json!("Reads.\n::error::from-a-doc\n##[group]x");
    });
    let fixed = with(|m| {
        m["types"]["Item"]["fields"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": "##[warning]nested\u{7}", "type": {"kind": "u32"}}));
        method(m, "get")["doc"] = json!("Reads again.\n::warning::from-a-doc");
    });
    let old = write(dir.path(), "abi.json", &evil);
    let new = write(dir.path(), "new.json", &fixed);
    // JSON: the values themselves are what `jq -r` prints.
    let out = support::offline()
        .args(["diff", "--package", "app", "--json"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut all = Vec::new();
    strings(&report, &mut all);
    for want in ["add-mask", "nested", "from-a-doc", "error::case"] {
        assert!(all.iter().any(|s| s.contains(want)), "{want}: {all:?}");
    }
    for s in &all {
        assert!(!s.trim_start().starts_with("::"), "{s:?}");
        assert!(!s.contains("##["), "{s:?}");
        assert!(!s.chars().any(char::is_control), "{s:?}");
    }
    for format in ["text", "markdown", "github"] {
        let out = support::offline()
            .args(["diff", "--package", "app", "--format", format])
            .arg(&old)
            .arg(&new)
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(text.contains("add-mask"), "{format}: {text}");
        for line in text.lines().chain(err.lines()) {
            assert!(
                !line.chars().any(|c| c.is_control() && c != '\t'),
                "{format}: {line:?}"
            );
            assert!(!line.contains("##["), "{format}: {line}");
            let own = format == "github"
                && ["::error ", "::warning ", "::notice "]
                    .iter()
                    .any(|c| line.starts_with(c));
            assert!(
                own || !line.trim_start().starts_with("::"),
                "{format}: {line}"
            );
        }
        if format == "markdown" {
            // Every name sits in a code span whose fence is longer than its
            // backtick runs: the mention and the link stay literal.
            assert!(
                text.contains("`` a`@octocat`https://evil.example`b ``"),
                "{text}"
            );
        }
    }
}

#[test]
fn github_annotations_keep_change_and_reason_apart_without_doubled_periods() {
    let dir = tempfile::tempdir().unwrap();
    let old = write(dir.path(), "abi.json", &base());
    let new = write(
        dir.path(),
        "new.json",
        &with(|m| method(m, "get")["returns_nullable"] = json!(true)),
    );
    let out = support::offline()
        .args(["diff", "--package", "app", "--format", "github"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    let gh = String::from_utf8(out.stdout).unwrap();
    assert!(!gh.contains(".."), "{gh}");
    assert!(
        gh.contains("get.returns: string → string | null — `get` may now return null"),
        "{gh}"
    );
}

#[test]
fn a_bare_manifest_takes_the_other_sides_package() {
    // The same ABI under two file names (stems `abi` and `base`) is no change:
    // tool names are compared like for like.
    let dir = tempfile::tempdir().unwrap();
    let old = write(dir.path(), "base.json", &base());
    let new = write(dir.path(), "abi.json", &base());
    let out = support::offline()
        .arg("diff")
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("no changes")
    );
    // A bundle against its own bare abi.json: no tool-renamed either.
    let bare = write(
        dir.path(),
        "abi.json",
        &serde_json::from_slice::<Value>(
            &std::fs::read(support::root().join("examples/kv-store/abi.json")).unwrap(),
        )
        .unwrap(),
    );
    let out = support::offline()
        .args(["diff", "examples/kv-store"])
        .arg(&bare)
        .current_dir(support::root())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("tool-renamed"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
}

#[test]
fn stdin_is_bounded_like_a_file() {
    // A pipe larger than 512 MiB is refused with a clear error, not read into memory.
    use std::io::Write;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("calimcp"))
        .args(["diff", "-", "examples/kv-store"])
        .current_dir(support::root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 20];
        for _ in 0..600 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("larger than 512 MiB"), "{err}");
}

#[test]
fn a_new_abi_the_node_refuses_is_not_compared() {
    // Unsorted methods: the node ignores such an embedded ABI, so a "no
    // breaking change" verdict on it would be about something that never ships.
    let dir = tempfile::tempdir().unwrap();
    let old = write(dir.path(), "abi.json", &base());
    let unsorted = with(|m| m["methods"].as_array_mut().unwrap().reverse());
    let new = write(dir.path(), "new.json", &unsorted);
    let out = support::offline()
        .args(["diff", "--package", "app", "--json"])
        .arg(&old)
        .arg(&new)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // Load warnings come first (`--quiet` hides them), the error last.
    let stderr = String::from_utf8(out.stderr).unwrap();
    let err: Value = serde_json::from_str(stderr.lines().last().unwrap()).unwrap();
    assert_eq!(err["error"]["code"], "invalid_abi");
    // The pair: as OLD it is only warned about, and the comparison runs.
    let out = support::offline()
        .args(["diff", "--package", "app"])
        .arg(&new)
        .arg(&old)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("OLD: the node refuses this ABI")
    );
}

// ---------------------------------------------------------------- the policy file (issue 21 point 9)

fn run_with_policy(policy: &Value, old: &Value, new: &Value) -> (Option<i32>, Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let o = write(dir.path(), "abi.json", old);
    let n = write(dir.path(), "new.json", new);
    std::fs::write(dir.path().join("calimcp-diff.json"), policy.to_string()).unwrap();
    let out = support::offline()
        .args(["diff", "--package", "app", "--json"])
        .arg(&o)
        .arg(&n)
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (
        out.status.code(),
        stdout,
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn the_policy_file_sets_levels_and_ignores_with_reasons() {
    let removed = with(|m| remove_method(m, "get"));
    // An ignored finding leaves the counts and the exit code, with its reason.
    let (code, out, _) = run_with_policy(
        &json!({"ignore": [{"rule": "method-removed", "path": "get", "reason": "announced in 1.4"}]}),
        &base(),
        &removed,
    );
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out["summary"]["breaking"], 0);
    assert_eq!(out["ignored"][0]["reason"], "announced in 1.4");
    // The pair: without the entry it fails.
    let (code, _, _) = run_with_policy(&json!({}), &base(), &removed);
    assert_eq!(code, Some(1));
    // A level override: a doc change made breaking fails the gate.
    let doc = with(|m| method(m, "get")["doc"] = json!("Reads one key."));
    let (code, out, _) = run_with_policy(
        &json!({"levels": {"method-doc-changed": "breaking"}}),
        &base(),
        &doc,
    );
    assert_eq!(code, Some(1));
    assert_eq!(out["findings"][0]["level"], "breaking");
    // A stale entry is warned about.
    let (code, _, err) = run_with_policy(
        &json!({"ignore": [{"rule": "method-removed", "path": "gone", "reason": "r"}]}),
        &base(),
        &base(),
    );
    assert_eq!(code, Some(0));
    assert!(err.contains("matched nothing"), "{err}");
}

#[test]
fn a_policy_file_with_a_mistake_is_bad_input() {
    for (policy, says) in [
        (
            json!({"ignore": [{"rule": "method-removed", "path": "get"}]}),
            "reason",
        ),
        (json!({"levels": {"no-such-rule": "info"}}), "unknown rule"),
        (
            json!({"levels": {"method-removed": "fatal"}}),
            "not a level",
        ),
        (json!({"ignores": []}), "unknown field"),
    ] {
        let (code, _, err) = run_with_policy(&policy, &base(), &base());
        assert_eq!(code, Some(2), "{policy}");
        assert!(err.contains(says), "{policy}: {err}");
    }
}

#[test]
fn version_bumps_follow_semver_majors() {
    use calimcp_core::mapping::diff::policy::breaking_bump;
    // cargo's rule: a new major, or for 0.x a new minor.
    assert!(breaking_bump("1.2.0", "2.0.0"));
    assert!(!breaking_bump("1.2.0", "1.3.0"));
    assert!(breaking_bump("0.3.1", "0.4.0"));
    assert!(!breaking_bump("0.3.1", "0.3.2"));
    // Not semver: at least a different version.
    assert!(breaking_bump("nightly-a", "nightly-b"));
    assert!(!breaking_bump("nightly", "nightly"));
}
