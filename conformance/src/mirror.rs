//! Types this project cannot take from a crate it builds, transcribed from
//! their source with the same serde attributes. Everything else comes from the
//! pinned node crates themselves.
//!
//! - `mero-auth` 0.11.0-rc.4 (the newest published) does not build here within
//!   CI's budget: it compiles RocksDB (C++, `librocksdb-sys` with bindgen) and
//!   the NEAR, Starknet and ICP client stacks, and its build script downloads
//!   the auth web UI from GitHub (CI has no network but the registries). Its
//!   request and response types are small and transcribed below from
//!   `src/api/handlers/auth.rs` (`BaseTokenRequest`, `RefreshTokenRequest`,
//!   `TokenResponse`, `success_response`, `error_response`). The bodies they
//!   produce were checked against the rc.4 node binary (../shared/realnode).
//! - `calimero-server-primitives` 0.10.0 pulls a second NEAR/Starknet client
//!   stack (~115 more crates through `calimero-context-config` 0.10.0); only
//!   its envelopes and the 0.10.0 `ExecutionRequest` (whose
//!   `executorPublicKey` is required) are transcribed, over the real
//!   `calimero-primitives` 0.10.0 ids and `Application`/`Context` types.
//! - `calimero-server` (crates.io stops at 0.11.0-rc.4) and its primitives
//!   after rc.5 are not published: the ABI route's envelope (rc.19+), the
//!   admin `ApiError` body, the alias lookup's 400 text, axum's 422
//!   rejection text and rc.25's group info (its `upgradePolicy` dropped) are
//!   transcribed from the core repository's tags.

// Fields the node parses but this project only needs to exist.
#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

pub mod mero_auth {
    use super::*;

    /// `BaseTokenRequest` (alias `TokenRequest`): the body of `POST /auth/token`.
    /// Validation (`validator` derive): `auth_method`, `public_key` and
    /// `client_name` must be non-empty.
    #[derive(Debug, Deserialize)]
    pub struct BaseTokenRequest {
        pub auth_method: String,
        pub public_key: String,
        pub client_name: String,
        pub permissions: Option<Vec<String>>,
        pub timestamp: u64,
        pub provider_data: Value,
    }

    impl BaseTokenRequest {
        pub fn validate(&self) -> Vec<&'static str> {
            let mut errors = Vec::new();
            if self.auth_method.is_empty() {
                errors.push("Authentication method is required");
            }
            if self.public_key.is_empty() {
                errors.push("Public key is required");
            }
            if self.client_name.is_empty() {
                errors.push("Client name is required");
            }
            errors
        }
    }

    /// `UserPasswordAuthData`: the `user_password` provider's `provider_data`
    /// (`providers/impls/user_password.rs`).
    #[derive(Debug, Deserialize)]
    pub struct UserPasswordAuthData {
        pub username: String,
        pub password: String,
    }

    /// `RefreshTokenRequest`: the body of `POST /auth/refresh`; both non-empty.
    #[derive(Debug, Deserialize)]
    pub struct RefreshTokenRequest {
        pub access_token: String,
        pub refresh_token: String,
    }

    impl RefreshTokenRequest {
        pub fn validate(&self) -> Vec<&'static str> {
            let mut errors = Vec::new();
            if self.access_token.is_empty() {
                errors.push("Access token is required");
            }
            if self.refresh_token.is_empty() {
                errors.push("Refresh token is required");
            }
            errors
        }
    }

    /// `TokenResponse`.
    #[derive(Debug, Serialize)]
    pub struct TokenResponse {
        access_token: String,
        refresh_token: String,
        error: Option<String>,
    }

    impl TokenResponse {
        pub fn new(access_token: String, refresh_token: String) -> Self {
            Self {
                access_token,
                refresh_token,
                error: None,
            }
        }
    }

    /// `success_response`'s body (served with axum's `Json`).
    pub fn success_response<T: Serialize>(data: T) -> Value {
        json!({ "data": data, "error": null })
    }

    /// `error_response`'s body.
    pub fn error_response(error: impl Into<String>) -> Value {
        json!({ "data": null, "error": error.into() })
    }
}

pub mod server_0_10 {
    use super::*;
    use calimero_primitives_0_10::alias::Alias;
    use calimero_primitives_0_10::application::Application;
    use calimero_primitives_0_10::context::{Context, ContextId};
    use calimero_primitives_0_10::identity::PublicKey;

    /// `jsonrpc::RequestPayload` of 0.10.0 (only `execute` existed).
    #[derive(Debug, Deserialize)]
    #[serde(tag = "method", content = "params", rename_all = "snake_case")]
    pub enum RequestPayload {
        Execute(ExecutionRequest),
    }

    /// `jsonrpc::ExecutionRequest` of 0.10.0: `executor_public_key` has no
    /// serde default, so a body without it does not parse.
    #[derive(Debug, Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ExecutionRequest {
        pub context_id: ContextId,
        pub method: String,
        pub args_json: Value,
        pub executor_public_key: PublicKey,
        #[serde(default)]
        pub substitute: Vec<Alias<PublicKey>>,
    }

    /// `admin::ListApplicationsResponse` of 0.10.0.
    #[derive(Debug, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ListApplicationsResponse {
        pub data: ListApplicationResponseData,
    }

    #[derive(Debug, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ListApplicationResponseData {
        pub apps: Vec<Application>,
    }

    /// `admin::GetContextsResponse` of 0.10.0 (plain `Context`s, no group).
    #[derive(Debug, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct GetContextsResponse {
        pub data: GetContextsResponseData,
    }

    #[derive(Debug, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct GetContextsResponseData {
        pub contexts: Vec<Context>,
    }

    /// `admin::GetContextResponse` of 0.10.0 (`GET /admin-api/contexts/:id`).
    #[derive(Debug, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct GetContextResponse {
        pub data: Context,
    }
}

pub mod server {
    use super::*;
    use calimero_primitives::application::ApplicationId;
    use calimero_primitives::metadata::MetadataRecord;

    /// `admin::GetApplicationAbiResponse` (server primitives, 0.11.0-rc.19+).
    #[derive(Debug, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct GetApplicationAbiResponse {
        pub data: Value,
    }

    /// `admin::GroupInfoApiResponse` of 0.11.0-rc.25 (`GET /admin-api/groups/:id`,
    /// `groups/get_group_info.rs`): rc.5's type without `upgrade_policy`.
    #[derive(Debug, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct GroupInfoApiResponse {
        pub data: GroupInfoApiResponseData,
    }

    #[derive(Debug, Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct GroupInfoApiResponseData {
        pub group_id: String,
        pub app_key: String,
        pub target_application_id: ApplicationId,
        pub member_count: u64,
        pub context_count: u64,
        /// rc.25's `GroupUpgradeStatusApiData` (`localContexts…` counts, not
        /// rc.5's); no sample has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub active_upgrade: Option<Value>,
        pub default_capabilities: u32,
        pub subgroup_visibility: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        pub metadata: Option<MetadataRecord>,
        #[serde(rename = "groupStateHash")]
        pub group_state_hash: String,
    }

    /// `admin/handlers/blob.rs` (calimero-server 0.11.0-rc.4, core rc.25):
    /// `BlobUploadResponse`, `BlobListResponse`, `BlobDeleteResponse` — the
    /// handler's own types, not in server primitives.
    #[derive(Debug, Serialize)]
    pub struct BlobUploadResponse {
        pub data: calimero_primitives::blobs::BlobInfo,
    }

    #[derive(Debug, Serialize)]
    pub struct BlobListResponse {
        pub data: BlobListResponseData,
    }

    #[derive(Debug, Serialize)]
    pub struct BlobListResponseData {
        pub blobs: Vec<calimero_primitives::blobs::BlobInfo>,
    }

    #[derive(Debug, Serialize)]
    pub struct BlobDeleteResponse {
        pub blob_id: calimero_primitives::blobs::BlobId,
        pub deleted: bool,
    }

    /// `admin::service::ApiError::into_response`'s body.
    pub fn api_error(message: &str) -> String {
        json!({ "error": message }).to_string()
    }

    /// `admin/handlers/alias/lookup_alias.rs`: path params that do not parse.
    pub const LOOKUP_ALIAS_INVALID: &str = "invalid path params";

    /// axum 0.7 `FailedToDeserializeJsonBody` (HTTP 422) for `Json<T>`.
    pub fn json_rejection(serde_message: &str) -> String {
        format!("Failed to deserialize the JSON body into the target type: {serde_message}")
    }
}
