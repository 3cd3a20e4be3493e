//! The app lifecycle's request bodies (issue 43: `app install|uninstall`,
//! `context create|invite|join|delete`, `context alias add|remove`), parsed
//! with calimero-server-primitives 0.11.0-rc.5's admin request types as the
//! node's handlers take them (`Json<T>` bodies, `Path<…>` ids). The routes
//! and the handlers' extractors are merod 0.11.0-rc.4's and rc.25's
//! (crates/calimcp-node/src/lifecycle.rs names them); the context join reads
//! its id from the path and no body.

use calimero_primitives::alias::Alias;
use calimero_primitives::application::ApplicationId;
use calimero_primitives::context::ContextId;
use calimero_server_primitives::admin::{
    CreateAliasRequest, CreateContextRequest, CreateGroupInvitationApiRequest,
    CreateNamespaceApiRequest, DeleteContextApiRequest, InstallDevApplicationRequest,
    JoinGroupApiRequest,
};
use calimero_server_primitives::validation::Validate;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The problems of a body the node reads as `T` (HTTP 422 when it does not parse).
fn json<T: DeserializeOwned>(name: &str, body: &Value) -> Vec<String> {
    match serde_json::from_value::<T>(body.clone()) {
        Ok(_) => vec![],
        Err(e) => vec![format!("{name}: body: {e} (HTTP 422)")],
    }
}

/// The same, then the request's own `validate` (HTTP 400 for each error).
fn validated<T: DeserializeOwned + Validate>(name: &str, body: &Value) -> Vec<String> {
    match serde_json::from_value::<T>(body.clone()) {
        Ok(r) => r
            .validate()
            .iter()
            .map(|e| format!("{name}: {e}"))
            .collect(),
        Err(e) => vec![format!("{name}: body: {e} (HTTP 422)")],
    }
}

/// A path segment the handler takes as `Path<T>` (HTTP 400 when it does not parse).
fn path<T: DeserializeOwned>(name: &str, what: &str, segment: &str) -> Vec<String> {
    match serde_json::from_value::<T>(Value::from(segment)) {
        Ok(_) => vec![],
        Err(e) => vec![format!("{name}: {what} {segment:?}: {e} (HTTP 400)")],
    }
}

/// A namespace (group) id in a path: 32 bytes in hex, as the handlers decode it.
fn namespace(name: &str, segment: &str) -> Vec<String> {
    match hex::decode(segment) {
        Ok(b) if b.len() == 32 => vec![],
        _ => vec![format!(
            "{name}: namespace {segment:?} is not 32 bytes of hex"
        )],
    }
}

/// The problems of one lifecycle request, or `None` for another route.
pub fn check(name: &str, method: &str, segments: &[&str], body: &Value) -> Option<Vec<String>> {
    Some(match (method, segments) {
        ("POST", ["admin-api", "install-dev-application"]) => {
            json::<InstallDevApplicationRequest>(name, body)
        }
        ("DELETE", ["admin-api", "applications", id]) => {
            path::<ApplicationId>(name, "application", id)
        }
        ("POST", ["admin-api", "namespaces"]) => validated::<CreateNamespaceApiRequest>(name, body),
        ("POST", ["admin-api", "namespaces", ns, "invite"]) => {
            let mut p = namespace(name, ns);
            p.extend(validated::<CreateGroupInvitationApiRequest>(name, body));
            p
        }
        ("POST", ["admin-api", "namespaces", ns, "join"]) => {
            let mut p = namespace(name, ns);
            p.extend(validated::<JoinGroupApiRequest>(name, body));
            p
        }
        ("POST", ["admin-api", "contexts"]) => {
            let mut p = json::<CreateContextRequest>(name, body);
            if let Some(g) = body["groupId"].as_str() {
                p.extend(namespace(name, g));
            }
            p
        }
        ("POST", ["admin-api", "contexts", ctx, "join"]) => path::<ContextId>(name, "context", ctx),
        ("DELETE", ["admin-api", "contexts", ctx]) => {
            let mut p = path::<ContextId>(name, "context", ctx);
            p.extend(json::<DeleteContextApiRequest>(name, body));
            p
        }
        ("POST", ["admin-api", "alias", "create", "context"]) => {
            json::<CreateAliasRequest<ContextId>>(name, body)
        }
        ("POST", ["admin-api", "alias", "delete", "context", alias]) => {
            path::<Alias<ContextId>>(name, "alias", alias)
        }
        _ => return None,
    })
}
