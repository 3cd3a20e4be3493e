//! Tokens: which pair to send, and the on-disk cache.
//!
//! Refresh tokens are single-use and a replayed one gets the whole token family
//! revoked, so the cache is the source of truth once it holds a pair: the
//! environment's access token replaces it only when its JWT `iat` is strictly
//! newer (an unreadable `iat` keeps the cache). Cache files live in the state
//! directory, one per node URL and user, mode 0600, written by write-then-rename.
//! Each file names its node and user, so [`cached_logins`] lists who is logged
//! in where (`calimcp auth status`, reuse of a login without a username) and
//! [`forget`] removes them (`calimcp logout`). A cache file, or a state
//! directory, that another user may write or owns is never read
//! ([`store::read_trusted`]): the error `untrusted_path`. Processes sharing a
//! login refresh it one at a time, under the lock beside its file (see
//! `tokens`).

use std::path::{Path, PathBuf};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD_PAD_INDIFFERENT, URL_SAFE_PAD_INDIFFERENT};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::store;
use calimcp_core::error::Result;

/// The largest token cache file read: calimcp writes a pair of JWTs there,
/// so a larger file is not one of its own (and is taken as no login).
const MAX_FILE: u64 = 64 * 1024;

/// An access token and, when known, its refresh token.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Tokens {
    pub access: Option<String>,
    pub refresh: Option<String>,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("access", &self.access.as_ref().map(|_| "***"))
            .field("refresh", &self.refresh.as_ref().map(|_| "***"))
            .finish()
    }
}

impl Tokens {
    pub(crate) fn is_pair(&self) -> bool {
        self.access.is_some() && self.refresh.is_some()
    }
}

/// The cache file for a node URL and user.
pub fn cache_path(state_dir: &Path, url: &str, username: Option<&str>) -> PathBuf {
    let mut h = Sha256::new();
    h.update(url.as_bytes());
    h.update([0]);
    h.update(username.unwrap_or_default().as_bytes());
    let hex: String = h
        .finalize()
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    state_dir.join(format!("tokens-{hex}.json"))
}

/// Reads a cache file; a missing, invalid or oversized one is empty. One
/// in a place others may write is an error (`untrusted_path`).
pub(crate) fn read_cache(path: &Path) -> Result<Tokens> {
    Ok(read_value(path)?.map(|v| tokens_of(&v)).unwrap_or_default())
}

/// A cache file's JSON, `None` when there is none or it is not JSON.
fn read_value(path: &Path) -> Result<Option<Value>> {
    use std::io::ErrorKind as Io;
    match store::read_trusted(path, MAX_FILE) {
        Ok(Some(bytes)) => Ok(serde_json::from_slice(&bytes).ok()),
        Ok(None) => Ok(None),
        Err(e) if matches!(e.kind(), Io::InvalidData | Io::NotFound) => Ok(None),
        Err(e) => Err(store::error("the token cache", path, e, "")),
    }
}

fn tokens_of(v: &Value) -> Tokens {
    let get = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
    };
    Tokens {
        access: get("access_token"),
        refresh: get("refresh_token"),
    }
}

/// Writes the cache file (0600, write-then-rename); an empty pair removes it.
pub fn write_cache(
    path: &Path,
    url: &str,
    username: Option<&str>,
    t: &Tokens,
) -> std::io::Result<()> {
    if t.access.is_none() && t.refresh.is_none() {
        return match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    let v = json!({
        "node": url,
        "username": username,
        "access_token": t.access,
        "refresh_token": t.refresh,
    });
    store::write_private(path, v.to_string().as_bytes())
}

/// Marks the cached login of `username` at `url` dead: its file keeps the
/// node, the user and `why` but no token, so a later command that finds no
/// login says that the node ended this one (and how to log in again) rather
/// than that there is none. A new login writes over it; `logout` removes it.
pub(crate) fn write_dead(
    path: &Path,
    url: &str,
    username: Option<&str>,
    why: &str,
) -> std::io::Result<()> {
    let v = json!({"node": url, "username": username, "dead": why});
    store::write_private(path, v.to_string().as_bytes())
}

/// A cache file: the node URL (as messages show it) and user it is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedLogin {
    pub node: String,
    /// `None`: a pair given in the environment, without a username.
    pub username: Option<String>,
    pub path: PathBuf,
    pub tokens: Tokens,
    /// Why the node ended this login ([`write_dead`]); it has no tokens then.
    pub dead: Option<String>,
}

/// Every cache file in `state_dir` that holds a token, sorted by node and
/// user; an error when one is in a place others may write.
pub fn cached_logins(state_dir: &Path) -> Result<Vec<CachedLogin>> {
    Ok(cache_files(state_dir)?
        .into_iter()
        .filter(|l| l.tokens.access.is_some())
        .collect())
}

/// The logins of the node `shown` that the node ended ([`write_dead`]).
pub(crate) fn dead_logins(state_dir: &Path, shown: &str) -> Result<Vec<CachedLogin>> {
    Ok(cache_files(state_dir)?
        .into_iter()
        .filter(|l| l.node == shown && l.dead.is_some())
        .collect())
}

/// Every cache file in `state_dir` with a token or marked dead, sorted by
/// node and user.
fn cache_files(state_dir: &Path) -> Result<Vec<CachedLogin>> {
    let Ok(dir) = std::fs::read_dir(state_dir) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for e in dir.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with("tokens-") && name.ends_with(".json")) {
            continue;
        }
        let path = e.path();
        let Some(v) = read_value(&path)? else {
            continue;
        };
        let Some(node) = v.get("node").and_then(Value::as_str).map(str::to_string) else {
            continue;
        };
        let username = v
            .get("username")
            .and_then(Value::as_str)
            .map(str::to_string);
        // Only a file at the name its node and user give is theirs.
        if cache_path(state_dir, &node, username.as_deref()) != path {
            continue;
        }
        let tokens = tokens_of(&v);
        let dead = v.get("dead").and_then(Value::as_str).map(str::to_string);
        if tokens.access.is_some() || dead.is_some() {
            out.push(CachedLogin {
                node,
                username,
                path,
                tokens,
                dead,
            });
        }
    }
    out.sort_by(|a, b| (&a.node, &a.username).cmp(&(&b.node, &b.username)));
    Ok(out)
}

/// The users with a cached token for the node `shown` (a URL as
/// [`super::normalize_url`] shows it), sorted.
pub fn cached_users(state_dir: &Path, shown: &str) -> Result<Vec<String>> {
    Ok(cached_logins(state_dir)?
        .into_iter()
        .filter(|l| l.node == shown)
        .filter_map(|l| l.username)
        .collect())
}

/// Removes the cached tokens of the node `shown` (of `username` only, when
/// given; else of every user and of a pair without a user). Returns the
/// logins removed.
pub fn forget(state_dir: &Path, shown: &str, username: Option<&str>) -> Result<Vec<CachedLogin>> {
    let mut gone = Vec::new();
    for l in cache_files(state_dir)? {
        if l.node != shown || username.is_some_and(|u| l.username.as_deref() != Some(u)) {
            continue;
        }
        match std::fs::remove_file(&l.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(calimcp_core::error::Error::input(
                    calimcp_core::error::Code::State,
                    format!("cannot remove the cached login {}: {e}", l.path.display()),
                ));
            }
            _ => gone.push(l),
        }
    }
    Ok(gone)
}

/// What the node made of `calimcp logout` ending a login there
/// (`POST /auth/logout`, merod 0.11.0-rc.83 and later).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeLogout {
    /// The node retired the refresh token: the session is over there.
    Ended,
    /// The node has no `/auth/logout` (merod before 0.11.0-rc.83): the
    /// refresh token stays valid on the node until it expires.
    Unsupported,
    /// The node answered with a refusal (its words, or the status).
    Refused(String),
    /// The node could not be reached (why).
    Unreachable(String),
    /// The login held no refresh token (a token given in the environment):
    /// there is no session on the node to end.
    NoRefreshToken,
    /// `--offline`: the node was not asked.
    NotAsked,
}

/// Picks the tokens to start with, from the cache and the environment.
pub(crate) fn choose(cached: Tokens, env: Tokens) -> (Tokens, bool) {
    // Returns the tokens and whether the cache must be rewritten with them.
    if cached.is_pair() {
        let newer = match (
            env.access.as_deref().and_then(issued_at),
            cached.access.as_deref().and_then(issued_at),
        ) {
            (Some(e), Some(c)) => e > c,
            _ => false,
        };
        if newer {
            let adopt = env.refresh.is_some();
            return (env, adopt);
        }
        return (cached, false);
    }
    if env.access.is_some() {
        let store = env.is_pair();
        return (env, store);
    }
    (cached, false)
}

/// The `iat` claim of a JWT, if it has a readable one. A JWT's parts are
/// base64url without padding (RFC 7519); a padded part, or one in the
/// standard alphabet, is read too.
pub(crate) fn issued_at(jwt: &str) -> Option<u64> {
    let payload = jwt.split('.').nth(1)?;
    let bytes = URL_SAFE_PAD_INDIFFERENT
        .decode(payload)
        .or_else(|_| STANDARD_PAD_INDIFFERENT.decode(payload))
        .ok()?;
    let v: Value = serde_json::from_slice(&bytes).ok()?;
    v.get("iat")?.as_u64()
}

/// Whether `jwt` is a readable JWT whose claims have no `key_id`: merod
/// 0.11.0-rc.83 puts one in every token it issues and answers any token
/// without it with a bare 401 (no `X-Auth-Error`), so a token issued before
/// a node's upgrade is refused there. An unreadable token is not judged.
pub(crate) fn lacks_key_id(jwt: &str) -> bool {
    let Some(payload) = jwt.split('.').nth(1) else {
        return false;
    };
    let Ok(bytes) = URL_SAFE_PAD_INDIFFERENT
        .decode(payload)
        .or_else(|_| STANDARD_PAD_INDIFFERENT.decode(payload))
    else {
        return false;
    };
    serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| v.as_object().map(|o| !o.contains_key("key_id")))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jwt(iat: u64) -> String {
        let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        format!(
            "{}.{}.sig",
            b64(br#"{"alg":"HS256"}"#),
            b64(format!(r#"{{"iat":{iat}}}"#).as_bytes())
        )
    }

    fn pair(a: &str, r: &str) -> Tokens {
        Tokens {
            access: Some(a.into()),
            refresh: Some(r.into()),
        }
    }

    #[test]
    fn iat_is_read_from_the_payload() {
        assert_eq!(issued_at(&jwt(1_700_000_000)), Some(1_700_000_000));
        assert_eq!(issued_at("not-a-jwt"), None);
        assert_eq!(issued_at("a.!!!.c"), None);
        // Base64url as a node writes it (no padding), padded, and with the
        // standard alphabet's `+` and `/` where base64url has `-` and `_`.
        assert_eq!(issued_at("h.eyJpYXQiOjF9.s"), Some(1));
        assert_eq!(issued_at("h.eyJpYXQiOjN9IA.s"), Some(3));
        assert_eq!(issued_at("h.eyJpYXQiOjN9IA==.s"), Some(3));
        assert_eq!(issued_at("h.eyJpYXQiOjQsImsiOiJ-fiJ9.s"), Some(4));
        assert_eq!(issued_at("h.eyJpYXQiOjQsImsiOiJ+fiJ9.s"), Some(4));
        assert_eq!(issued_at("h.eyJpYXQiOjUsImsiOiI_PiJ9.s"), Some(5));
        assert_eq!(issued_at("h.eyJpYXQiOjUsImsiOiI/PiJ9.s"), Some(5));
    }

    #[test]
    fn a_token_without_key_id_is_told_apart() {
        let b64 = |bytes: &[u8]| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes);
        let with = format!("h.{}.s", b64(br#"{"iat":1,"key_id":"k"}"#));
        assert!(!lacks_key_id(&with));
        assert!(lacks_key_id(&jwt(1)));
        assert!(!lacks_key_id("opaque-token"));
    }

    #[test]
    fn the_cache_wins_unless_the_environment_is_newer() {
        let cached = pair(&jwt(100), "r-cached");
        let older = pair(&jwt(50), "r-env");
        assert_eq!(choose(cached.clone(), older), (cached.clone(), false));
        let newer = pair(&jwt(200), "r-env");
        assert_eq!(choose(cached.clone(), newer.clone()), (newer, true));
        let unreadable = pair("opaque", "r-env");
        assert_eq!(choose(cached.clone(), unreadable), (cached.clone(), false));
        // a newer access token without a refresh token is used but not stored
        let lone = Tokens {
            access: Some(jwt(300)),
            refresh: None,
        };
        assert_eq!(choose(cached, lone.clone()), (lone, false));
    }

    #[test]
    fn without_a_cached_pair_the_environment_is_used() {
        let env = pair("a", "r");
        assert_eq!(choose(Tokens::default(), env.clone()), (env, true));
        let lone = Tokens {
            access: Some("a".into()),
            refresh: None,
        };
        assert_eq!(choose(Tokens::default(), lone.clone()), (lone, false));
    }

    #[test]
    fn debug_never_shows_a_token() {
        let s = format!("{:?}", pair("secret-a", "secret-r"));
        assert!(!s.contains("secret"), "{s}");
    }

    #[cfg(unix)]
    #[test]
    fn cache_files_are_private_and_round_trip() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = cache_path(&dir.path().join("state"), "http://n", Some("u"));
        let t = pair("a", "r");
        write_cache(&path, "http://n", Some("u"), &t).unwrap();
        assert_eq!(read_cache(&path).unwrap(), t);
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        write_cache(&path, "http://n", Some("u"), &Tokens::default()).unwrap();
        assert!(!path.exists());
        assert_ne!(
            cache_path(dir.path(), "http://n", Some("u")),
            cache_path(dir.path(), "http://n", Some("v"))
        );
    }

    #[test]
    fn cached_logins_are_listed_per_node_and_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let state = dir.path();
        let t = pair("a", "r");
        for (node, user) in [
            ("http://n", Some("u")),
            ("http://n", Some("v")),
            ("http://n", None),
            ("http://m", Some("u")),
        ] {
            write_cache(&cache_path(state, node, user), node, user, &t).unwrap();
        }
        // A file whose content names another node than its name is not listed.
        std::fs::copy(
            cache_path(state, "http://m", Some("u")),
            state.join("tokens-0000000000000000.json"),
        )
        .unwrap();
        assert_eq!(cached_users(state, "http://n").unwrap(), vec!["u", "v"]);
        assert_eq!(cached_logins(state).unwrap().len(), 4);
        let gone = forget(state, "http://n", Some("u")).unwrap();
        assert_eq!(gone.len(), 1);
        assert_eq!(cached_users(state, "http://n").unwrap(), vec!["v"]);
        let gone = forget(state, "http://n", None).unwrap();
        assert_eq!(gone.len(), 2);
        assert_eq!(cached_users(state, "http://m").unwrap(), vec!["u"]);
        assert!(cached_users(state, "http://n").unwrap().is_empty());
    }
}
