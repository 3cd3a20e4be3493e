//! `calimcp diff`: every rule fires on its change and stays silent on the
//! compatible neighbour change; examples are real counter-examples; the
//! shared corpus; the command's formats and exit codes.

mod common;

use std::sync::Arc;

use calimcp::abi::{App, LoadOptions, Manifest, Service, load_path, parse_manifest_value};
use calimcp::mapping::args::Validator;
use calimcp::mapping::diff::{Finding, Level, RULES, diff_apps};
use calimcp::mapping::{RefMode, ToolOptions, method_schemas};
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
            {"name": "put", "params": [
                {"name": "key", "type": {"kind": "string"}},
                {"name": "n", "type": {"kind": "u32"}},
                {"name": "opt", "type": {"kind": "u32"}, "nullable": true},
                {"name": "item", "type": {"$ref": "Item"}},
                {"name": "color", "type": {"$ref": "Color"}},
                {"name": "tree", "type": {"$ref": "Node"}},
                {"name": "tags", "type": {"kind": "list", "items": {"kind": "string"}}},
                {"name": "blob", "type": {"kind": "bytes"}}
            ], "returns": {"$ref": "Item"}, "intent": "mutating"},
            {"name": "pick", "params": [], "returns": {"$ref": "Color"}, "intent": "read_only"}
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
        id: format!("id-{package}"),
        package: Some(package.into()),
        source: "test".into(),
        services,
        ..App::default()
    }
}

fn diff(old: &Value, new: &Value) -> Vec<Finding> {
    diff_apps(
        &app(old, "com.example.app"),
        &app(new, "com.example.app"),
        None,
        &ToolOptions::default(),
    )
    .findings
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
            calimcp::mapping::diff::compat::example(&old_man, &p.ty)
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
    let Some(dir) = common::fixtures("the_real_identity_downgrade_pair_is_reported") else {
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
        common::fixtures("every_fixture_against_itself_reports_nothing_and_every_pair_completes")
    else {
        return;
    };
    let apps: Vec<(String, App)> = common::fixture_manifests(&dir)
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
        common::calimcp()
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
    // Bad input is 2, with the error on stderr and nothing on stdout.
    let out = common::calimcp()
        .args(["diff", "missing.json"])
        .arg(&old)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let out = common::calimcp().args(["diff", "-", "-"]).output().unwrap();
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
    let out = common::calimcp()
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
    let out = common::calimcp()
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
        let out = common::calimcp()
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
        md.contains("| 🔴 breaking | `method-removed` | <code>get</code> |"),
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
    assert!(
        gh.lines()
            .last()
            .unwrap()
            .starts_with("calimcp diff: 1 breaking")
    );
}

#[test]
fn multi_service_bundles_compare_service_by_service() {
    let Some(fixtures) = common::fixtures("multi_service_bundles_compare_service_by_service")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let bundle = common::mero_docs_bundle(&fixtures, dir.path());
    let out = common::calimcp()
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
    let out = common::calimcp()
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
    let changed = common::mero_docs_bundle(&fixtures, other.path());
    let mut registry: Value =
        serde_json::from_slice(&std::fs::read(changed.join("registry-abi.json")).unwrap()).unwrap();
    let gone = registry["methods"].as_array_mut().unwrap().remove(0);
    std::fs::write(
        changed.join("registry-abi.json"),
        serde_json::to_vec(&registry).unwrap(),
    )
    .unwrap();
    let out = common::calimcp()
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
    let out = common::calimcp()
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
    let out = common::calimcp()
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
fn the_readme_lists_every_rule_with_its_level() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    for r in RULES {
        let row = format!("| `{}` | {}", r.id, r.level.name());
        assert!(readme.contains(&row), "README has no row starting {row}");
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
        let out = common::calimcp()
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
    let out = common::calimcp()
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
        "kv-store → examples/kv-store: no changes; upgrade gate: code-only\n"
    );
    // An unknown name is bad input, with the catalog's error.
    let out = common::calimcp()
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
