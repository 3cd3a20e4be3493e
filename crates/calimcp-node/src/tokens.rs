//! Authenticated exchanges: which token to send, logging in, refreshing, and
//! what to do when the node says a token is dead.
//!
//! merod's embedded auth (mero-auth) serves `/auth/token` and `/auth/refresh`
//! at the root of the server even when the node runs under a path prefix
//! (`NODE_PATH_PREFIX`), while a proxy that strips a prefix serves them under
//! it: calimcp tries `{base}/auth/…` first and, when that answers 404 and the
//! base has a path, the origin's `/auth/…`, and remembers which answered.
//!
//! A 401 `token_expired` is refreshed once (single-flight); other 401s log in
//! again when credentials are known. A refresh answered 500 (0.11.0-rc.4 on a
//! replayed refresh token), 401 (`token_reuse` on rc.25) or 403, and a 403
//! `token_revoked` on any request, mean the pair is dead: it is dropped from
//! the cache, and calimcp logs in again when it has credentials, else fails
//! with exit 3 saying so.
//!
//! Several processes may share one cached login (`serve` and a command, or
//! commands in parallel), and a refresh token is single-use: a refresh, and
//! the dropping of a dead pair, happen under the lock beside the token
//! cache file, after reading the cache again — a pair another process got
//! meanwhile is used, not refreshed a second time (which would get the whole
//! token family revoked).
//!
//! `calimcp login` logs in at once ([`Client::log_in`]); `calimcp auth token`
//! proves the token with one cheap request, refreshing it on the way
//! ([`Client::checked_token`]). A 401 to a request sent without a token, when
//! the cache holds logins of several users for the node, says which (one of
//! them must be named).

use std::sync::atomic::Ordering;

use reqwest::Method;
use serde_json::{Value, json};

use super::auth::{self, Tokens};
use super::http::{Cap, Reply};
use super::{Client, data, decode, store, str_field};
use calimcp_core::error::{Code, Error, ErrorKind, Result};
use calimcp_core::text::sanitize_line;

/// Where `/auth` answered: not known yet, under the base, at the origin.
const AUTH_UNKNOWN: u8 = 0;
const AUTH_AT_BASE: u8 = 1;
const AUTH_AT_ORIGIN: u8 = 2;

const RELOGIN_HINT: &str = "log in again: `calimcp login` (the login stays for later calls), a new --token (or CALIMERO_AUTH_TOKEN), or CALIMERO_USERNAME and CALIMERO_PASSWORD so calimcp logs in itself";

impl Client {
    /// An authenticated exchange: logs in first when only credentials are
    /// known; on a 401 refreshes (token expired) or logs in again, on a 403
    /// `token_revoked` drops the pair; then retries once.
    pub(super) async fn request(
        &self,
        method: Method,
        url: &str,
        shown: &str,
        body: Option<&Value>,
    ) -> Result<Reply> {
        self.request_with(method, url, shown, body, self.response_cap())
            .await
    }

    /// [`Client::request`] of a bodyless request whose answer may be as large as `cap`.
    pub(super) async fn request_capped(
        &self,
        method: Method,
        url: &str,
        shown: &str,
        cap: Cap,
    ) -> Result<Reply> {
        self.request_with(method, url, shown, None, cap).await
    }

    /// [`Client::request`] with its own cap and bound.
    pub(super) async fn request_with(
        &self,
        method: Method,
        url: &str,
        shown: &str,
        body: Option<&Value>,
        cap: Cap,
    ) -> Result<Reply> {
        let token = self.current_token().await?;
        let mut reply = self
            .send_capped(method.clone(), url, shown, body, token.as_deref(), cap)
            .await?;
        reply.without_token = token.is_none();
        reply.key_id_missing = token.as_deref().is_some_and(auth::lacks_key_id);
        let renewed = self
            .renewed(reply.status, reply.auth_error.as_deref(), token.as_deref())
            .await?;
        match renewed {
            Some(t) => {
                self.send_capped(method, url, shown, body, Some(&t), cap)
                    .await
            }
            None if reply.status == 401 && token.is_none() => {
                match self.several_logins().or_else(|| self.dead_login()) {
                    Some(e) => Err(e),
                    None => Ok(reply),
                }
            }
            None => Ok(reply),
        }
    }

    /// `calimcp login`: logs in with the username and password now, even when
    /// a token is cached, and caches the new pair. Without credentials: an
    /// internal error (the caller always gives them).
    pub async fn log_in(&self) -> Result<()> {
        if self.credentials().is_none() {
            return Err(Error::internal("log_in without a username and password"));
        }
        let mut tokens = self.inner.tokens.lock().await;
        *tokens = self.login().await?;
        self.save_tokens(&tokens).map_err(|e| {
            Error::new(
                ErrorKind::Internal,
                Code::State,
                format!(
                    "logged in to {}, but the login cannot be kept: cannot write the token cache {}: {e}",
                    self.inner.shown,
                    self.inner.token_file.display()
                ),
            )
            .with_hint("make the state directory private to you (chmod 700) or set CALIMCP_STATE_DIR to a directory of your own, then `calimcp login` again")
        })
    }

    /// `calimcp auth token`: the access token, after one cheap authenticated
    /// request (`GET /admin-api/peers`) proved it — refreshed on the way when
    /// the node said it had expired. `None` when there is no token and no
    /// credentials to log in with.
    pub async fn checked_token(&self) -> Result<Option<String>> {
        if self.current_token().await?.is_none() {
            return Ok(None);
        }
        let (url, shown) = self.endpoint(&["admin-api", "peers"], None);
        let reply = self.request(Method::GET, &url, &shown, None).await?;
        if matches!(reply.status, 401 | 403) {
            return Err(self.scrub_err(self.status_error(&reply, &shown)));
        }
        Ok(self.inner.tokens.lock().await.access.clone())
    }

    /// A 401 to a request sent without a token: when calimcp has cached logins
    /// of several users for this node, the error that names them (or, when
    /// they are in a place others may write, that error).
    fn several_logins(&self) -> Option<Error> {
        // Cached logins in a place others may write are not read: say so.
        let users = match auth::cached_users(&self.inner.state_dir, &self.inner.shown) {
            Ok(users) => users,
            Err(e) => return Some(e),
        };
        if users.len() < 2 {
            return None;
        }
        let shown: Vec<String> = users.iter().map(|u| sanitize_line(u)).collect();
        Some(Error::new(
            ErrorKind::Auth,
            Code::NotLoggedIn,
            format!(
                "the node at {} needs a login, and calimcp has logins of several users for it: {}",
                self.inner.shown,
                shown.join(", ")
            ),
        )
        .with_hint(format!(
            "name the user: CALIMERO_USERNAME={} (or `calimcp logout --user NAME` the others)",
            shown[0]
        )))
    }

    /// Without a login to send: when the node ended a cached login of this
    /// node ([`auth::write_dead`]), the error that says so and how to log in
    /// again — rather than "not logged in".
    pub fn dead_login(&self) -> Option<Error> {
        let dead = auth::dead_logins(&self.inner.state_dir, &self.inner.shown).ok()?;
        let l = dead.first()?;
        let user = l.username.as_deref().map(sanitize_line);
        Some(
            Error::new(
                ErrorKind::Auth,
                Code::TokenRevoked,
                format!(
                    "the node at {} ended calimcp's login{}: {}",
                    self.inner.shown,
                    user.as_deref()
                        .map(|u| format!(" of {u}"))
                        .unwrap_or_default(),
                    l.dead.as_deref().unwrap_or_default()
                ),
            )
            .with_hint(match user {
                Some(u) => format!("log in again: calimcp login -u {u}"),
                None => "log in again: calimcp login".to_string(),
            }),
        )
    }

    /// Marks the login dead in the cache (see [`Client::dead_login`]).
    fn mark_dead(&self, why: &str) {
        if let Err(e) = auth::write_dead(
            &self.inner.token_file,
            &self.inner.shown,
            self.inner.username.as_deref(),
            why,
        ) {
            self.log(format_args!(
                "= cannot write the token cache {}: {e}",
                self.inner.token_file.display()
            ));
        }
    }

    /// After an answer `status` (with `X-Auth-Error: auth_error`) to a request
    /// sent with `token`: the token to repeat the request with, or `None` when
    /// repeating it is pointless.
    pub(super) async fn renewed(
        &self,
        status: u16,
        auth_error: Option<&str>,
        token: Option<&str>,
    ) -> Result<Option<String>> {
        match (status, auth_error) {
            (401, Some("token_expired")) => self.refresh(token).await,
            (401, Some("token_reuse")) | (403, Some("token_revoked")) if token.is_some() => {
                self.revoked(token).await
            }
            (401, _) => self.relogin(token).await,
            _ => Ok(None),
        }
    }

    fn credentials(&self) -> Option<(&str, &str)> {
        match (&self.inner.username, &self.inner.password) {
            (Some(u), Some(p)) => Some((u, p)),
            _ => None,
        }
    }

    /// The access token to send (logging in first when only credentials are known).
    pub(super) async fn current_token(&self) -> Result<Option<String>> {
        let mut tokens = self.inner.tokens.lock().await;
        if tokens.access.is_none() && self.credentials().is_some() {
            *tokens = self.login().await?;
            let _ = self.save_tokens(&tokens);
        }
        Ok(tokens.access.clone())
    }

    /// Keeps `t` in the token cache (an empty pair removes it); a failure
    /// is logged (`-v`) and returned.
    pub(super) fn save_tokens(&self, t: &Tokens) -> std::io::Result<()> {
        self.add_secret(t.access.as_deref());
        self.add_secret(t.refresh.as_deref());
        let url = &self.inner.shown;
        let written = auth::write_cache(
            &self.inner.token_file,
            url,
            self.inner.username.as_deref(),
            t,
        );
        if let Err(e) = &written {
            self.log(format_args!(
                "= cannot write the token cache {}: {e}",
                self.inner.token_file.display()
            ));
        }
        written
    }

    /// The lock beside the token cache file, taken before a refresh or the
    /// dropping of a dead pair, so processes sharing the login do it one at
    /// a time. `None` when the lock cannot be made (a state directory that
    /// is not private: there is no shared cache to guard); waiting longer
    /// than the request bound is an error.
    async fn lock_cache(&self) -> Result<Option<store::Lock>> {
        let path = self.inner.token_file.clone();
        let wait = self.inner.timeout;
        let taken = tokio::task::spawn_blocking(move || store::lock(&path, wait))
            .await
            .map_err(|e| Error::internal(format!("the token cache lock: {e}")))?;
        match taken {
            Ok(lock) => Ok(Some(lock)),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => Err(store::error(
                "the token cache",
                &self.inner.token_file,
                e,
                "",
            )),
            Err(e) => {
                self.log(format_args!("= cannot lock the token cache: {e}"));
                Ok(None)
            }
        }
    }

    /// Under the cache lock: the pair in the cache when another process
    /// replaced `tokens` there (refreshed, or logged in again) — then it is
    /// the pair to use, and `tokens` becomes it.
    fn adopt_cached(&self, tokens: &mut Tokens) -> Result<Option<String>> {
        let cached = auth::read_cache(&self.inner.token_file)?;
        if !cached.is_pair() || cached.access == tokens.access {
            return Ok(None);
        }
        self.add_secret(cached.access.as_deref());
        self.add_secret(cached.refresh.as_deref());
        self.log(format_args!(
            "= another calimcp process renewed the login; using its tokens"
        ));
        *tokens = cached;
        Ok(tokens.access.clone())
    }

    /// After a 401 without `token_expired`: logs in again when credentials are known.
    async fn relogin(&self, used: Option<&str>) -> Result<Option<String>> {
        if self.credentials().is_none() {
            return Ok(None);
        }
        let mut tokens = self.inner.tokens.lock().await;
        if tokens.access.as_deref() != used {
            return Ok(tokens.access.clone());
        }
        *tokens = self.login().await?;
        let _ = self.save_tokens(&tokens);
        Ok(tokens.access.clone())
    }

    /// After a 403 `token_revoked` (or a 401 `token_reuse`): the pair is dead.
    async fn revoked(&self, used: Option<&str>) -> Result<Option<String>> {
        let mut tokens = self.inner.tokens.lock().await;
        if tokens.access.as_deref() != used && tokens.access.is_some() {
            return Ok(tokens.access.clone());
        }
        let _lock = self.lock_cache().await?;
        if let Some(fresh) = self.adopt_cached(&mut tokens)? {
            return Ok(Some(fresh));
        }
        *tokens = Tokens::default();
        let _ = self.save_tokens(&tokens);
        if self.credentials().is_some() {
            *tokens = self.login().await?;
            let _ = self.save_tokens(&tokens);
            return Ok(tokens.access.clone());
        }
        self.mark_dead("it revoked the access token");
        Err(Error::new(
            ErrorKind::Auth,
            Code::TokenRevoked,
            format!(
                "the node at {} has revoked the access token: it is dead and was dropped from calimcp's cache",
                self.inner.shown
            ),
        )
        .with_hint(RELOGIN_HINT))
    }

    /// After a 401 `token_expired`: one refresh, single-flight.
    async fn refresh(&self, used: Option<&str>) -> Result<Option<String>> {
        let mut tokens = self.inner.tokens.lock().await;
        if tokens.access.as_deref() != used {
            // Another request refreshed while this one waited.
            return Ok(tokens.access.clone());
        }
        // Another process may have refreshed (or be refreshing) the same pair.
        let _lock = self.lock_cache().await?;
        if let Some(fresh) = self.adopt_cached(&mut tokens)? {
            return Ok(Some(fresh));
        }
        let (Some(access), Some(refresh)) = (tokens.access.clone(), tokens.refresh.clone()) else {
            if self.credentials().is_some() {
                *tokens = self.login().await?;
                let _ = self.save_tokens(&tokens);
                return Ok(tokens.access.clone());
            }
            return Err(Error::new(
                ErrorKind::Auth,
                Code::TokenExpired,
                format!("the access token for {} has expired and there is no refresh token", self.inner.shown),
            )
            .with_hint("pass a new --token (or CALIMERO_AUTH_TOKEN with CALIMERO_REFRESH_TOKEN), or set CALIMERO_USERNAME and CALIMERO_PASSWORD"));
        };
        let body = json!({"access_token": access, "refresh_token": refresh});
        let (reply, shown) = self.auth_post("refresh", &body).await?;
        if reply.ok() {
            let v = data(self.check(reply, &shown)?);
            let fresh = Tokens {
                access: str_field(&v, "access_token"),
                refresh: str_field(&v, "refresh_token"),
            };
            if fresh.access.is_none() {
                return Err(self.unexpected(&shown, "no access_token in the refresh response"));
            }
            *tokens = fresh;
            let _ = self.save_tokens(&tokens);
            return Ok(tokens.access.clone());
        }
        let why = match (reply.status, reply.auth_error.as_deref()) {
            (_, Some("token_reuse")) => Some(
                "its refresh token was already used (by another program sharing this login), so the node revoked the whole token family: every token of this login is dead"
                    .to_string(),
            ),
            (403, Some("token_revoked")) => Some("the node has revoked it".to_string()),
            // 0.11.0-rc.4 answers a replayed refresh token with a 500.
            (500, _) => Some(format!(
                "the node could not refresh it (HTTP 500{})",
                decode::node_message(&reply.body)
                    .or_else(|| {
                        let t = String::from_utf8_lossy(&reply.body).trim().to_string();
                        (!t.is_empty()).then(|| sanitize_line(&t))
                    })
                    .map(|m| format!(": {}", truncate(&self.scrub(&m), 200)))
                    .unwrap_or_default()
            )),
            (401 | 403, _) => Some("the node refused its refresh token".to_string()),
            _ => None,
        };
        let Some(why) = why else {
            // A transient failure keeps the tokens; the original 401 is reported.
            self.log(format_args!(
                "= refresh failed with HTTP {}; keeping the tokens",
                reply.status
            ));
            return Ok(None);
        };
        // The pair is dead: never send it again.
        *tokens = Tokens::default();
        let _ = self.save_tokens(&tokens);
        if self.credentials().is_some() {
            *tokens = self.login().await?;
            let _ = self.save_tokens(&tokens);
            return Ok(tokens.access.clone());
        }
        self.mark_dead(&why);
        Err(Error::new(
            ErrorKind::Auth,
            Code::TokenDead,
            format!(
                "the access token for {} has expired and cannot be refreshed: {why}. The token pair is dead and was dropped from calimcp's cache",
                self.inner.shown
            ),
        )
        .with_hint(RELOGIN_HINT))
    }

    /// POSTs to `/auth/NAME` under the base, or at the origin when the base
    /// has a path and answers 404 there (remembered for the process).
    async fn auth_post(&self, name: &str, body: &Value) -> Result<(Reply, String)> {
        let at = self.inner.auth_at.load(Ordering::Relaxed);
        let origin = {
            let mut o = self.inner.base.clone();
            o.set_path("");
            o
        };
        let has_path = !self.inner.base.path().trim_matches('/').is_empty();
        if at == AUTH_AT_ORIGIN {
            let (url, shown) = self.endpoint_at(&origin, &["auth", name], None);
            let reply = self
                .send_once(Method::POST, &url, &shown, Some(body), None)
                .await?;
            return Ok((reply, shown));
        }
        let (url, shown) = self.endpoint(&["auth", name], None);
        let reply = self
            .send_once(Method::POST, &url, &shown, Some(body), None)
            .await?;
        if reply.status == 404 && has_path && at == AUTH_UNKNOWN {
            let (url, shown) = self.endpoint_at(&origin, &["auth", name], None);
            self.log(format_args!(
                "= no /auth under the base path; trying the origin's {shown}"
            ));
            let reply = self
                .send_once(Method::POST, &url, &shown, Some(body), None)
                .await?;
            if reply.status != 404 {
                self.inner.auth_at.store(AUTH_AT_ORIGIN, Ordering::Relaxed);
            }
            return Ok((reply, shown));
        }
        if reply.status != 404 {
            self.inner.auth_at.store(AUTH_AT_BASE, Ordering::Relaxed);
        }
        Ok((reply, shown))
    }

    /// `calimcp logout`: ends the session of `refresh` on the node
    /// (`POST /auth/logout {"refresh_token"}`, merod 0.11.0-rc.83: the node
    /// retires the refresh token; the access token, a stateless JWT, lives
    /// until it expires). A node without the route (404 or 405: every node
    /// before rc.83) cannot end it. Never fails: what happened is the answer.
    pub async fn end_session(&self, refresh: &str) -> auth::NodeLogout {
        use auth::NodeLogout;
        self.add_secret(Some(refresh));
        let body = json!({"refresh_token": refresh});
        let (reply, _shown) = match self.auth_post("logout", &body).await {
            Ok(r) => r,
            Err(e) if e.kind == ErrorKind::Unreachable => {
                return NodeLogout::Unreachable(self.scrub_err(e).message);
            }
            Err(e) => return NodeLogout::Refused(self.scrub_err(e).message),
        };
        match reply.status {
            200..=299 => NodeLogout::Ended,
            404 | 405 => NodeLogout::Unsupported,
            status => {
                let said = decode::node_message(&reply.body)
                    .map(|m| format!(": {}", truncate(&self.scrub(&m), 200)))
                    .unwrap_or_default();
                NodeLogout::Refused(format!("HTTP {status} {}{said}", reply.reason))
            }
        }
    }

    /// `POST /auth/token` with the username and password.
    async fn login(&self) -> Result<Tokens> {
        let Some((user, password)) = self.credentials() else {
            return Ok(Tokens::default());
        };
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or_default();
        let body = json!({
            "auth_method": "user_password",
            "public_key": user,
            "client_name": "calimcp",
            "timestamp": now,
            "permissions": ["admin"],
            "provider_data": {"username": user, "password": password},
        });
        let (reply, shown) = self.auth_post("token", &body).await?;
        if !reply.ok() {
            let said = decode::node_message(&reply.body)
                .map(|m| format!(": {m}"))
                .unwrap_or_else(|| format!(" (HTTP {})", reply.status));
            let mut err = Error::new(
                ErrorKind::Auth,
                Code::LoginFailed,
                format!(
                    "logging in to {} as {} failed{said}",
                    self.inner.shown,
                    sanitize_line(user)
                ),
            );
            err = match (reply.status, reply.retry_after) {
                (429, Some(s)) => err.with_hint(format!(
                    "too many failed logins; retry after {} s",
                    sanitize_line(&s)
                )),
                (404, _) => err.with_hint("neither the base URL nor its origin has /auth/token: the node runs without embedded auth (behind a proxy that authenticates), so unset CALIMERO_USERNAME and pass the proxy's --token"),
                _ => err.with_hint("check CALIMERO_USERNAME and CALIMERO_PASSWORD (or CALIMERO_PASSWORD_FILE)"),
            };
            return Err(self.scrub_err(err));
        }
        let v = data(self.check(reply, &shown)?);
        let t = Tokens {
            access: str_field(&v, "access_token"),
            refresh: str_field(&v, "refresh_token"),
        };
        if t.access.is_none() {
            return Err(self.unexpected(&shown, "no access_token in the login response"));
        }
        Ok(t)
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() > n {
        format!("{}…", s.chars().take(n).collect::<String>())
    } else {
        s.to_string()
    }
}
