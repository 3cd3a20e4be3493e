//! Response bodies, serialised by the node's own types from the sample values
//! in `tests/golden/samples.json`, the way the node's handlers serialise them.

use std::collections::BTreeMap;

use calimero_context_client::messages::ExecuteError;
use calimero_primitives::application::{Application, ApplicationBlob, ApplicationSource};
use calimero_primitives::context::{Context, ContextId};
use calimero_primitives::events::{
    AppVersionChangedPayload, ContextEvent, ContextEventPayload, ExecutionEvent, NodeEvent,
    StateMutationPayload, SyncStatusPayload, XCallOutcome, XCallPayload,
};
use calimero_primitives::identity::PublicKey;
use calimero_primitives::sync_status::SyncState;
use calimero_server_primitives::admin::{
    ApplicationVersionEntry, ContextWithGroup, GetContextGroupApiResponse,
    GetContextIdentitiesResponse, GetContextResponse, GetContextsResponse, GroupInfoApiResponse,
    GroupInfoApiResponseData, ListAliasesResponse, ListApplicationVersionsResponse,
    ListApplicationsResponse, LookupAliasResponse, LookupAliasResponseData,
};
use calimero_server_primitives::jsonrpc::{
    ExecutionError, ExecutionResponse, RequestId, Response, ResponseBody, ResponseBodyError,
    ResponseBodyResult, ServerResponseError, SyncStatusResponse, Version,
};
use calimero_server_primitives::{sse, ws};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::mirror::{mero_auth, server, server_0_10};

pub type Result<T> = std::result::Result<T, String>;

/// A value parsed from the sample the way the node parses it from JSON.
pub fn parse<T: DeserializeOwned>(v: &Value, what: &str) -> Result<T> {
    serde_json::from_value(v.clone()).map_err(|e| format!("{what} {v}: {e}"))
}

fn str_of<'a>(v: &'a Value, key: &str) -> Result<&'a str> {
    v.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("sample field `{key}` is not a string"))
}

/// axum's `Json` writes `serde_json::to_vec` of the value.
fn body<T: Serialize>(v: &T) -> Result<String> {
    serde_json::to_string(v).map_err(|e| e.to_string())
}

/// `calimero-server` `jsonrpc.rs`: `handle_request_inner` wraps the handler's
/// outcome (`ToResponseBody::to_res_body`) in a `Response` echoing the id.
fn rpc(id: &Value, outcome: ResponseBody) -> Result<String> {
    let id: RequestId = parse(id, "JSON-RPC id")?;
    body(&Response::new(Version::TwoPointZero, id, outcome))
}

/// `to_res_body` for `Ok(r)`: `ResponseBody::Result(to_value(r))`.
fn handler_ok<T: Serialize>(r: T) -> Result<ResponseBody> {
    let v = serde_json::to_value(r).map_err(|e| e.to_string())?;
    Ok(ResponseBody::Result(ResponseBodyResult(v)))
}

/// `to_res_body` for `Err(RpcError::MethodCallError(e))`.
fn handler_err<E: Serialize>(e: E) -> Result<ResponseBody> {
    let v = serde_json::to_value(e).map_err(|e| e.to_string())?;
    Ok(ResponseBody::Error(ResponseBodyError::HandlerError(v)))
}

fn execution_error(sample: &Value) -> Result<ExecutionError> {
    let kind = str_of(sample, "type")?;
    let data = sample.get("data").cloned().unwrap_or(Value::Null);
    Ok(match kind {
        "FunctionCallError" => ExecutionError::FunctionCallError(str_of(sample, "data")?.into()),
        "SerdeError" => ExecutionError::SerdeError {
            message: str_of(&data, "message")?.into(),
        },
        // The context client's errors: built by their own deserialiser from
        // `{"type":…,"data":…}` (typed ids are checked on the way).
        _ => {
            let mut tagged = serde_json::Map::new();
            tagged.insert("type".into(), kind.into());
            if sample.get("data").is_some() {
                tagged.insert("data".into(), data);
            }
            let e: ExecuteError = parse(&Value::Object(tagged), "ExecuteError")?;
            ExecutionError::ExecuteError(e)
        }
    })
}

fn blob(v: &Value) -> Result<ApplicationBlob> {
    Ok(ApplicationBlob {
        bytecode: parse(&v["bytecode"], "blob id")?,
        compiled: parse(&v["compiled"], "blob id")?,
    })
}

fn application(a: &Value) -> Result<Application> {
    let source: ApplicationSource = str_of(a, "source")?
        .parse()
        .map_err(|e| format!("source: {e:?}"))?;
    let mut app = Application::new(
        parse(&a["id"], "application id")?,
        blob(&a["blob"])?,
        a["size"].as_u64().ok_or("size is not a u64")?,
        source,
        str_of(a, "metadata")?.as_bytes().to_vec(),
    );
    app.signer_id = str_of(a, "signer_id")?.into();
    app.package = str_of(a, "package")?.into();
    app.version = str_of(a, "version")?.into();
    let mut services = BTreeMap::new();
    for (name, b) in a["services"]
        .as_object()
        .ok_or("services is not an object")?
    {
        services.insert(name.clone(), blob(b)?);
    }
    app.services = services;
    Ok(app)
}

fn application_0_10(a: &Value) -> Result<calimero_primitives_0_10::application::Application> {
    use calimero_primitives_0_10::application as app010;
    let b = &a["blob"];
    let source: app010::ApplicationSource = str_of(a, "source")?
        .parse()
        .map_err(|e| format!("source: {e:?}"))?;
    Ok(app010::Application::new(
        parse(&a["id"], "application id")?,
        app010::ApplicationBlob {
            bytecode: parse(&b["bytecode"], "blob id")?,
            compiled: parse(&b["compiled"], "blob id")?,
        },
        a["size"].as_u64().ok_or("size is not a u64")?,
        source,
        str_of(a, "metadata")?.as_bytes().to_vec(),
    ))
}

fn blob_info(v: &Value) -> Result<calimero_primitives::blobs::BlobInfo> {
    Ok(calimero_primitives::blobs::BlobInfo {
        blob_id: parse(&v["blob_id"], "blob id")?,
        size: v["size"].as_u64().ok_or("size is not a u64")?,
    })
}

fn opt_string(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn context(c: &Value) -> Result<ContextWithGroup> {
    let mut ctx = Context::new(
        parse(&c["id"], "context id")?,
        parse(&c["application_id"], "application id")?,
        parse(&c["root_hash"], "root hash")?,
    );
    ctx.service_name = opt_string(c, "service_name");
    ctx.dag_heads = parse(&c["dag_heads"], "dag heads")?;
    ctx.application_version = opt_string(c, "application_version");
    ctx.name = opt_string(c, "name");
    Ok(ContextWithGroup {
        context: ctx,
        group_id: opt_string(c, "group_id"),
    })
}

fn context_0_10(c: &Value) -> Result<calimero_primitives_0_10::context::Context> {
    Ok(calimero_primitives_0_10::context::Context::with_dag_heads(
        parse(&c["id"], "context id")?,
        parse(&c["application_id"], "application id")?,
        parse(&c["root_hash"], "root hash")?,
        parse(&c["dag_heads"], "dag heads")?,
    ))
}

fn list<'a>(v: &'a Value, key: &str) -> Result<&'a Vec<Value>> {
    v[key]
        .as_array()
        .ok_or_else(|| format!("sample field `{key}` is not a list"))
}

/// A wasm module with nothing but a `calimero_abi_v1` custom section holding
/// `manifest` (the bytes an app built with the SDK carries).
fn module_with_abi(manifest: &[u8]) -> Vec<u8> {
    fn leb(mut n: usize, out: &mut Vec<u8>) {
        loop {
            let byte = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(byte);
                return;
            }
            out.push(byte | 0x80);
        }
    }
    let name = b"calimero_abi_v1";
    let mut payload = Vec::new();
    leb(name.len(), &mut payload);
    payload.extend_from_slice(name);
    payload.extend_from_slice(manifest);
    let mut wasm = b"\0asm\x01\0\0\0".to_vec();
    wasm.push(0);
    leb(payload.len(), &mut wasm);
    wasm.extend_from_slice(&payload);
    wasm
}

fn ws_id(v: &Value) -> Result<Option<u64>> {
    parse(v, "ws id")
}

/// `calimero-server` `ws.rs`: a `Response { id, body }` written with
/// `serde_json::to_string`.
fn ws_message(id: Option<u64>, body: ws::ResponseBody) -> Result<String> {
    body_of_ws(&ws::Response { id, body })
}

fn body_of_ws(r: &ws::Response) -> Result<String> {
    serde_json::to_string(r).map_err(|e| e.to_string())
}

/// A `NodeEvent` from the sample, built with the node's own event types.
fn node_event(e: &Value) -> Result<NodeEvent> {
    let payload = match str_of(e, "type")? {
        "StateMutation" => {
            let mut events = Vec::new();
            for x in list(e, "events")? {
                events.push(ExecutionEvent {
                    kind: str_of(x, "kind")?.into(),
                    data: str_of(x, "payload")?.as_bytes().to_vec(),
                    handler: None,
                });
            }
            ContextEventPayload::StateMutation(StateMutationPayload::with_root_and_events(
                parse(&e["new_root"], "root hash")?,
                events,
            ))
        }
        "SyncStatus" => ContextEventPayload::SyncStatus(SyncStatusPayload {
            sync_state: parse(&e["sync_state"], "sync state")?,
            failure_count: parse(&e["failure_count"], "failure count")?,
            last_error: opt_string(e, "last_error"),
        }),
        "AppVersionChanged" => ContextEventPayload::AppVersionChanged(AppVersionChangedPayload {
            from_version: opt_string(e, "from_version"),
            to_version: opt_string(e, "to_version"),
        }),
        "XCall" => ContextEventPayload::XCall(XCallPayload {
            target_context_id: parse(&e["target_context_id"], "context id")?,
            function: str_of(e, "function")?.into(),
            outcome: parse::<XCallOutcome>(&e["outcome"], "xcall outcome")?,
        }),
        other => return Err(format!("no event `{other}`")),
    };
    Ok(NodeEvent::Context(ContextEvent {
        context_id: parse(&e["context_id"], "context id")?,
        payload,
    }))
}

/// The body the node sends for one sample; `root` is the calimcp checkout
/// (samples may name files in it).
/// The fields rc.4's and rc.25's group info share, from a sample.
struct GroupFields {
    group_id: String,
    app_key: String,
    target_application_id: calimero_primitives::application::ApplicationId,
    member_count: u64,
    context_count: u64,
    default_capabilities: u32,
    subgroup_visibility: String,
    group_state_hash: String,
}

fn group_fields(sample: &Value) -> Result<GroupFields> {
    Ok(GroupFields {
        group_id: str_of(sample, "group_id")?.into(),
        app_key: str_of(sample, "app_key")?.into(),
        target_application_id: parse(&sample["target_application_id"], "target_application_id")?,
        member_count: parse(&sample["member_count"], "member_count")?,
        context_count: parse(&sample["context_count"], "context_count")?,
        default_capabilities: parse(&sample["default_capabilities"], "default_capabilities")?,
        subgroup_visibility: str_of(sample, "subgroup_visibility")?.into(),
        group_state_hash: str_of(sample, "group_state_hash")?.into(),
    })
}

pub fn render(sample: &Value, root: &std::path::Path) -> Result<String> {
    let id = &sample["id"];
    match str_of(sample, "kind")? {
        "rpc_ok" => {
            // `execute_request`: the app's returned bytes parsed into a Value
            // (`None` for a method returning nothing).
            let output = match &sample["output"] {
                Value::Null => None,
                v => {
                    let bytes = serde_json::to_vec(v).map_err(|e| e.to_string())?;
                    Some(serde_json::from_slice(&bytes).map_err(|e| e.to_string())?)
                }
            };
            rpc(id, handler_ok(ExecutionResponse::new(output))?)
        }
        "rpc_error" => match str_of(sample, "source")? {
            "handler" => rpc(id, handler_err(execution_error(sample)?)?),
            "server" | "server-0.10" => {
                let e = match str_of(sample, "type")? {
                    "ParseError" => ServerResponseError::ParseError(str_of(sample, "data")?.into()),
                    "InternalError" => ServerResponseError::InternalError { err: None },
                    other => return Err(format!("the server has no `{other}` error")),
                };
                rpc(id, ResponseBody::Error(ResponseBodyError::ServerError(e)))
            }
            other => Err(format!("unknown error source `{other}`")),
        },
        "apps_list" => {
            let apps = list(sample, "apps")?.iter().map(application);
            body(&ListApplicationsResponse::new(apps.collect::<Result<_>>()?))
        }
        "apps_list_v010" => {
            let apps = list(sample, "apps")?.iter().map(application_0_10);
            body(&server_0_10::ListApplicationsResponse {
                data: server_0_10::ListApplicationResponseData {
                    apps: apps.collect::<Result<_>>()?,
                },
            })
        }
        "contexts_list" => {
            let contexts = list(sample, "contexts")?.iter().map(context);
            body(&GetContextsResponse::new(contexts.collect::<Result<_>>()?))
        }
        "contexts_list_v010" => {
            let contexts = list(sample, "contexts")?.iter().map(context_0_10);
            body(&server_0_10::GetContextsResponse {
                data: server_0_10::GetContextsResponseData {
                    contexts: contexts.collect::<Result<_>>()?,
                },
            })
        }
        "context_get" => {
            let c = list(sample, "contexts")?.first().ok_or("no context")?;
            body(&GetContextResponse {
                data: context(c)?.context,
            })
        }
        "context_get_v010" => {
            let c = list(sample, "contexts")?.first().ok_or("no context")?;
            body(&server_0_10::GetContextResponse {
                data: context_0_10(c)?,
            })
        }
        "aliases_list" => {
            let mut map = BTreeMap::new();
            for pair in list(sample, "aliases")? {
                let alias: calimero_primitives::alias::Alias<ContextId> = pair[0]
                    .as_str()
                    .ok_or("alias is not a string")?
                    .parse()
                    .map_err(|e| format!("alias: {e:?}"))?;
                map.insert(alias, parse::<ContextId>(&pair[1], "context id")?);
            }
            body(&ListAliasesResponse::new(map))
        }
        "app_versions" => {
            let entries = list(sample, "versions")?
                .iter()
                .map(|v| {
                    Ok(ApplicationVersionEntry {
                        version: str_of(v, "version")?.into(),
                        blob_id: str_of(v, "blob_id")?.into(),
                        size: v["size"].as_u64().ok_or("size is not a u64")?,
                        package: str_of(v, "package")?.into(),
                    })
                })
                .collect::<Result<Vec<_>>>()?;
            body(&ListApplicationVersionsResponse { data: entries })
        }
        "identities_owned" => {
            let ids = list(sample, "identities")?
                .iter()
                .map(|v| parse(v, "identity"));
            body(&GetContextIdentitiesResponse::new(
                ids.collect::<Result<Vec<PublicKey>>>()?,
            ))
        }
        "alias_hit" => body(&LookupAliasResponse {
            data: LookupAliasResponseData::new(Some(parse::<ContextId>(
                &sample["value"],
                "context id",
            )?)),
        }),
        "alias_miss" => body(&LookupAliasResponse {
            data: LookupAliasResponseData::<ContextId>::new(None),
        }),
        "login_ok" | "refresh_ok" => {
            body(&mero_auth::success_response(mero_auth::TokenResponse::new(
                str_of(sample, "access_token")?.into(),
                str_of(sample, "refresh_token")?.into(),
            )))
        }
        "login_failed" | "auth_error" => {
            body(&mero_auth::error_response(str_of(sample, "message")?))
        }
        // mero-auth's guard (`auth/middleware.rs`) answers `Err((status,
        // headers))`: no body at all.
        "guard_denied" | "empty" => Ok(String::new()),
        "alias_invalid" => Ok(server::LOOKUP_ALIAS_INVALID.to_owned()),
        // `admin/handlers/blob.rs`: upload, list, delete.
        "blob_uploaded" => body(&server::BlobUploadResponse {
            data: blob_info(sample)?,
        }),
        "blob_list" => body(&server::BlobListResponse {
            data: server::BlobListResponseData {
                blobs: list(sample, "blobs")?
                    .iter()
                    .map(blob_info)
                    .collect::<Result<_>>()?,
            },
        }),
        "blob_deleted" => body(&server::BlobDeleteResponse {
            blob_id: parse(&sample["blob_id"], "blob id")?,
            deleted: true,
        }),
        "admin_error" => Ok(server::api_error(str_of(sample, "message")?)),
        // `get_application_abi.rs`: the blob's section through
        // `read_embedded_state_schema_versioned`, then `to_value(&manifest)`.
        "abi_ok" => {
            use calimero_wasm_abi::embed::{read_embedded_state_schema_versioned, EmbeddedSchema};
            let path = root.join(str_of(sample, "manifest_file")?);
            let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            match read_embedded_state_schema_versioned(&module_with_abi(&bytes)) {
                EmbeddedSchema::Supported(manifest) => {
                    let data = serde_json::to_value(&manifest).map_err(|e| e.to_string())?;
                    body(&server::GetApplicationAbiResponse { data })
                }
                other => Err(format!(
                    "the node does not serve {}: {other:?}",
                    path.display()
                )),
            }
        }
        // `context/get_context_group.rs`: the group's id in hex, or null.
        "context_group" => body(&GetContextGroupApiResponse {
            data: opt_string(sample, "group_id"),
        }),
        // `groups/get_group_info.rs`, rc.25 and rc.4 (rc.5's type: with
        // `upgradePolicy`).
        "group_info" => {
            let g = group_fields(sample)?;
            body(&server::GroupInfoApiResponse {
                data: server::GroupInfoApiResponseData {
                    group_id: g.group_id,
                    app_key: g.app_key,
                    target_application_id: g.target_application_id,
                    member_count: g.member_count,
                    context_count: g.context_count,
                    active_upgrade: None,
                    default_capabilities: g.default_capabilities,
                    subgroup_visibility: g.subgroup_visibility,
                    metadata: None,
                    group_state_hash: g.group_state_hash,
                },
            })
        }
        "group_info_rc4" => {
            let g = group_fields(sample)?;
            body(&GroupInfoApiResponse {
                data: GroupInfoApiResponseData {
                    group_id: g.group_id,
                    app_key: g.app_key,
                    target_application_id: g.target_application_id,
                    upgrade_policy: parse(&sample["upgrade_policy"], "upgrade_policy")?,
                    member_count: g.member_count,
                    context_count: g.context_count,
                    active_upgrade: None,
                    default_capabilities: g.default_capabilities,
                    subgroup_visibility: g.subgroup_visibility,
                    metadata: None,
                    group_state_hash: g.group_state_hash,
                },
            })
        }
        // rc.4's `get_group_info.rs`: `bail!("group '{group_id:?}' not found")`,
        // echoed by its `parse_api_error` (rc.25 hides it: `group-not-found`).
        "group_not_found_rc4" => {
            let bytes: [u8; 32] = hex::decode(str_of(sample, "group_id")?)
                .map_err(|e| e.to_string())?
                .try_into()
                .map_err(|_| "group_id: not 32 bytes".to_owned())?;
            let id = calimero_context_config::types::ContextGroupId::from(bytes);
            Ok(server::api_error(&format!("group '{id:?}' not found")))
        }
        "rpc_unreadable" => Ok(server::json_rejection(str_of(sample, "detail")?)),
        // `ws.rs` `to_res_body` of `SubscribeResponse`/`UnsubscribeResponse`.
        "ws_subscribed" => {
            let ids = list(sample, "context_ids")?
                .iter()
                .map(|v| parse(v, "context id"));
            let ids: Vec<ContextId> = ids.collect::<Result<_>>()?;
            let v = if sample["method"] == "unsubscribe" {
                serde_json::to_value(ws::UnsubscribeResponse { context_ids: ids })
            } else {
                serde_json::to_value(ws::SubscribeResponse { context_ids: ids })
            }
            .map_err(|e| e.to_string())?;
            ws_message(ws_id(id)?, ws::ResponseBody::Result(v))
        }
        "ws_error" => {
            let e = match str_of(sample, "type")? {
                "ParseError" => ws::ServerResponseError::ParseError(str_of(sample, "data")?.into()),
                "InternalError" => ws::ServerResponseError::InternalError { err: None },
                other => return Err(format!("the socket has no `{other}` error")),
            };
            ws_message(
                ws_id(id)?,
                ws::ResponseBody::Error(ws::ResponseBodyError::ServerError(e)),
            )
        }
        // `ws.rs`: each subscribed event as `Response { id: None, body:
        // Result(to_value(event)) }`.
        "ws_event" => {
            let v =
                serde_json::to_value(node_event(&sample["event"])?).map_err(|e| e.to_string())?;
            ws_message(None, ws::ResponseBody::Result(v))
        }
        // `sse/events.rs`: each subscribed event as `data:` of
        // `Response { body: Result(to_value(event)) }` (no id).
        "sse_event" => {
            let v =
                serde_json::to_value(node_event(&sample["event"])?).map_err(|e| e.to_string())?;
            serde_json::to_string(&sse::Response {
                body: sse::ResponseBody::Result(v),
            })
            .map_err(|e| e.to_string())
        }
        "rpc_sync_status" => {
            let state: SyncState = parse(&sample["sync_state"], "sync state")?;
            let response = SyncStatusResponse::new(
                parse(&sample["context_id"], "context id")?,
                sample["is_initialized"].as_bool().ok_or("is_initialized")?,
                state,
                parse(&sample["failure_count"], "failure count")?,
                opt_string(sample, "last_error"),
            );
            rpc(id, handler_ok(response)?)
        }
        other => Err(format!("no rendering for kind `{other}`")),
    }
}
