//! Every response body a real Calimero node sends, as plain functions.
//!
//! The fake node answers with these and nothing else, so its bytes are the
//! node's bytes: `tests/wire_goldens.rs` feeds each builder the sample values in
//! `tests/golden/samples.json` and compares the result with the golden file
//! that `conformance/` (a separate cargo project) writes by serialising the
//! node's own published types (`calimero-server-primitives`,
//! `calimero-primitives`, `calimero-context-client`, `calimero-wasm-abi`;
//! `mero-auth`'s few types transcribed). A change here that the node would not
//! make fails that test.
//!
//! What the node does that a hand-written fake easily gets wrong:
//! - JSON-RPC outcomes are HTTP 200, errors included. Every error is
//!   `{"type":KIND,"data":…}` (`"type"` first: the node's build has
//!   `serde_json/preserve_order`, checked against the rc.4 binary), and a unit
//!   variant (`ContextNotFound`, `Uninitialized`, the context client's
//!   `InternalError`) has no `"data"` key; the server's own `InternalError`
//!   carries `"data":{}`.
//! - A method's output keeps the key order of the app's bytes.
//! - Admin lists skip empty optional fields (`signer_id`, `package`,
//!   `version`, `services`; `serviceName`, `dagHeads`, `applicationVersion`,
//!   `name`, `groupId`); `metadata` is an array of byte values; `services` is
//!   sorted by name; ids are base58 strings, group ids hex.
//! - The auth guard's 401/403 have an empty body; only `X-Auth-Error` says
//!   why, and on rc.4 only for `token_expired`. `/auth/*` answers
//!   `{"data":…,"error":…}` envelopes.
//!
//! `tests/golden/samples.json` also records each body's HTTP status and
//! headers, and which node versions send it where not all do.
#![allow(dead_code)]

use serde_json::{Map, Value, json};

fn rpc(id: &Value, key: &str, body: Value) -> String {
    let mut m = Map::new();
    m.insert("jsonrpc".into(), json!("2.0"));
    m.insert("id".into(), id.clone());
    m.insert(key.into(), body);
    Value::Object(m).to_string()
}

// ---- POST /jsonrpc (always HTTP 200) ----

/// A successful `execute`: `{"jsonrpc":"2.0","id":…,"result":{"output":…}}`;
/// `output` is `null` for a method returning unit (or `None`).
pub fn rpc_ok(id: &Value, output: &Value) -> String {
    rpc(id, "result", json!({ "output": output }))
}

/// A JSON-RPC error: `{"type":kind,"data":…}`, no `"data"` key when `data` is
/// `None`. Kinds: the server's `ParseError` (the request did not parse, nothing
/// ran) and `InternalError` (data `{}`), the handler's `SerdeError`
/// (`{"message":…}`) and `FunctionCallError` (a string), and the context
/// client's `ContextNotFound`, `Unauthorized`, `Uninitialized`,
/// `ApplicationNotInstalled`, `InternalError`, ….
pub fn rpc_error(id: &Value, kind: &str, data: Option<&Value>) -> String {
    let mut m = Map::new();
    m.insert("type".into(), json!(kind));
    if let Some(d) = data {
        m.insert("data".into(), d.clone());
    }
    rpc(id, "error", Value::Object(m))
}

/// `FunctionCallError` data for an app's `Err(e)`: the error's JSON bytes
/// printed as a Rust byte list.
pub fn app_error_data(error_json: &str) -> String {
    let bytes: Vec<String> = error_json.bytes().map(|b| b.to_string()).collect();
    format!("the method call returned an error: [{}]", bytes.join(", "))
}

/// `FunctionCallError` data for a guest panic.
pub fn panic_data(message: &str, location: &str) -> String {
    format!("guest panicked: {message} at {location}")
}

/// The server's own `ParseError`: `{"type":"ParseError","data":message}`.
pub fn rpc_parse_error(id: &Value, message: &str) -> String {
    rpc_error(id, "ParseError", Some(&json!(message)))
}

/// The server's own `InternalError`: `{"type":"InternalError","data":{}}`.
pub fn rpc_internal_error(id: &Value) -> String {
    rpc_error(id, "InternalError", Some(&json!({})))
}

/// The JSON-RPC `sync_status` result (0.11.0-rc.5).
pub fn rpc_sync_status(
    id: &Value,
    context_id: &str,
    is_initialized: bool,
    sync_state: &Value,
    failure_count: u32,
    last_error: Option<&str>,
) -> String {
    let mut m = Map::new();
    m.insert("contextId".into(), json!(context_id));
    m.insert("isInitialized".into(), json!(is_initialized));
    m.insert("syncState".into(), sync_state.clone());
    m.insert("failureCount".into(), json!(failure_count));
    if let Some(e) = last_error {
        m.insert("lastError".into(), json!(e));
    }
    rpc(id, "result", Value::Object(m))
}

/// `POST /jsonrpc` with a body that is not a JSON-RPC request (no `id`, no
/// `jsonrpc`): HTTP 422, `text/plain; charset=utf-8`, axum's rejection text
/// around serde's message (e.g. "missing field `id` at line 1 column 42").
pub fn rpc_unreadable(detail: &str) -> String {
    format!("Failed to deserialize the JSON body into the target type: {detail}")
}

// ---- WebSocket /ws (one JSON text message each) ----

fn ws(id: Option<u64>, key: &str, body: Value) -> String {
    let mut m = Map::new();
    m.insert("id".into(), json!(id));
    m.insert(key.into(), body);
    Value::Object(m).to_string()
}

/// The answer to `subscribe`/`unsubscribe`: `{"id":N,"result":{"contextIds":[…]}}`.
pub fn ws_subscribed(id: Option<u64>, context_ids: &[&str]) -> String {
    ws(id, "result", json!({ "contextIds": context_ids }))
}

/// A request the socket could not read as one of its methods:
/// `{"id":N,"error":{"type":"ParseError","data":…}}`. (A message that is not
/// a JSON object with an optional numeric `id` gets no answer at all.)
pub fn ws_error(id: Option<u64>, kind: &str, data: Option<&Value>) -> String {
    let mut m = Map::new();
    m.insert("type".into(), json!(kind));
    if let Some(d) = data {
        m.insert("data".into(), d.clone());
    }
    ws(id, "error", Value::Object(m))
}

/// A pushed event: `{"id":null,"result":event}`, `event` from the `event_*`
/// builders.
pub fn ws_event(event: &Value) -> String {
    ws(None, "result", event.clone())
}

// ---- Server-Sent Events /sse (calimero-server `sse/handlers.rs`) ----

/// The first event of a stream: `{"type":"connect","session_id":"N","reconnect":false}`.
pub fn sse_connect(session: u64, reconnect: bool) -> String {
    json!({"type": "connect", "session_id": session.to_string(), "reconnect": reconnect})
        .to_string()
}

/// A pushed event on the stream: `{"result":event}` (no id, unlike /ws).
pub fn sse_event(event: &Value) -> String {
    let mut m = Map::new();
    m.insert("result".into(), event.clone());
    Value::Object(m).to_string()
}

/// The answer to `POST /sse/subscription` with `subscribe` up to 0.11.0-rc.17:
/// every context asked, echoed.
pub fn sse_subscribed(context_ids: &[&str]) -> String {
    json!({"result": {"status": "subscribed", "contexts": context_ids}}).to_string()
}

/// The answer from 0.11.0-rc.18 on (rc.25 `sse/handlers.rs`): only the
/// contexts the caller may observe, and the groups (hex) subscribed.
pub fn sse_subscribed_groups(context_ids: &[&str], groups: &[&str]) -> String {
    json!({"result": {"status": "subscribed", "contexts": context_ids, "groups": groups}})
        .to_string()
}

/// The node closing a stream (`Command::Close`): `{"type":"close","reason"}`.
pub fn sse_close(reason: &str) -> String {
    json!({"type": "close", "reason": reason}).to_string()
}

/// `POST /sse/subscription` for a session the node does not have (HTTP 404).
pub fn sse_no_session() -> String {
    json!({"error": "Session not found. Please reconnect to SSE endpoint first."}).to_string()
}

/// One SSE frame as axum writes it: `event: message`, the id, the data line.
pub fn sse_frame(id: &str, data: &str) -> String {
    format!("event: message\nid: {id}\ndata: {data}\n\n")
}

/// The first frame of a stream, which also tells the client to wait 3 s
/// before reconnecting (`retry`, calimero-server `sse/config.rs`).
pub fn sse_first_frame(id: &str, data: &str) -> String {
    format!("event: message\nid: {id}\nretry: 3000\ndata: {data}\n\n")
}

fn context_event(context_id: &str, kind: &str, data: Value) -> Value {
    json!({ "contextId": context_id, "type": kind, "data": data })
}

/// `StateMutation`: the new root hash and the app's events, each with its
/// name, the bytes of its JSON payload (empty without one) and no handler.
pub fn event_state_mutation(context_id: &str, new_root: &str, events: &[(&str, &[u8])]) -> Value {
    let events: Vec<Value> = events
        .iter()
        .map(|(kind, data)| json!({ "kind": kind, "data": data, "handler": null }))
        .collect();
    context_event(
        context_id,
        "StateMutation",
        json!({ "newRoot": new_root, "events": events }),
    )
}

/// `SyncStatus` (0.11.0-rc.5).
pub fn event_sync_status(
    context_id: &str,
    sync_state: &Value,
    failure_count: u32,
    last_error: Option<&str>,
) -> Value {
    let mut data = Map::new();
    data.insert("syncState".into(), sync_state.clone());
    data.insert("failureCount".into(), json!(failure_count));
    if let Some(e) = last_error {
        data.insert("lastError".into(), json!(e));
    }
    context_event(context_id, "SyncStatus", Value::Object(data))
}

/// `AppVersionChanged` (0.11.0-rc.5); absent versions are left out.
pub fn event_app_version_changed(context_id: &str, from: Option<&str>, to: Option<&str>) -> Value {
    let mut data = Map::new();
    if let Some(v) = from {
        data.insert("fromVersion".into(), json!(v));
    }
    if let Some(v) = to {
        data.insert("toVersion".into(), json!(v));
    }
    context_event(context_id, "AppVersionChanged", Value::Object(data))
}

/// `XCall` (0.11.0-rc.5); `outcome` is `{"status":"ok"}`,
/// `{"status":"denied","detail":{"reason":…}}` or
/// `{"status":"exec_error","detail":{"message":…}}`.
pub fn event_xcall(
    context_id: &str,
    target_context_id: &str,
    function: &str,
    outcome: &Value,
) -> Value {
    context_event(
        context_id,
        "XCall",
        json!({ "targetContextId": target_context_id, "function": function, "outcome": outcome }),
    )
}

// ---- admin API ----

/// `PUT /admin-api/blobs` (calimero-server 0.11.0-rc.4 and core rc.25
/// `admin/handlers/blob.rs`, `BlobUploadResponse { data: BlobInfo }`;
/// `BlobInfo` is `{blob_id, size}`, snake_case; golden `blob-uploaded`).
pub fn blob_uploaded(id: &str, size: u64) -> String {
    json!({"data": {"blob_id": id, "size": size}}).to_string()
}

/// `GET /admin-api/blobs` (the same file: `BlobListResponse { data:
/// BlobListResponseData { blobs: Vec<BlobInfo> } }`; golden `blob-list`).
pub fn blob_list(rows: &[(String, u64)]) -> String {
    let blobs: Vec<Value> = rows
        .iter()
        .map(|(id, size)| json!({"blob_id": id, "size": size}))
        .collect();
    json!({"data": {"blobs": blobs}}).to_string()
}

/// `DELETE /admin-api/blobs/:id` (the same file: `BlobDeleteResponse
/// {blob_id, deleted}`, not wrapped in `data`; golden `blob-deleted`).
pub fn blob_deleted(id: &str) -> String {
    json!({"blob_id": id, "deleted": true}).to_string()
}

/// An admin-API failure (`ApiError`): `{"error":message}` with its status
/// (the ABI route's 400/404 on 0.11.0-rc.19 and later, among others).
pub fn admin_error(message: &str) -> String {
    json!({ "error": message }).to_string()
}

/// `GET /admin-api/applications/:id/abi` on 0.11.0-rc.19 and later:
/// `{"data":manifest}`. Pass the manifest through [`abi_node_form`] first: the
/// node re-serialises the app's embedded section with its own types.
pub fn abi_ok(manifest: &Value) -> String {
    json!({ "data": manifest }).to_string()
}

fn keep(src: &Value, out: &mut Map<String, Value>, key: &str, f: impl Fn(&Value) -> Value) {
    if let Some(v) = src.get(key).filter(|v| !v.is_null()) {
        out.insert(key.into(), f(v));
    }
}

fn each(v: &Value, f: fn(&Value) -> Value) -> Value {
    Value::Array(v.as_array().map_or(vec![], |a| a.iter().map(f).collect()))
}

fn same(v: &Value) -> Value {
    v.clone()
}

/// A type reference as `calimero-wasm-abi`'s untagged `TypeRef` writes it:
/// `$ref`, a scalar, or a collection (list, map, inline record, tuple) with
/// its `crdt_type`/`inner_type`.
fn type_ref(t: &Value) -> Value {
    let mut m = Map::new();
    if let Some(r) = t.get("$ref") {
        m.insert("$ref".into(), r.clone());
        return Value::Object(m);
    }
    let kind = t["kind"].as_str().unwrap_or_default();
    m.insert("kind".into(), json!(kind));
    match kind {
        "bytes" => {
            keep(t, &mut m, "size", same);
            keep(t, &mut m, "encoding", same);
        }
        "list" => keep(t, &mut m, "items", type_ref),
        "map" => {
            keep(t, &mut m, "key", type_ref);
            keep(t, &mut m, "value", type_ref);
        }
        "record" => {
            m.insert("fields".into(), each(&t["fields"], field));
        }
        "tuple" => {
            m.insert("elements".into(), each(&t["elements"], type_ref));
        }
        _ => {}
    }
    if matches!(kind, "list" | "map" | "record" | "tuple") {
        keep(t, &mut m, "crdt_type", same);
        keep(t, &mut m, "inner_type", type_ref);
    }
    Value::Object(m)
}

/// A record field or a method parameter: name, type, nullable.
fn field(f: &Value) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), f["name"].clone());
    m.insert("type".into(), type_ref(&f["type"]));
    keep(f, &mut m, "nullable", same);
    Value::Object(m)
}

fn type_def(t: &Value) -> Value {
    let kind = t["kind"].as_str().unwrap_or_default();
    let mut m = Map::new();
    m.insert("kind".into(), json!(kind));
    match kind {
        "record" => {
            m.insert("fields".into(), each(&t["fields"], field));
        }
        "variant" => {
            let variant = |v: &Value| {
                let mut m = Map::new();
                m.insert("name".into(), v["name"].clone());
                keep(v, &mut m, "code", same);
                keep(v, &mut m, "payload", type_ref);
                Value::Object(m)
            };
            let variants = t["variants"]
                .as_array()
                .map_or(vec![], |a| a.iter().map(variant).collect());
            m.insert("variants".into(), Value::Array(variants));
        }
        "bytes" => {
            keep(t, &mut m, "size", same);
            keep(t, &mut m, "encoding", same);
        }
        "alias" => keep(t, &mut m, "target", type_ref),
        _ => {}
    }
    Value::Object(m)
}

fn method(x: &Value) -> Value {
    let mut m = Map::new();
    m.insert("name".into(), x["name"].clone());
    m.insert("params".into(), each(&x["params"], field));
    keep(x, &mut m, "returns", type_ref);
    keep(x, &mut m, "returns_nullable", same);
    if x["errors"].as_array().is_some_and(|e| !e.is_empty()) {
        let error = |e: &Value| {
            let mut m = Map::new();
            m.insert("code".into(), e["code"].clone());
            keep(e, &mut m, "payload", type_ref);
            Value::Object(m)
        };
        let errors = x["errors"]
            .as_array()
            .map_or(vec![], |a| a.iter().map(error).collect());
        m.insert("errors".into(), Value::Array(errors));
    }
    if x["intent"].as_str().is_some_and(|i| i != "unspecified") {
        m.insert("intent".into(), x["intent"].clone());
    }
    if x["xcall_callable"] == json!(true) {
        m.insert("xcall_callable".into(), json!(true));
    }
    if x["xcall_callers"]
        .as_str()
        .is_some_and(|c| c != "any_in_namespace")
    {
        m.insert("xcall_callers".into(), x["xcall_callers"].clone());
    }
    Value::Object(m)
}

/// The manifest the ABI route serves for an app whose `calimero_abi_v1`
/// section holds `manifest`: what `calimero-wasm-abi` 0.11.0-rc.19's
/// `Manifest` keeps, in its field order, with `types` sorted by name. It drops
/// every `doc`, `idempotent`/`destructive`, a named record's `crdt_type`, and
/// a variant's `tag`/`content`/`untagged`; `events` is always present. (A
/// section without `events`, or with a schema the node cannot read, is no ABI
/// at all to the node: it answers 400, see `abi-absent` in the goldens.)
pub fn abi_node_form(manifest: &Value) -> Value {
    let mut m = Map::new();
    m.insert("schema_version".into(), manifest["schema_version"].clone());
    let mut types: Vec<(&String, &Value)> = manifest["types"]
        .as_object()
        .map_or(vec![], |t| t.iter().collect());
    types.sort_by_key(|(name, _)| *name);
    let types: Map<String, Value> = types
        .into_iter()
        .map(|(k, v)| (k.clone(), type_def(v)))
        .collect();
    m.insert("types".into(), Value::Object(types));
    m.insert("methods".into(), each(&manifest["methods"], method));
    let event = |e: &Value| {
        let mut m = Map::new();
        m.insert("name".into(), e["name"].clone());
        keep(e, &mut m, "payload", type_ref);
        Value::Object(m)
    };
    let events = manifest["events"]
        .as_array()
        .map_or(vec![], |a| a.iter().map(event).collect());
    m.insert("events".into(), Value::Array(events));
    keep(manifest, &mut m, "state_root", same);
    keep(manifest, &mut m, "state_version", same);
    if manifest["migrations"]
        .as_array()
        .is_some_and(|a| !a.is_empty())
    {
        m.insert("migrations".into(), manifest["migrations"].clone());
    }
    Value::Object(m)
}

/// A route the node does not have (the ABI route before 0.11.0-rc.19), the
/// guard's 401/403: HTTP 404 (or the guard's status) with no body at all.
pub fn empty() -> String {
    String::new()
}

/// An alias lookup whose name cannot be an alias (over 50 bytes; rc.25 also
/// bad characters): HTTP 400, `text/plain; charset=utf-8`.
pub fn alias_invalid() -> String {
    "invalid path params".to_owned()
}

/// The two blobs of an application or of one of its services.
#[derive(Clone, Copy, Debug)]
pub struct Blob<'a> {
    pub bytecode: &'a str,
    pub compiled: &'a str,
}

/// An installed application as `GET /admin-api/applications` lists it.
#[derive(Clone, Copy, Debug)]
pub struct App<'a> {
    pub id: &'a str,
    pub blob: Blob<'a>,
    pub size: u64,
    pub source: &'a str,
    pub metadata: &'a [u8],
    /// Empty strings and an empty list are left out, as the node does.
    pub signer_id: &'a str,
    pub package: &'a str,
    pub version: &'a str,
    pub services: &'a [(&'a str, Blob<'a>)],
}

fn blob(b: &Blob<'_>) -> Value {
    json!({"bytecode": b.bytecode, "compiled": b.compiled})
}

fn app_json(a: &App<'_>, v010: bool) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(a.id));
    m.insert("blob".into(), blob(&a.blob));
    m.insert("size".into(), json!(a.size));
    m.insert("source".into(), json!(a.source));
    m.insert("metadata".into(), json!(a.metadata));
    if !v010 {
        for (k, v) in [
            ("signer_id", a.signer_id),
            ("package", a.package),
            ("version", a.version),
        ] {
            if !v.is_empty() {
                m.insert(k.into(), json!(v));
            }
        }
        if !a.services.is_empty() {
            let mut services: Vec<&(&str, Blob<'_>)> = a.services.iter().collect();
            services.sort_by_key(|(name, _)| *name);
            let services: Map<String, Value> = services
                .into_iter()
                .map(|(name, b)| ((*name).to_string(), blob(b)))
                .collect();
            m.insert("services".into(), Value::Object(services));
        }
    }
    Value::Object(m)
}

/// `GET /admin-api/applications` on 0.11 nodes.
pub fn apps_list(apps: &[App<'_>]) -> String {
    let apps: Vec<Value> = apps.iter().map(|a| app_json(a, false)).collect();
    json!({"data": {"apps": apps}}).to_string()
}

/// `GET /admin-api/applications` on 0.10.0: id, blob, size, source, metadata
/// only (no package, version, signer or services).
pub fn apps_list_v010(apps: &[App<'_>]) -> String {
    let apps: Vec<Value> = apps.iter().map(|a| app_json(a, true)).collect();
    json!({"data": {"apps": apps}}).to_string()
}

/// A context as `GET /admin-api/contexts/for-application/:id` lists it.
#[derive(Clone, Copy, Debug, Default)]
pub struct Context<'a> {
    pub id: &'a str,
    pub application_id: &'a str,
    /// 0.11 only.
    pub service_name: Option<&'a str>,
    /// `contextStateHash` on 0.11, `rootHash` on 0.10.0 (base58).
    pub root_hash: &'a str,
    /// Left out when empty.
    pub dag_heads: &'a [[u8; 32]],
    /// 0.11 only.
    pub application_version: Option<&'a str>,
    /// 0.11 only.
    pub name: Option<&'a str>,
    /// 0.11 only (hex).
    pub group_id: Option<&'a str>,
}

fn context_json(c: &Context<'_>, v010: bool) -> Value {
    let mut m = Map::new();
    m.insert("id".into(), json!(c.id));
    m.insert("applicationId".into(), json!(c.application_id));
    if v010 {
        m.insert("rootHash".into(), json!(c.root_hash));
        if !c.dag_heads.is_empty() {
            m.insert("dagHeads".into(), json!(c.dag_heads));
        }
        return Value::Object(m);
    }
    if let Some(s) = c.service_name {
        m.insert("serviceName".into(), json!(s));
    }
    m.insert("contextStateHash".into(), json!(c.root_hash));
    if !c.dag_heads.is_empty() {
        m.insert("dagHeads".into(), json!(c.dag_heads));
    }
    for (k, v) in [
        ("applicationVersion", c.application_version),
        ("name", c.name),
        ("groupId", c.group_id),
    ] {
        if let Some(v) = v {
            m.insert(k.into(), json!(v));
        }
    }
    Value::Object(m)
}

/// `GET /admin-api/contexts/for-application/:id` on 0.11 nodes.
pub fn contexts_list(contexts: &[Context<'_>]) -> String {
    let contexts: Vec<Value> = contexts.iter().map(|c| context_json(c, false)).collect();
    json!({"data": {"contexts": contexts}}).to_string()
}

/// The same on 0.10.0: id, applicationId, rootHash, dagHeads.
pub fn contexts_list_v010(contexts: &[Context<'_>]) -> String {
    let contexts: Vec<Value> = contexts.iter().map(|c| context_json(c, true)).collect();
    json!({"data": {"contexts": contexts}}).to_string()
}

/// `GET /admin-api/contexts/:id` on 0.11 nodes: `GetContextResponse { data: Context }`
/// (a plain `Context`: no `groupId`, unlike the list).
pub fn context_get(c: &Context<'_>) -> String {
    let plain = Context {
        group_id: None,
        ..*c
    };
    json!({"data": context_json(&plain, false)}).to_string()
}

/// The same on 0.10.0.
pub fn context_get_v010(c: &Context<'_>) -> String {
    json!({"data": context_json(c, true)}).to_string()
}

/// `GET /admin-api/alias/list/context`: `ListAliasesResponse { data: BTreeMap<alias, id> }`.
pub fn aliases_list(aliases: &[(&str, &str)]) -> String {
    let map: std::collections::BTreeMap<&str, &str> = aliases.iter().copied().collect();
    json!({ "data": map }).to_string()
}

/// One entry of `GET /admin-api/applications/:id/versions`.
#[derive(Clone, Copy, Debug, Default)]
pub struct AppVersion<'a> {
    pub version: &'a str,
    pub blob_id: &'a str,
    pub size: u64,
    pub package: &'a str,
}

/// `GET /admin-api/applications/:id/versions` (0.11):
/// `ListApplicationVersionsResponse { data: Vec<ApplicationVersionEntry> }`.
pub fn app_versions(versions: &[AppVersion<'_>]) -> String {
    let list: Vec<Value> = versions
        .iter()
        .map(|v| json!({"version": v.version, "blobId": v.blob_id, "size": v.size, "package": v.package}))
        .collect();
    json!({ "data": list }).to_string()
}

/// `GET /admin-api/contexts/:id/identities-owned`.
pub fn identities_owned(identities: &[&str]) -> String {
    json!({"data": {"identities": identities}}).to_string()
}

/// `GET /admin-api/contexts/:id/group` (0.10.1-rc.7 on, rc.4 and rc.25 alike):
/// the context's group id in hex, or null for a context in no group and for a
/// context the node does not have.
pub fn context_group(group_id: Option<&str>) -> String {
    json!({ "data": group_id }).to_string()
}

/// One group as `GET /admin-api/groups/:id` describes it.
#[derive(Clone, Copy, Debug, Default)]
pub struct GroupInfo<'a> {
    /// Hex.
    pub group_id: &'a str,
    /// Hex.
    pub app_key: &'a str,
    /// The application the group's contexts run, or move to on their next
    /// use after an upgrade (the node's id form).
    pub target_application_id: &'a str,
    pub member_count: u64,
    pub context_count: u64,
    pub default_capabilities: u32,
    pub subgroup_visibility: &'a str,
    /// Hex.
    pub group_state_hash: &'a str,
}

/// `GET /admin-api/groups/:id`: rc.25's `GroupInfoApiResponse`, or with
/// `upgrade_policy` rc.4's (…rc.24), which names it after the target.
pub fn group_info(g: &GroupInfo<'_>, upgrade_policy: Option<&str>) -> String {
    let mut data = json!({
        "groupId": g.group_id,
        "appKey": g.app_key,
        "targetApplicationId": g.target_application_id,
    });
    if let Some(policy) = upgrade_policy {
        data["upgradePolicy"] = json!(policy);
    }
    data["memberCount"] = json!(g.member_count);
    data["contextCount"] = json!(g.context_count);
    data["defaultCapabilities"] = json!(g.default_capabilities);
    data["subgroupVisibility"] = json!(g.subgroup_visibility);
    data["groupStateHash"] = json!(g.group_state_hash);
    json!({ "data": data }).to_string()
}

/// rc.4's answer (500) for a group it does not have: the handler's error
/// with the id's Debug form, which rc.25 hides behind "Internal server error"
/// (see [`admin_error`]).
pub fn group_not_found_rc4(group_id: &[u8; 32]) -> String {
    admin_error(&format!(
        "group 'ContextGroupId(Identity({group_id:?}))' not found"
    ))
}

/// `POST /admin-api/alias/lookup/{context,identity}/…` that found the alias.
pub fn alias_hit(value: &str) -> String {
    json!({"data": {"value": value}}).to_string()
}

/// The same for an unknown alias (still HTTP 200).
pub fn alias_miss() -> String {
    json!({"data": {"value": null}}).to_string()
}

// ---- auth (mero-auth, served at the root) ----

/// `POST /auth/token` that succeeded (HTTP 200).
pub fn login_ok(access_token: &str, refresh_token: &str) -> String {
    token_pair(access_token, refresh_token)
}

/// `POST /auth/refresh` that succeeded (HTTP 200): the same envelope as login.
pub fn refresh_ok(access_token: &str, refresh_token: &str) -> String {
    token_pair(access_token, refresh_token)
}

fn token_pair(access_token: &str, refresh_token: &str) -> String {
    json!({
        "data": {"access_token": access_token, "refresh_token": refresh_token, "error": null},
        "error": null,
    })
    .to_string()
}

/// Any failed `/auth/*` answer: `{"data":null,"error":message}` (login failed:
/// 401 "Authentication failed: …"; a replayed refresh token on rc.4: 500
/// "Failed to refresh token: …"; an access token still valid: 401).
pub fn auth_error(message: &str) -> String {
    json!({"data": null, "error": message}).to_string()
}

/// The login failure body (HTTP 401).
pub fn login_failed(message: &str) -> String {
    auth_error(message)
}

/// The auth guard's 401/403 in front of admin-api and jsonrpc: an empty body;
/// the reason is only in `X-Auth-Error` (`token_expired`, `invalid_token`,
/// `token_revoked`, `permission_denied`, …).
pub fn guard_denied() -> String {
    String::new()
}

// ---- lifecycle (research: node-lifecycle-routes.md; rc.4 and rc.25 alike unless said) ----

/// `POST /admin-api/install-dev-application` and `install-application`, and
/// `DELETE /admin-api/applications/:id`: `{"data":{"applicationId"}}`.
pub fn application_id(id: &str) -> String {
    json!({"data": {"applicationId": id}}).to_string()
}

/// `POST /admin-api/namespaces`.
pub fn namespace_created(namespace_id: &str) -> String {
    json!({"data": {"namespaceId": namespace_id}}).to_string()
}

/// `POST /admin-api/contexts`: `CreateContextResponse`.
pub fn context_created(context_id: &str, member_public_key: &str, group_id: &str) -> String {
    json!({"data": {"contextId": context_id, "memberPublicKey": member_public_key,
                    "groupId": group_id, "groupCreated": false}})
    .to_string()
}

/// The signed invitation object (`SignedGroupOpenInvitation`, snake_case,
/// integer arrays and hex strings mixed); rc.4 has no `inviter_account`.
pub fn signed_invitation(group: &[u8; 32], inviter: &[u8; 32], rc4: bool) -> Value {
    let mut v = json!({
        "invitation": {
            "inviter_identity": inviter.to_vec(),
            "group_id": group.to_vec(),
            "expiration_timestamp": 1_828_152_536u64,
            "secret_salt": vec![7u8; 32],
            "invited_role": 1,
        },
        "inviter_signature": "23".repeat(64),
        "application_id": vec![10u8; 32],
        "app_key": vec![203u8; 32],
    });
    if !rc4 {
        v["inviter_account"] = json!("1c".repeat(32));
    }
    v
}

/// `POST /admin-api/namespaces/:id/invite`.
pub fn namespace_invitation(invitation: &Value) -> String {
    json!({"data": {"invitation": invitation}}).to_string()
}

/// `POST /admin-api/namespaces/:id/join`: rc.4 names the namespace
/// `groupId` (with `governanceOp`), rc.25 `namespaceId` (with `memberAccount`).
pub fn namespace_joined(namespace_id: &str, member: &str, rc4: bool) -> String {
    if rc4 {
        json!({"data": {"groupId": namespace_id, "memberIdentity": member, "governanceOp": ""}})
            .to_string()
    } else {
        json!({"data": {"namespaceId": namespace_id, "memberIdentity": member,
                        "memberAccount": "33".repeat(32)}})
        .to_string()
    }
}

/// `POST /admin-api/contexts/:id/join`.
pub fn context_joined(context_id: &str, member_public_key: &str) -> String {
    json!({"data": {"contextId": context_id, "memberPublicKey": member_public_key}}).to_string()
}

/// `DELETE /admin-api/contexts/:id`.
pub fn context_deleted(deleted: bool) -> String {
    json!({"data": {"isDeleted": deleted}}).to_string()
}

/// rc.4's `GET /admin-api/namespaces/:id/identity`: not enveloped.
pub fn namespace_identity(namespace_id: &str, public_key: &str) -> String {
    json!({"namespaceId": namespace_id, "publicKey": public_key}).to_string()
}

/// `POST /admin-api/alias/create/context` and `…/delete/context/:name`.
pub fn data_null() -> String {
    json!({"data": null}).to_string()
}

// ---- rc.83: the recorded wire ----
//
// merod 0.11.0-rc.83 cannot be built here, and no conformance golden comes
// from its types: every body below is the one the record gives
// (../shared/reference/merod-rc83-wire.md, "REC" below, with its section),
// each with the record's own source. What the record marks *inferred* is
// marked so here too.

/// `POST /auth/logout` that retired the refresh token (HTTP 200).
/// REC §1 "POST /auth/logout": AUTH83 `logout_handler`; the request field
/// confirmed by swift-sdk Rc83SurfaceTests `testLogoutPostsTheRefreshToken`.
pub fn rc83_logout_ok() -> String {
    json!({"data": {"success": true}, "error": null}).to_string()
}

/// serde's message for an unknown key of a `deny_unknown_fields` struct
/// whose fields are `expected`: "unknown field `k`, expected `a`",
/// "… expected `a` or `b`", "… expected one of `a`, `b`, `c`" (serde's
/// `de::Error::unknown_field`).
pub fn serde_unknown_field(key: &str, expected: &[&str]) -> String {
    let quoted: Vec<String> = expected.iter().map(|f| format!("`{f}`")).collect();
    let list = match quoted.as_slice() {
        [] => "there are no fields".to_string(),
        [one] => format!("expected {one}"),
        [a, b] => format!("expected {a} or {b}"),
        more => format!("expected one of {}", more.join(", ")),
    };
    format!("unknown field `{key}`, {list}")
}

/// An `/auth/*` body with an unknown key (HTTP 400). REC §0 "Unknown-key
/// error, `/auth/*`": C25 `crates/auth/src/auth/validation.rs:16,27-35`
/// (`{"error","status"}`); the message tail is *inferred* from axum-core
/// 0.5.6 `src/macros.rs:135-139` (`detail` = `path: serde message at line L
/// column C`).
pub fn rc83_auth_invalid_json(detail: &str) -> String {
    json!({
        "error": format!("Invalid JSON: Failed to deserialize the JSON body into the target type: {detail}"),
        "status": 400,
    })
    .to_string()
}

/// An admin `ValidatedJson` body with an unknown key (HTTP 400). REC §0
/// "Unknown-key error, admin `ValidatedJson` routes": the exact text of the
/// live fixture swift-sdk `Fixtures/rc32-install-application-url-refused.json`.
pub fn rc83_admin_invalid_json(detail: &str) -> String {
    admin_error(&format!(
        "Invalid JSON data: Failed to deserialize the JSON body into the target type: {detail}"
    ))
}

/// `POST /sse/subscription` whose payload does not parse (HTTP 400):
/// `{"error":{"type":"ParseError","data":…}}`. REC §6 "Bad payload": C25
/// `sse/handlers.rs:187-418`; research note §9 (LIVE on rc.4: "missing field
/// `contextIds`"; LIVE on rc.25: a bad group id).
pub fn sse_parse_error(message: &str) -> String {
    json!({"error": {"type": "ParseError", "data": message}}).to_string()
}

/// `GET /admin-api/contexts/:id/identities-owned` from rc.41 on: the list
/// and whose identities they are, `identitiesOf` (REC §3: SW41, core
/// fixture `contexts/identities.res.json`, which says `"caller"`; `"node"`
/// for the node owner's session is *inferred* from SW41's comment).
pub fn rc83_identities_owned(identities: &[&str]) -> String {
    json!({"data": {"identities": identities, "identitiesOf": "node"}}).to_string()
}

/// A write the node ran read-only and discarded (JSON-RPC, HTTP 200). REC §5
/// "read-only refusal — new rc.83": EXEC83 `refuse_discarded_write`; the
/// exact body of swift-sdk Rc83SurfaceTests `testReadOnlyWriteRefusedIsRecognised`.
pub fn rc83_read_only_write_refused(id: &Value, context_id: &str) -> String {
    rpc_error(
        id,
        "ReadOnlyWriteRefused",
        Some(&json!({"context_id": context_id})),
    )
}

/// A group-keyed event (rc.18 on; `memberAccount` rc.21): `{"groupId",
/// "type","data"}`, no `contextId`. REC §6 "Group-keyed"; the research note
/// (../../research/node-lifecycle-routes.md §9) has the live rc.25 frames
/// `MigrationStarted`, `MigrationProgress`, `MemberJoined`
/// (`{"memberAccount","role"}`; `role` left out for removals).
pub fn event_group(group_id: &str, kind: &str, data: &Value) -> Value {
    json!({"groupId": group_id, "type": kind, "data": data})
}
