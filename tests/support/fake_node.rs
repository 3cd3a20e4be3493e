//! A fake Calimero node: a real HTTP/1.1 server on 127.0.0.1 (port 0) that
//! speaks merod's wire format, for tests and benchmarks.
//!
//! It speaks as one merod version ([`Profile`], docs/reference/merod-versions.md,
//! "Supported merod versions"): `0.10` (executorPublicKey required, identity aliases, no ABI
//! route, the 0.10.0 apps and contexts shapes), `rc4` (no ABI route, refresh
//! replay → 500, revoked token → 401), `rc25` (ABI route, `token_reuse`, 403
//! `token_revoked`, no identity aliases) and `hex` (rc25 with 64-hex ids, as
//! newer cores are reported to write them). Every body is built by
//! [`super::wire`] (held to the node's own types by `tests/wire_goldens.rs`):
//! ids in the profile's form only, guard 401/403 with empty bodies, JSON-RPC
//! errors with HTTP 200, the ABI route's manifest in the node's own form
//! (no docs). The module served from `/admin-api/blobs` carries the app's ABI
//! file as is, as `cargo mero build` embeds it.
//!
//! Routes: `GET /admin-api/applications`, `GET …/applications/:id/abi
//! [?service_name=]` (rc25, hex), `GET /admin-api/blobs/:id` (the app's wasm
//! module, with its ABI in a `calimero_abi_v1` section),
//! `GET /admin-api/contexts/for-application/:id`,
//! `GET /admin-api/contexts/:id/identities-owned`, `GET /admin-api/contexts/:id/group`
//! and `GET /admin-api/groups/:id` (not on `0.10`; one group per app, which
//! targets that app until [`FakeNode::upgrade_group`]),
//! `POST /admin-api/alias/lookup/context/:name`,
//! `POST /admin-api/alias/lookup/identity/:context/:name` (0.10, rc4),
//! the blob store (`PUT /admin-api/blobs[?context_id=]`, `GET /admin-api/blobs`,
//! `HEAD`/`GET`/`DELETE /admin-api/blobs/:id`: rc.25 refuses an app's module
//! with 403, rc.4 deletes it; [`FakeNode::uploaded_blobs`]),
//! `POST /jsonrpc` (execute), and with auth `POST /auth/token`,
//! `POST /auth/refresh` — at the server root even under a base path, as merod
//! serves them. Every request is recorded; every response is written in one
//! `write` (no Nagle stalls).
//!
//! Apps (ids are 32 bytes from a seed, written in the profile's form):
//! - `com.calimero.kv-store` (kv semantics: set/get/remove/entries/len/clear), one context;
//! - `io.example.KV_Store`, published by two signers (its slug collides with
//!   kv-store's); the first has two contexts, one of them aliased `default`;
//! - `com.example.notebook`, two services (registry: one context; pages: two;
//!   absent on `0.10`, which has no services);
//! - `com.calimero.typed`: echoes its arguments;
//! - `com.calimero.ids`: `member(who)` takes a PublicKey (a base58 string
//!   only, like the SDK's), `digest(hash)` a `[u8; 32]` (an array only);
//! - `com.calimero.faults`: `boom` (FunctionCallError with a Debug byte list),
//!   `panic` (guest panic), `html` (500 with an HTML body), `slow` (answers
//!   after 3 s), `uninit` (Uninitialized);
//! - `com.old.legacy`: built with an old SDK, its module has no embedded ABI;
//! - `com.calimero.lonely`: no contexts;
//! - with [`Builder::shared_fixtures`], one app per `../shared/fixtures/abi` manifest.
//!
//! At run time, [`FakeNode::install`] adds an app (with one context), and
//! [`FakeNode::set_down`] makes the node drop every connection unanswered.
#![allow(dead_code)]

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use serde_json::{Value, json};

use super::wire;

/// How long `slow` takes to answer.
pub const SLOW: Duration = Duration::from_secs(3);

/// One request as the node saw it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// The path, percent-encoded as sent, without the query.
    pub path: String,
    pub query: String,
    /// Lowercased names.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// The merod version the fake speaks as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Profile {
    /// 0.10.0 … 0.10.1-rc.18.
    V010,
    /// 0.10.1-rc.19 … 0.11.0-rc.18 (the crates.io 0.11.0-rc.4).
    Rc4,
    /// 0.11.0-rc.19 … rc.25.
    Rc25,
    /// A newer core writing 64-hex ids (otherwise rc25).
    Hex,
    /// 0.11.0-rc.83, built from its recorded wire
    /// (../shared/reference/merod-rc83-wire.md; no rc.83 binary can be built
    /// here): hex ids, strict request bodies, `key_id` tokens,
    /// `POST /auth/logout`, typed refusals. Its parts are in the "rc.83"
    /// region at the end of this file.
    Rc83,
}

impl Profile {
    pub const ALL: [Profile; 5] = [
        Profile::V010,
        Profile::Rc4,
        Profile::Rc25,
        Profile::Hex,
        Profile::Rc83,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Profile::V010 => "0.10",
            Profile::Rc4 => "rc4",
            Profile::Rc25 => "rc25",
            Profile::Hex => "hex",
            Profile::Rc83 => "rc83",
        }
    }

    pub fn from_name(s: &str) -> Option<Profile> {
        Profile::ALL.into_iter().find(|p| p.name() == s)
    }

    pub fn abi_route(self) -> bool {
        matches!(self, Profile::Rc25 | Profile::Hex | Profile::Rc83)
    }

    /// `GET /admin-api/contexts/:id/group` and `GET /admin-api/groups/:id`:
    /// from 0.10.1-rc.7 (core tags), so not on 0.10.0; rc.4 names the
    /// group's `upgradePolicy`, rc.25 does not.
    pub fn groups(self) -> bool {
        self != Profile::V010
    }

    pub fn executor_required(self) -> bool {
        self == Profile::V010
    }

    pub fn identity_aliases(self) -> bool {
        matches!(self, Profile::V010 | Profile::Rc4)
    }

    pub fn hex_ids(self) -> bool {
        matches!(self, Profile::Hex | Profile::Rc83)
    }

    /// A replayed refresh token: 500 (up to rc.18) or 401 `token_reuse`.
    pub fn refresh_reuse_500(self) -> bool {
        matches!(self, Profile::V010 | Profile::Rc4)
    }

    /// A revoked token: 403 `token_revoked` (rc.19 on) or a plain 401.
    pub fn revoked_403(self) -> bool {
        matches!(self, Profile::Rc25 | Profile::Hex | Profile::Rc83)
    }

    /// The SSE subscription takes `groupIds` and answers with the contexts
    /// the caller may observe and the groups (0.11.0-rc.18 on).
    pub fn sse_groups(self) -> bool {
        matches!(self, Profile::Rc25 | Profile::Hex | Profile::Rc83)
    }

    /// 0.11.0-rc.83's wire: request bodies refuse unknown keys, tokens carry
    /// `key_id`, `POST /auth/logout`, a trailing slash is no route.
    pub fn rc83(self) -> bool {
        self == Profile::Rc83
    }

    /// 32 bytes from `seed`, written as this node writes ids.
    pub fn id(self, seed: u8) -> String {
        if self.hex_ids() {
            hex_id(seed)
        } else {
            id(seed)
        }
    }

    /// The id in the form this node does not use.
    pub fn other_id(self, seed: u8) -> String {
        if self.hex_ids() {
            id(seed)
        } else {
            hex_id(seed)
        }
    }
}

/// An id the way merod up to rc.25 writes it: base58 of 32 bytes.
pub fn id(seed: u8) -> String {
    bs58::encode([seed; 32]).into_string()
}

/// The same id in the 64-hex form.
pub fn hex_id(seed: u8) -> String {
    format!("{seed:02x}").repeat(32)
}

/// The identity a node owns in the context of `ctx_seed`.
pub fn owner_seed(ctx_seed: u8) -> u8 {
    ctx_seed.wrapping_add(150)
}

/// The kv test app's module (`testapps/kv/abi.json` embedded) with `edit`
/// applied to its ABI, written to `dir/name`: one build of an app, as the
/// upgrade tests compare them.
pub fn kv_build(dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> std::path::PathBuf {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("testapps/kv/abi.json"))
            .unwrap();
    let mut abi: Value = serde_json::from_str(&text).unwrap();
    edit(&mut abi);
    let path = dir.join(name);
    std::fs::write(&path, wasm_module(Some(&abi))).unwrap();
    path
}

/// A wasm module carrying `abi` in a `calimero_abi_v1` section (none: no section).
pub fn wasm_module(abi: Option<&Value>) -> Vec<u8> {
    fn leb(mut n: usize, out: &mut Vec<u8>) {
        loop {
            let b = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }
    fn custom(name: &str, payload: &[u8], out: &mut Vec<u8>) {
        let mut body = Vec::new();
        leb(name.len(), &mut body);
        body.extend_from_slice(name.as_bytes());
        body.extend_from_slice(payload);
        out.push(0);
        leb(body.len(), out);
        out.extend_from_slice(&body);
    }
    let mut m = b"\0asm\x01\0\0\0".to_vec();
    custom("producers", b"fake", &mut m);
    if let Some(abi) = abi {
        custom("calimero_abi_v1", abi.to_string().as_bytes(), &mut m);
    }
    m
}

fn decode_id(s: &str) -> Option<[u8; 32]> {
    if s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        let mut out = [0u8; 32];
        for i in 0..32 {
            out[i] = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
        }
        return Some(out);
    }
    bs58::decode(s).into_vec().ok()?.try_into().ok()
}

pub const KV: u8 = 1;
pub const KV2_A: u8 = 2;
pub const KV2_B: u8 = 3;
pub const NOTEBOOK: u8 = 4;
pub const TYPED: u8 = 5;
pub const FAULTS: u8 = 6;
pub const LEGACY: u8 = 7;
pub const LONELY: u8 = 8;
pub const IDS: u8 = 9;

/// Context seeds.
pub const CTX_KV: u8 = 11;
pub const CTX_KV2_1: u8 = 21;
pub const CTX_KV2_2: u8 = 22;
pub const CTX_REGISTRY: u8 = 41;
pub const CTX_PAGES_1: u8 = 42;
pub const CTX_PAGES_2: u8 = 43;
pub const CTX_TYPED: u8 = 51;
pub const CTX_FAULTS: u8 = 61;
pub const CTX_LEGACY: u8 = 71;
pub const CTX_IDS: u8 = 91;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Semantics {
    Kv,
    Echo,
    Faults,
    Ids,
}

struct AppDef {
    id: String,
    package: String,
    version: String,
    name: String,
    signer: String,
    blob: String,
    /// `(service, blob, abi)`; one unnamed entry for a single-service app.
    services: Vec<(Option<String>, String, Value)>,
    legacy: bool,
    semantics: Semantics,
    /// The listing's `source`.
    source: &'static str,
    /// The module served for `blob` (else one made from the ABI).
    module: Option<Vec<u8>>,
    /// The metadata bytes the app was installed with, listed back as they
    /// came (a real node stores them: calimero-server's
    /// `install-dev-application` keeps `metadata`); `None`: a made-up
    /// `{name, description, package}`.
    metadata: Option<Vec<u8>>,
}

struct CtxDef {
    id: String,
    /// Public keys the node owns in the context.
    owned: Vec<String>,
    app: String,
    service: Option<String>,
    name: Option<String>,
}

#[derive(Default)]
struct Tokens {
    /// access token → (family, expired)
    access: HashMap<String, (u64, bool)>,
    /// refresh token → (family, used)
    refresh: HashMap<String, (u64, bool)>,
    revoked: Vec<u64>,
    counter: u64,
    logins: usize,
    refreshes: usize,
    /// rc.83: tokens carry a `key_id` claim (see [`issue`]).
    key_id: bool,
    /// rc.83: refresh tokens retired by `POST /auth/logout`.
    logged_out: Vec<String>,
}

struct Auth {
    user: String,
    password: String,
    /// More users the node knows (a node where several users were created).
    others: Vec<(String, String)>,
    tokens: Mutex<Tokens>,
}

struct State {
    profile: Profile,
    base: String,
    /// `apps` and `contexts` are always locked in this order (apps first)
    /// by whoever holds both: std's RwLock makes a reader wait behind a
    /// waiting writer, so the other order deadlocks an install against a
    /// listing.
    apps: RwLock<Vec<AppDef>>,
    contexts: RwLock<Vec<CtxDef>>,
    aliases: Mutex<BTreeMap<String, String>>,
    kv: Mutex<HashMap<String, BTreeMap<String, String>>>,
    requests: Mutex<Vec<Recorded>>,
    /// Each request's arrival and answer, in the order they happened:
    /// (index in `requests`, answered).
    timeline: Mutex<Vec<(usize, bool)>>,
    auth: Option<Auth>,
    stop: AtomicBool,
    /// Drop connections without answering (a node that is down).
    down: AtomicBool,
    /// Open SSE streams (`GET /sse`).
    streams: Mutex<Vec<Stream>>,
    next_session: AtomicU64,
    /// JSON-RPC errors the next `execute` calls answer, in order.
    execute_errors: Mutex<std::collections::VecDeque<Value>>,
    /// HTTP statuses the next `execute` calls answer (no body), in order.
    execute_statuses: Mutex<std::collections::VecDeque<u16>>,
    /// How long `GET /admin-api/contexts/:id` takes to answer.
    context_delay: Mutex<Option<Duration>>,
    /// Hostile or unusual event-stream behaviour (see [`SseFaults`]).
    sse: Mutex<SseFaults>,
    /// A failed login's message quotes the username and password.
    echo_credentials: AtomicBool,
    /// Peers the node is connected to (`GET /admin-api/peers`).
    peers: AtomicU64,
    /// `sync_status` per context: initialized, state, failures, last error.
    sync: Mutex<HashMap<String, SyncSet>>,
    /// Context → how many more listings show it with the zero root hash
    /// (no state yet, as on a node that joined it and has not synced).
    uninit: Mutex<HashMap<String, u32>>,
    /// (context, executes left, key, value): a kv write that arrives (as by
    /// sync from a peer) just before that execute in the context runs.
    synced_writes: Mutex<Vec<(String, u32, String, String)>>,
    /// The application a group upgrade targets: the groups of the other
    /// versions of its package target it at `GET /admin-api/groups/:id`.
    group_target: Mutex<Option<String>>,
    /// Apps whose code has not arrived yet (a joined node fetching it from
    /// its peers): their ABI route answers 404 "Application bytecode not
    /// found" and their blob 404, until [`FakeNode::code_arrives`].
    code_pending: Mutex<HashSet<String>>,
    /// Lies and stalls of a hostile node ([`Hostile`]).
    hostile: Mutex<Hostile>,
    /// Namespaces, invitations and joins (the lifecycle routes).
    life: Mutex<Life>,
    /// rc.83: the next request to a path ending so answers this typed
    /// refusal ([`FakeNode::refuse_next_typed`]).
    typed_refusal: Mutex<Option<(String, u16, String)>>,
    /// Blobs uploaded (`PUT /admin-api/blobs`): id → bytes, in order.
    blobs: Mutex<Vec<(String, Vec<u8>)>>,
    /// `context_id` of each upload that named one.
    announced: Mutex<Vec<String>>,
}

/// What the lifecycle routes keep.
#[derive(Default)]
struct Life {
    /// Namespace (hex) → the application its contexts run.
    namespaces: HashMap<String, String>,
    /// Context → its namespace (created or joined here).
    ctx_group: HashMap<String, String>,
    /// Namespaces this node joined.
    joined: HashSet<String>,
    /// Context → (namespace, module, ABI): what joining it brings
    /// ([`FakeNode::offer`]).
    offers: HashMap<String, (String, Vec<u8>, Value)>,
    /// Install-by-path ids → the path and metadata they came from.
    counter: u64,
    /// `initializationParams` each created context got.
    init_params: HashMap<String, Vec<u8>>,
}

/// How a hostile node lies or stalls; all off by default.
#[derive(Default, Clone)]
pub struct Hostile {
    /// `GET /admin-api/contexts/ASKED` answers the row of the context this
    /// maps ASKED to (a node, or a proxy, mixing answers up).
    pub context_row_of: HashMap<String, String>,
    /// `GET /admin-api/applications` waits this long before answering (a
    /// slow re-read).
    pub apps_delay: Duration,
    /// `POST /jsonrpc` answers a 502 whose text quotes the request's bearer
    /// token after this many characters (a proxy echoing what it got).
    pub echo_token_at: Option<usize>,
    /// A blob's download and HEAD answer this ETag (a node whose bytes do
    /// not match what it says of them).
    pub blob_etag: Option<String>,
}

type SyncSet = (bool, Value, u32, Option<String>);

/// How the fake's event stream misbehaves; all off by default.
#[derive(Default, Clone)]
pub struct SseFaults {
    /// Contexts the caller may not observe: rc.18+ leave them out of the
    /// subscription's answer (and send none of their events).
    pub denied: Vec<String>,
    /// `GET /sse` answers 200 but sends neither the session header nor the
    /// `connect` message, ever.
    pub never_connect: bool,
    /// The next this many streams close right after their `connect` message.
    pub close_after_open: u32,
    /// After the next `execute`, every stream gets `{"type":"close"}` and ends.
    pub close_after_execute: bool,
    /// Event ids carry this text (e.g. a control character) after the number.
    pub id_suffix: String,
}

/// One open `GET /sse` stream: its session, the contexts it subscribed to,
/// and the frames to write.
struct Stream {
    session: u64,
    contexts: Vec<String>,
    /// Groups subscribed with `groupIds` (rc.18 on).
    groups: Vec<String>,
    frames: std::sync::mpsc::Sender<String>,
    sent: u64,
}

/// Options for a fake node.
#[derive(Default)]
pub struct Builder {
    profile: Option<Profile>,
    auth: Option<(String, String)>,
    other_users: Vec<(String, String)>,
    shared_fixtures: bool,
    base: String,
}

impl Builder {
    /// Speak as this merod version (default: rc25).
    pub fn profile(mut self, p: Profile) -> Self {
        self.profile = Some(p);
        self
    }

    /// Embedded auth: every route but `/auth/*` needs a Bearer token.
    pub fn auth(mut self, user: &str, password: &str) -> Self {
        self.auth = Some((user.into(), password.into()));
        self
    }

    /// With [`Builder::auth`]: one more user the node knows.
    pub fn user(mut self, user: &str, password: &str) -> Self {
        self.other_users.push((user.into(), password.into()));
        self
    }

    /// Also install one app per manifest of `../shared/fixtures/abi` (when it exists).
    pub fn shared_fixtures(mut self) -> Self {
        self.shared_fixtures = true;
        self
    }

    /// Serve under a path prefix (a node behind a reverse proxy), e.g. `/mero`.
    pub fn base_path(mut self, base: &str) -> Self {
        self.base = base.trim_end_matches('/').to_string();
        self
    }

    pub fn start(self) -> FakeNode {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let port = listener.local_addr().expect("local addr").port();
        let profile = self.profile.unwrap_or(Profile::Rc25);
        let (apps, contexts) = catalog(profile, self.shared_fixtures);
        let aliases = BTreeMap::from([
            ("default".to_string(), profile.id(CTX_KV2_2)),
            ("prod".to_string(), profile.id(CTX_KV)),
            ("pages-main".to_string(), profile.id(CTX_PAGES_1)),
        ]);
        let state = Arc::new(State {
            profile,
            base: self.base.clone(),
            apps: RwLock::new(apps),
            contexts: RwLock::new(contexts),
            aliases: Mutex::new(aliases),
            kv: Mutex::new(HashMap::new()),
            requests: Mutex::new(Vec::new()),
            timeline: Mutex::new(Vec::new()),
            auth: self.auth.map(|(user, password)| Auth {
                user,
                password,
                others: self.other_users,
                tokens: Mutex::new(Tokens {
                    key_id: profile.rc83(),
                    ..Tokens::default()
                }),
            }),
            stop: AtomicBool::new(false),
            down: AtomicBool::new(false),
            streams: Mutex::new(Vec::new()),
            next_session: AtomicU64::new(7_000),
            execute_errors: Mutex::new(Default::default()),
            execute_statuses: Mutex::new(Default::default()),
            context_delay: Mutex::new(None),
            sse: Mutex::new(SseFaults::default()),
            echo_credentials: AtomicBool::new(false),
            peers: AtomicU64::new(2),
            sync: Mutex::new(HashMap::new()),
            uninit: Mutex::new(HashMap::new()),
            synced_writes: Mutex::new(Vec::new()),
            group_target: Mutex::new(None),
            code_pending: Mutex::new(HashSet::new()),
            hostile: Mutex::new(Hostile::default()),
            life: Mutex::new(Life::default()),
            typed_refusal: Mutex::new(None),
            blobs: Mutex::new(Vec::new()),
            announced: Mutex::new(Vec::new()),
        });
        let s = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if s.stop.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let s = s.clone();
                std::thread::spawn(move || serve_connection(&s, stream));
            }
        });
        FakeNode {
            url: format!("http://127.0.0.1:{port}{}", self.base),
            port,
            state,
        }
    }
}

/// A running fake node; stops accepting when dropped.
pub struct FakeNode {
    pub url: String,
    port: u16,
    state: Arc<State>,
}

impl Drop for FakeNode {
    fn drop(&mut self) {
        self.state.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// A loopback URL where nothing listens.
pub fn closed_port_url() -> String {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = l.local_addr().expect("addr").port();
    drop(l);
    format!("http://127.0.0.1:{port}")
}

impl FakeNode {
    pub fn start() -> FakeNode {
        Builder::default().start()
    }

    pub fn builder() -> Builder {
        Builder::default()
    }

    /// A node speaking as `p`.
    pub fn with_profile(p: Profile) -> FakeNode {
        Builder::default().profile(p).start()
    }

    pub fn profile(&self) -> Profile {
        self.state.profile
    }

    /// The id of `seed` as this node writes it.
    pub fn id(&self, seed: u8) -> String {
        self.state.profile.id(seed)
    }

    /// The id of `seed` in the form this node does not use.
    pub fn other_id(&self, seed: u8) -> String {
        self.state.profile.other_id(seed)
    }

    /// Makes the node own no identity in a context.
    pub fn disown(&self, ctx_seed: u8) {
        let id = self.id(ctx_seed);
        for c in self.state.contexts.write().unwrap().iter_mut() {
            if c.id == id {
                c.owned.clear();
            }
        }
    }

    /// Revokes every token issued so far (as an admin revoking a client would).
    pub fn revoke_tokens(&self) {
        if let Some(a) = &self.state.auth {
            let mut t = a.tokens.lock().unwrap();
            let families: Vec<u64> = t.access.values().map(|v| v.0).collect();
            t.revoked.extend(families);
        }
    }

    /// Every request so far, in order.
    /// The blobs uploaded so far: (id as the node writes it, bytes).
    pub fn uploaded_blobs(&self) -> Vec<(String, Vec<u8>)> {
        self.state.blobs.lock().unwrap().clone()
    }

    /// The `context_id` of each upload that asked for an announcement.
    pub fn announced_to(&self) -> Vec<String> {
        self.state.announced.lock().unwrap().clone()
    }

    /// The id of an installed app's module blob (its `blob.bytecode`).
    pub fn app_blob(&self, package: &str) -> String {
        let apps = self.state.apps.read().unwrap();
        apps.iter()
            .find(|a| a.package == package)
            .map(|a| a.blob.clone())
            .unwrap()
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.requests.lock().unwrap().clone()
    }

    /// Each request's arrival (`false`) and answer (`true`), in the order
    /// they happened; a request is its index in [`FakeNode::requests`].
    pub fn timeline(&self) -> Vec<(usize, bool)> {
        self.state.timeline.lock().unwrap().clone()
    }

    /// The `POST /jsonrpc` requests so far.
    pub fn executes(&self) -> Vec<Recorded> {
        self.requests()
            .into_iter()
            .filter(|r| r.path.ends_with("/jsonrpc"))
            .collect()
    }

    pub fn clear_requests(&self) {
        self.state.requests.lock().unwrap().clear();
        self.state.timeline.lock().unwrap().clear();
    }

    /// The metadata the first install-by-path request carried, decoded (the
    /// node takes it as a JSON array of the metadata's bytes).
    pub fn installed_metadata(&self) -> serde_json::Value {
        let req = self
            .requests()
            .into_iter()
            .find(|r| r.path.ends_with("/admin-api/install-dev-application"))
            .expect("no install-dev-application request");
        let bytes: Vec<u8> = serde_json::from_value(req.json()["metadata"].clone()).unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    /// The kv-store contents of a context.
    pub fn kv(&self, context: &str) -> BTreeMap<String, String> {
        self.state
            .kv
            .lock()
            .unwrap()
            .get(context)
            .cloned()
            .unwrap_or_default()
    }

    /// Marks every access token issued so far as expired.
    pub fn expire_tokens(&self) {
        if let Some(a) = &self.state.auth {
            for v in a.tokens.lock().unwrap().access.values_mut() {
                v.1 = true;
            }
        }
    }

    /// Issues a valid pair with the given `iat` (as a login would).
    pub fn mint(&self, iat: u64) -> (String, String) {
        let a = self.state.auth.as_ref().expect("auth enabled");
        let mut t = a.tokens.lock().unwrap();
        t.counter += 1;
        let family = t.counter;
        issue(&mut t, family, iat, &a.user)
    }

    pub fn logins(&self) -> usize {
        self.state
            .auth
            .as_ref()
            .map_or(0, |a| a.tokens.lock().unwrap().logins)
    }

    /// Installs a single-service app that echoes its arguments, with one
    /// context; returns `(application id, context id)`.
    pub fn install(&self, package: &str, abi: Value) -> (String, String) {
        self.install_version(package, "1.2.0", abi)
    }

    /// [`FakeNode::install`] of one version of a package: as on rc.25, each
    /// installed version is an application of its own (its own id, blob and
    /// context), listed with its package and version.
    pub fn install_version(&self, package: &str, version: &str, abi: Value) -> (String, String) {
        let mut apps = self.state.apps.write().unwrap();
        let seed = 230 + u8::try_from(apps.len()).unwrap_or(0);
        // Like a real node, the bytecode blob id follows the content, so ABI
        // caches keyed by blob never mix two installs up.
        use sha2::Digest;
        let digest = sha2::Sha256::digest(format!("{package}\0{abi}").as_bytes());
        let blob = bs58::encode(digest).into_string();
        let mut app = single(seed, package, package, seed, abi, Semantics::Echo);
        app.version = version.to_string();
        // Another version of a package comes from the same publisher.
        if let Some(first) = apps.iter().find(|a| a.package == package) {
            app.signer = first.signer.clone();
        }
        app.blob = blob.clone();
        app.services[0].1 = blob;
        self.add_with_context(&mut apps, app, seed)
    }

    /// [`FakeNode::install`] of an app installed with `metadata` (a JSON
    /// object, sent as its UTF-8 bytes as `calimcp app install` and
    /// merod's `install-dev-application` take it), which the listing gives
    /// back byte for byte, as a node does.
    pub fn install_with_metadata(
        &self,
        package: &str,
        abi: Value,
        metadata: &Value,
    ) -> (String, String) {
        let (app, ctx) = self.install(package, abi);
        let mut apps = self.state.apps.write().unwrap();
        if let Some(a) = apps.iter_mut().find(|a| a.id == app) {
            a.metadata = Some(metadata.to_string().into_bytes());
        }
        (app, ctx)
    }

    /// Adds `app` with the id made from `seed` and one context (owned by
    /// the node); returns `(application id, context id)`.
    fn add_with_context(
        &self,
        apps: &mut Vec<AppDef>,
        mut app: AppDef,
        seed: u8,
    ) -> (String, String) {
        let p = self.state.profile;
        app.id = p.id(seed);
        let (app_id, ctx_id) = (app.id.clone(), p.id(seed));
        apps.push(app);
        self.state.contexts.write().unwrap().push(CtxDef {
            id: ctx_id.clone(),
            owned: vec![p.id(owner_seed(seed))],
            app: app_id.clone(),
            service: None,
            name: None,
        });
        (app_id, ctx_id)
    }

    /// Lists an app as a node that joined a context of it does (rc.4 and
    /// rc.25 `join_context` / `ContextRegistered`: source
    /// `calimero://pending-blob-share`, no package or version — rc.4 lists
    /// `unknown` and `0.0.0` — and empty metadata), with one context.
    /// `module` is its code, served at `/admin-api/blobs/:id` under the id a
    /// node gives those bytes (calimero-blobstore `put`: SHA-256 over the
    /// SHA-256 of each 1 MiB chunk); `abi` what the ABI route answers.
    /// Returns `(application id, context id)`.
    pub fn share(&self, module: Vec<u8>, abi: Value) -> (String, String) {
        self.install_module(None, module, abi)
    }

    /// [`FakeNode::share`], or with `listed` = `(package, version)` an app
    /// installed from its module (`POST /admin-api/install-dev-application`).
    pub fn install_module(
        &self,
        listed: Option<(&str, &str)>,
        module: Vec<u8>,
        abi: Value,
    ) -> (String, String) {
        use sha2::Digest;
        let mut outer = sha2::Sha256::new();
        for chunk in module.chunks(1 << 20) {
            outer.update(sha2::Sha256::digest(chunk));
        }
        let blob = bs58::encode(outer.finalize()).into_string();
        let p = self.state.profile;
        let (package, version, source) = match (listed, p) {
            (Some((package, version)), _) => (package, version, "file:///apps/app.wasm"),
            (None, Profile::Rc25 | Profile::Hex | Profile::Rc83) => {
                ("", "", "calimero://pending-blob-share")
            }
            (None, _) => ("unknown", "0.0.0", "calimero://pending-blob-share"),
        };
        let mut apps = self.state.apps.write().unwrap();
        let seed = 230 + u8::try_from(apps.len()).unwrap_or(0);
        let mut app = single(seed, package, "", seed, abi, Semantics::Echo);
        app.version = version.into();
        app.signer = String::new();
        app.blob = blob.clone();
        app.services[0].1 = blob;
        app.source = source;
        app.module = Some(module);
        self.add_with_context(&mut apps, app, seed)
    }

    /// [`FakeNode::share`] right after the join: the app is listed, but
    /// its code has not arrived yet ([`FakeNode::code_arrives`]).
    pub fn share_pending(&self, module: Vec<u8>, abi: Value) -> (String, String) {
        let (app, ctx) = self.share(module, abi);
        self.state.code_pending.lock().unwrap().insert(app.clone());
        (app, ctx)
    }

    /// The code of a shared app arrives from the node's peers.
    pub fn code_arrives(&self, app: &str) {
        self.state.code_pending.lock().unwrap().remove(app);
    }

    /// A group upgrade to `app` (`POST /admin-api/groups/:id/upgrade` under
    /// `LazyOnAccess`): the groups of its package's other versions now target
    /// it, and each of their contexts still runs its old application until
    /// its next use.
    pub fn upgrade_group(&self, app: &str) {
        *self.state.group_target.lock().unwrap() = Some(app.to_string());
    }

    /// The requests so far that change what the node runs: installs and
    /// group upgrades (their paths).
    pub fn installs_and_upgrades(&self) -> Vec<String> {
        self.requests()
            .into_iter()
            .filter(|r| {
                r.method == "POST" && (r.path.contains("install") || r.path.ends_with("/upgrade"))
            })
            .map(|r| r.path)
            .collect()
    }

    /// The application namespace `ns` targets (what `GET
    /// /admin-api/groups/:id` says of it), if the node has it.
    pub fn namespace_target(&self, ns: &str) -> Option<String> {
        self.state.life.lock().unwrap().namespaces.get(ns).cloned()
    }

    /// Removes an installed app and its contexts (what `DELETE
    /// /admin-api/applications/:id` does on a node).
    pub fn uninstall(&self, app_id: &str) {
        self.state.apps.write().unwrap().retain(|a| a.id != app_id);
        self.state
            .contexts
            .write()
            .unwrap()
            .retain(|c| c.app != app_id);
    }

    /// Pushes a `StateMutation` carrying `events` (name, payload bytes) to
    /// the streams subscribed to `context`, as a node does after a call.
    pub fn emit(&self, context: &str, events: &[(&str, &[u8])]) {
        push(
            &self.state,
            context,
            &wire::event_state_mutation(context, ROOT, events),
        );
    }

    /// Pushes any node event (`wire::event_*`) to the streams subscribed to its context.
    pub fn emit_node_event(&self, event: &Value) {
        let ctx = event["contextId"].as_str().unwrap_or_default().to_string();
        push(&self.state, &ctx, event);
    }

    /// Adds (or moves) a context alias.
    pub fn add_alias(&self, alias: &str, context: &str) {
        self.state
            .aliases
            .lock()
            .unwrap()
            .insert(alias.to_string(), context.to_string());
    }

    /// The context an alias names, or `value` itself.
    pub fn context_of(&self, value: &str) -> String {
        self.state
            .aliases
            .lock()
            .unwrap()
            .get(value)
            .cloned()
            .unwrap_or_else(|| value.to_string())
    }

    /// Ends every open event stream, as a node that restarts does.
    pub fn drop_event_streams(&self) {
        self.state.streams.lock().unwrap().clear();
    }

    /// How many event streams are open.
    pub fn event_streams(&self) -> usize {
        self.state.streams.lock().unwrap().len()
    }

    /// How many contexts the open streams subscribed to, in all.
    pub fn subscriptions(&self) -> usize {
        self.state
            .streams
            .lock()
            .unwrap()
            .iter()
            .map(|s| s.contexts.len())
            .sum()
    }

    /// The next `execute` answers HTTP `status` with an empty body, as a
    /// node (or the proxy in front of it) that is not ready answers 503.
    pub fn answer_next_execute(&self, status: u16) {
        self.state
            .execute_statuses
            .lock()
            .unwrap()
            .push_back(status);
    }

    /// `GET /admin-api/contexts/:id` answers after `delay` (a slow node).
    pub fn delay_context_lookups(&self, delay: Duration) {
        *self.state.context_delay.lock().unwrap() = Some(delay);
    }

    /// The next `execute` answers this JSON-RPC `error` (`{"type","data"}`,
    /// as rc.25's ExecuteError serializes) before running anything.
    pub fn fail_next_execute(&self, error: Value) {
        self.state.execute_errors.lock().unwrap().push_back(error);
    }

    /// A failed login's message quotes the credentials it was sent (Rust
    /// Debug quoting; JSON-escaped again on the wire).
    pub fn echo_credentials(&self) {
        self.state.echo_credentials.store(true, Ordering::SeqCst);
    }

    /// How many peers the node reports (2 by default).
    pub fn set_peers(&self, n: u64) {
        self.state.peers.store(n, Ordering::SeqCst);
    }

    /// What `sync_status` answers for a context (rc.4+): initialized, the
    /// `syncState`, failures and the last error.
    pub fn set_sync_status(
        &self,
        context: &str,
        initialized: bool,
        state: Value,
        failures: u32,
        last_error: Option<&str>,
    ) {
        self.state.sync.lock().unwrap().insert(
            context.to_string(),
            (initialized, state, failures, last_error.map(str::to_string)),
        );
    }

    /// The next `listings` listings of the context's application show it
    /// uninitialized (the zero root hash), then it has state.
    pub fn uninitialized_for(&self, context: &str, listings: u32) {
        self.state
            .uninit
            .lock()
            .unwrap()
            .insert(context.to_string(), listings);
    }

    /// A kv-store write of `key` = `value` arrives in `context` (as a
    /// peer's write does, by sync) just before the `nth` next execute there.
    pub fn write_at_execute(&self, context: &str, nth: u32, key: &str, value: &str) {
        self.state.synced_writes.lock().unwrap().push((
            context.to_string(),
            nth.max(1),
            key.to_string(),
            value.to_string(),
        ));
    }

    /// Sets how the event stream misbehaves.
    pub fn sse_faults(&self, f: impl FnOnce(&mut SseFaults)) {
        f(&mut self.state.sse.lock().unwrap());
    }

    /// How many times `GET /sse` was asked.
    pub fn stream_opens(&self) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.method == "GET" && r.path == "/sse")
            .count()
    }

    /// Pushes an event to every open stream, subscribed or not (a hostile
    /// node, or a proxy mixing streams up).
    pub fn emit_to_all(&self, event: &Value) {
        let data = wire::sse_event(event);
        for s in self.state.streams.lock().unwrap().iter_mut() {
            let frame = wire::sse_frame(&format!("{}-{}", s.session, s.sent), &data);
            s.sent += 1;
            let _ = s.frames.send(frame);
        }
    }

    /// While down, every connection is closed without an answer.
    pub fn set_down(&self, down: bool) {
        self.state.down.store(down, Ordering::SeqCst);
    }

    /// Sets how the node lies or stalls.
    pub fn hostile(&self, f: impl FnOnce(&mut Hostile)) {
        f(&mut self.state.hostile.lock().unwrap());
    }

    /// Adds `n` contexts to the app of seed `app` (ids from their number)
    /// and an alias `many-I` for each of the first `aliases` of them: a
    /// node with many contexts, for benchmarks (`benches/contexts.sh`).
    pub fn add_contexts(&self, app: u8, n: u32, aliases: u32) {
        let p = self.state.profile;
        let app_id = p.id(app);
        let mut contexts = self.state.contexts.write().unwrap();
        let mut names = self.state.aliases.lock().unwrap();
        for i in 0..n {
            let mut bytes = [0xC7u8; 32];
            bytes[..4].copy_from_slice(&i.to_be_bytes());
            let id = if p.hex_ids() {
                bytes.iter().map(|b| format!("{b:02x}")).collect()
            } else {
                bs58::encode(bytes).into_string()
            };
            if i < aliases {
                names.insert(format!("many-{i}"), id.clone());
            }
            contexts.push(CtxDef {
                id,
                owned: vec![p.id(owner_seed(app))],
                app: app_id.clone(),
                service: None,
                name: None,
            });
        }
    }

    /// How many times the applications were listed.
    pub fn app_listings(&self) -> usize {
        self.requests()
            .iter()
            .filter(|r| r.method == "GET" && r.path.ends_with("/admin-api/applications"))
            .count()
    }

    pub fn refreshes(&self) -> usize {
        self.state
            .auth
            .as_ref()
            .map_or(0, |a| a.tokens.lock().unwrap().refreshes)
    }
}

// ---- the app catalog ----

/// Reads the first of `candidates` (relative to the crate) that exists.
fn manifest(candidates: &[&str]) -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for c in candidates {
        if let Ok(bytes) = std::fs::read(root.join(c)) {
            return serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{c}: {e}"));
        }
    }
    panic!("none of {candidates:?} exists")
}

fn kv_abi() -> Value {
    manifest(&[
        "examples/kv-store/abi.json",
        "tests/support/abi/kv-store.json",
    ])
}

fn single(
    seed: u8,
    package: &str,
    name: &str,
    signer: u8,
    abi: Value,
    semantics: Semantics,
) -> AppDef {
    AppDef {
        id: id(seed),
        package: package.into(),
        version: "1.2.0".into(),
        name: name.into(),
        signer: id(signer),
        blob: id(seed.wrapping_add(100)),
        services: vec![(None, id(seed.wrapping_add(100)), abi)],
        legacy: false,
        semantics,
        source: "registry://fake",
        module: None,
        metadata: None,
    }
}

fn catalog(p: Profile, shared: bool) -> (Vec<AppDef>, Vec<CtxDef>) {
    let mut apps = vec![
        single(
            KV,
            "com.calimero.kv-store",
            "KV Store",
            200,
            kv_abi(),
            Semantics::Kv,
        ),
        single(
            KV2_A,
            "io.example.KV_Store",
            "Other KV",
            201,
            kv_abi(),
            Semantics::Kv,
        ),
        single(
            KV2_B,
            "io.example.KV_Store",
            "Other KV",
            202,
            kv_abi(),
            Semantics::Kv,
        ),
        AppDef {
            id: id(NOTEBOOK),
            package: "com.example.notebook".into(),
            version: "0.3.0".into(),
            name: "Notebook".into(),
            signer: id(203),
            blob: id(120),
            services: vec![
                (
                    Some("pages".into()),
                    id(121),
                    manifest(&[
                        "examples/multi-service/services/pages-abi.json",
                        "tests/support/abi/notebook-pages.json",
                    ]),
                ),
                (
                    Some("registry".into()),
                    id(122),
                    manifest(&[
                        "examples/multi-service/services/registry-abi.json",
                        "tests/support/abi/notebook-registry.json",
                    ]),
                ),
            ],
            legacy: false,
            semantics: Semantics::Echo,
            source: "registry://fake",
            module: None,
            metadata: None,
        },
        single(
            TYPED,
            "com.calimero.typed",
            "Typed",
            204,
            manifest(&["tests/support/abi/typed.json"]),
            Semantics::Echo,
        ),
        single(
            FAULTS,
            "com.calimero.faults",
            "Faults",
            205,
            manifest(&["tests/support/abi/faults.json"]),
            Semantics::Faults,
        ),
        AppDef {
            // an old SDK: no embedded ABI
            legacy: true,
            ..single(
                LEGACY,
                "com.old.legacy",
                "Legacy",
                206,
                kv_abi(),
                Semantics::Kv,
            )
        },
        single(
            LONELY,
            "com.calimero.lonely",
            "Lonely",
            207,
            kv_abi(),
            Semantics::Kv,
        ),
        single(
            IDS,
            "com.calimero.ids",
            "Ids",
            208,
            manifest(&["tests/support/abi/ids.json"]),
            Semantics::Ids,
        ),
    ];
    let ctx = |seed: u8, app: u8, service: Option<&str>, name: Option<&str>| CtxDef {
        id: p.id(seed),
        owned: vec![p.id(owner_seed(seed))],
        app: p.id(app),
        service: service.map(Into::into),
        name: name.map(Into::into),
    };
    let contexts = vec![
        ctx(CTX_KV, KV, None, Some("main")),
        ctx(CTX_KV2_1, KV2_A, None, None),
        ctx(CTX_KV2_2, KV2_A, None, Some("shared")),
        ctx(CTX_REGISTRY, NOTEBOOK, Some("registry"), None),
        ctx(CTX_PAGES_1, NOTEBOOK, Some("pages"), None),
        ctx(CTX_PAGES_2, NOTEBOOK, Some("pages"), None),
        ctx(CTX_TYPED, TYPED, None, None),
        ctx(CTX_FAULTS, FAULTS, None, None),
        ctx(CTX_LEGACY, LEGACY, None, None),
        ctx(CTX_IDS, IDS, None, None),
    ];
    if shared {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/fixtures/abi");
        if let Ok(entries) = std::fs::read_dir(&dir) {
            let mut files: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            files.sort();
            let mut seed = 150u8;
            for f in files {
                let stem = f.file_stem().unwrap().to_string_lossy().into_owned();
                if f.extension().is_none_or(|e| e != "json") || stem.starts_with("bundle-") {
                    continue;
                }
                let Ok(abi) = serde_json::from_slice::<Value>(&std::fs::read(&f).unwrap()) else {
                    continue;
                };
                apps.push(single(
                    seed,
                    &format!("org.fixtures.{stem}"),
                    &stem,
                    seed,
                    abi,
                    Semantics::Echo,
                ));
                seed += 1;
            }
        }
    }
    let re = |s: &str| p.id(decode_id(s).map_or(0, |b| b[0]));
    for a in &mut apps {
        a.id = re(&a.id);
        a.blob = re(&a.blob);
        for svc in &mut a.services {
            svc.1 = re(&svc.1);
        }
    }
    let (mut apps, mut contexts) = (apps, contexts);
    if p == Profile::V010 {
        // 0.10 has no multi-service apps.
        let nb = p.id(NOTEBOOK);
        apps.retain(|a| a.id != nb);
        contexts.retain(|c| c.app != nb);
    }
    (apps, contexts)
}

// ---- HTTP ----

struct Request {
    method: String,
    path: String,
    query: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

struct Response {
    status: u16,
    content_type: &'static str,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
    /// Sleep this long before answering.
    delay: Option<Duration>,
}

impl Response {
    fn json(status: u16, v: Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            headers: vec![],
            body: v.to_string().into_bytes(),
            delay: None,
        }
    }

    /// A body from [`wire`], as JSON.
    fn wire(status: u16, body: String) -> Response {
        Response {
            status,
            content_type: "application/json",
            headers: vec![],
            body: body.into_bytes(),
            delay: None,
        }
    }

    fn error(status: u16, message: &str) -> Response {
        Response::wire(status, wire::admin_error(message))
    }

    fn empty(status: u16) -> Response {
        Response {
            status,
            content_type: "text/plain",
            headers: vec![],
            body: vec![],
            delay: None,
        }
    }

    fn text(status: u16, content_type: &'static str, body: &str) -> Response {
        Response {
            status,
            content_type,
            headers: vec![],
            body: body.as_bytes().to_vec(),
            delay: None,
        }
    }

    fn with_header(mut self, name: &'static str, value: &str) -> Response {
        self.headers.push((name, value.into()));
        self
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        307 => "Temporary Redirect",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "Other",
    }
}

fn read_request(reader: &mut BufReader<TcpStream>) -> Option<Request> {
    let mut line = String::new();
    if reader.read_line(&mut line).ok()? == 0 {
        return None;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_string();
    let target = parts.next()?.to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).ok()? == 0 {
            return None;
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let len: usize = headers
        .iter()
        .find(|(k, _)| k == "content-length")
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(0);
    let mut body = vec![0; len];
    reader.read_exact(&mut body).ok()?;
    let (path, query) = match target.split_once('?') {
        Some((p, q)) => (p.to_string(), q.to_string()),
        None => (target, String::new()),
    };
    Some(Request {
        method,
        path,
        query,
        headers,
        body,
    })
}

fn serve_connection(state: &State, stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let Ok(write_half) = stream.try_clone() else {
        return;
    };
    let mut writer = write_half;
    let mut reader = BufReader::new(stream);
    while let Some(req) = read_request(&mut reader) {
        if state.down.load(Ordering::SeqCst) {
            return;
        }
        let index = {
            let mut requests = state.requests.lock().unwrap();
            requests.push(Recorded {
                method: req.method.clone(),
                path: req.path.clone(),
                query: req.query.clone(),
                headers: req.headers.clone(),
                body: String::from_utf8_lossy(&req.body).into_owned(),
            });
            let index = requests.len() - 1;
            state.timeline.lock().unwrap().push((index, false));
            index
        };
        if req.method == "GET" && req.path == "/sse" {
            event_stream(state, &req, &mut writer);
            return;
        }
        let resp = route(state, &req);
        if let Some(d) = resp.delay {
            std::thread::sleep(d);
        }
        let mut out = format!(
            "HTTP/1.1 {} {}\r\ncontent-type: {}\r\ncontent-length: {}\r\n",
            resp.status,
            reason(resp.status),
            resp.content_type,
            resp.body.len()
        );
        for (k, v) in &resp.headers {
            out.push_str(&format!("{k}: {v}\r\n"));
        }
        out.push_str("\r\n");
        let mut bytes = out.into_bytes();
        if req.method != "HEAD" {
            bytes.extend_from_slice(&resp.body);
        }
        // Marked before the write: the client cannot act on an answer
        // the timeline does not show yet.
        state.timeline.lock().unwrap().push((index, true));
        // One write per response.
        if writer.write_all(&bytes).is_err() {
            return;
        }
        let close = req
            .headers
            .iter()
            .any(|(k, v)| k == "connection" && v.eq_ignore_ascii_case("close"));
        if close {
            return;
        }
    }
}

/// The root hash the fake reports in every `StateMutation`.
const ROOT: &str = "4wBqpWwwbg8yRtpwSY8k9wKREjsmgu5xrbgHbGwmUPR";

/// `GET /sse`: a chunked `text/event-stream` answer that stays open; the
/// first frame names the session, later ones carry the events pushed to it.
fn event_stream(state: &State, req: &Request, writer: &mut TcpStream) {
    if let Some(auth) = &state.auth
        && check_token(state.profile, auth, req).is_some()
    {
        let _ = writer.write_all(b"HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n");
        return;
    }
    let faults = state.sse.lock().unwrap().clone();
    if faults.never_connect {
        let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\ntransfer-encoding: chunked\r\n\r\n";
        if writer.write_all(head.as_bytes()).is_ok() {
            // Holds the connection open without a word until the client leaves.
            let mut buf = [0u8; 64];
            let mut read = writer.try_clone().expect("clone");
            while !state.stop.load(Ordering::SeqCst) {
                match std::io::Read::read(&mut read, &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
        }
        return;
    }
    let session = state.next_session.fetch_add(1, Ordering::SeqCst);
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    state.streams.lock().unwrap().push(Stream {
        session,
        contexts: Vec::new(),
        groups: Vec::new(),
        frames: tx,
        sent: 1,
    });
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nx-sse-session-id: {session}\r\nx-sse-reconnect: false\r\ntransfer-encoding: chunked\r\n\r\n"
    );
    let chunk = |frame: &str| format!("{:x}\r\n{frame}\r\n", frame.len());
    let first = wire::sse_first_frame(&format!("{session}-0"), &wire::sse_connect(session, false));
    if writer
        .write_all((head + &chunk(&first)).as_bytes())
        .is_err()
    {
        return;
    }
    let close_now = {
        let mut f = state.sse.lock().unwrap();
        let close = f.close_after_open > 0;
        f.close_after_open = f.close_after_open.saturating_sub(1);
        close
    };
    if close_now {
        state
            .streams
            .lock()
            .unwrap()
            .retain(|s| s.session != session);
        let _ = writer.write_all(b"0\r\n\r\n");
        let _ = writer.shutdown(std::net::Shutdown::Both);
        return;
    }
    // Until the stream is dropped (its sender gone) or the client leaves.
    while let Ok(frame) = rx.recv() {
        if writer.write_all(chunk(&frame).as_bytes()).is_err() {
            break;
        }
    }
    state
        .streams
        .lock()
        .unwrap()
        .retain(|s| s.session != session);
    let _ = writer.shutdown(std::net::Shutdown::Both);
}

/// `POST /sse/subscription`: `{"id":"<session>","method":"subscribe","params":{"contextIds":[…]}}`.
fn sse_subscription(state: &State, req: &Request) -> Response {
    let body: Value = serde_json::from_slice(&req.body).unwrap_or_default();
    if let Some(refused) = rc83_subscription_refused(state.profile, &body) {
        return refused;
    }
    let groups = match subscription_groups(state.profile, &body) {
        Ok(g) => g,
        Err(refused) => return refused,
    };
    let session: Option<u64> = body["id"].as_str().and_then(|s| s.parse().ok());
    let contexts: Vec<String> = body["params"]["contextIds"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut streams = state.streams.lock().unwrap();
    let Some(stream) = streams.iter_mut().find(|s| Some(s.session) == session) else {
        return Response::wire(404, wire::sse_no_session());
    };
    // rc.18 and later subscribe only to what the caller may observe.
    let filters = state.profile.sse_groups();
    let denied = state.sse.lock().unwrap().denied.clone();
    let contexts: Vec<String> = contexts
        .into_iter()
        .filter(|c| !(filters && denied.contains(c)))
        .collect();
    match body["method"].as_str() {
        Some("subscribe") => {
            for c in &contexts {
                if !stream.contexts.contains(c) {
                    stream.contexts.push(c.clone());
                }
            }
            for g in &groups {
                if !stream.groups.contains(g) {
                    stream.groups.push(g.clone());
                }
            }
        }
        Some("unsubscribe") => {
            stream.contexts.retain(|c| !contexts.contains(c));
            stream.groups.retain(|g| !groups.contains(g));
        }
        _ => return Response::wire(400, wire::sse_no_session()),
    }
    let ids: Vec<&str> = contexts.iter().map(String::as_str).collect();
    let group_ids: Vec<&str> = groups.iter().map(String::as_str).collect();
    if filters {
        Response::wire(200, wire::sse_subscribed_groups(&ids, &group_ids))
    } else {
        Response::wire(200, wire::sse_subscribed(&ids))
    }
}

/// Sends `event` to every stream subscribed to `context`.
fn push(state: &State, context: &str, event: &Value) {
    let data = wire::sse_event(event);
    let mut streams = state.streams.lock().unwrap();
    let suffix = state.sse.lock().unwrap().id_suffix.clone();
    for s in streams
        .iter_mut()
        .filter(|s| s.contexts.iter().any(|c| c == context))
    {
        let frame = wire::sse_frame(&format!("{}-{}{suffix}", s.session, s.sent), &data);
        s.sent += 1;
        let _ = s.frames.send(frame);
    }
}

fn query_param<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v)
}

fn percent_decode(s: &str, plus_is_space: bool) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let Ok(b) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(if plus_is_space && bytes[i] == b'+' {
            b' '
        } else {
            bytes[i]
        });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn route(state: &State, req: &Request) -> Response {
    let p = state.profile;
    if p.rc83() && req.path.len() > 1 && req.path.ends_with('/') {
        return rc83_trailing_slash();
    }
    // mero-auth is merged at the server root, whatever the base path.
    if let Some(auth) = &state.auth
        && let Some(rest) = req.path.strip_prefix("/auth/")
    {
        return auth_route(state, auth, req, rest);
    }
    // Like /auth, merod mounts /sse at the server root whatever the prefix.
    if req.path == "/sse/subscription" && req.method == "POST" {
        if let Some(auth) = &state.auth
            && let Some(denied) = check_token(p, auth, req)
        {
            return denied;
        }
        return sse_subscription(state, req);
    }
    let Some(path) = req.path.strip_prefix(&state.base) else {
        return Response::empty(404);
    };
    let segs: Vec<String> = path
        .trim_start_matches('/')
        .split('/')
        .map(|seg| percent_decode(seg, false))
        .collect();
    let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
    // Under a base path /auth is no route at all (merod serves it at the root).
    if segs.first() == Some(&"auth") {
        return Response::empty(404);
    }
    if let Some(auth) = &state.auth
        && let Some(denied) = check_token(p, auth, req)
    {
        return denied;
    }
    let echo = state.hostile.lock().unwrap().echo_token_at;
    if let (Some(at), ["jsonrpc"]) = (echo, segs.as_slice()) {
        let token = req
            .headers
            .iter()
            .find(|(k, _)| k == "authorization")
            .map_or("", |(_, v)| v.trim_start_matches("Bearer "));
        let body = format!("{} {token} {}", "x".repeat(at), "y".repeat(5000));
        return Response::text(502, "text/plain", &body);
    }
    if p.rc83()
        && let Some(refused) = rc83_admin_refused(req, &segs).or_else(|| rc83_typed(state, req))
    {
        return refused;
    }
    if let Some(resp) = lifecycle_route(state, req, &segs).or_else(|| blob_store(state, req, &segs))
    {
        return resp;
    }
    match (req.method.as_str(), segs.as_slice()) {
        // calimero-server `admin/handlers/peers.rs`: `{"count":N}`, no `data`.
        ("GET", ["admin-api", "peers"]) => Response::wire(
            200,
            json!({"count": state.peers.load(Ordering::SeqCst)}).to_string(),
        ),
        ("GET", ["admin-api", "applications"]) => {
            let delay = state.hostile.lock().unwrap().apps_delay;
            std::thread::sleep(delay);
            apps_list(p, &state.apps.read().unwrap())
        }
        ("GET", ["admin-api", "applications", app, "abi"]) if p.abi_route() => {
            abi_route(state, app, &req.query)
        }
        ("GET", ["admin-api", "blobs", blob]) => blob_route(state, blob),
        ("GET", ["admin-api", "contexts", "for-application", app]) => {
            // Locks in the order every writer takes them (apps, then
            // contexts: `install_version`), or a listing and an install
            // running at once would wait on each other for ever.
            let apps = state.apps.read().unwrap();
            let contexts = state.contexts.read().unwrap();
            let mine: Vec<&CtxDef> = contexts.iter().filter(|c| c.app == *app).collect();
            let mut uninit = state.uninit.lock().unwrap();
            let empty: Vec<bool> = mine
                .iter()
                .map(|c| match uninit.get_mut(&c.id) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        true
                    }
                    _ => false,
                })
                .collect();
            let version = apps
                .iter()
                .find(|a| a.id == *app)
                .map(|a| a.version.as_str());
            contexts_list(p, &mine, &empty, version.unwrap_or("1.2.0"))
        }
        // `get_context_group.rs` and `get_group_info.rs` (0.10.1-rc.7 on):
        // the context's group, and the application it targets.
        ("GET", ["admin-api", "contexts", ctx, "group"]) if p.groups() => {
            let contexts = state.contexts.read().unwrap();
            let group = contexts.iter().find(|c| c.id == *ctx).map(|c| {
                state
                    .life
                    .lock()
                    .unwrap()
                    .ctx_group
                    .get(&c.id)
                    .cloned()
                    .unwrap_or_else(|| group_of(&c.app))
            });
            Response::wire(200, wire::context_group(group.as_deref()))
        }
        ("GET", ["admin-api", "groups", group]) if p.groups() => group_route(p, state, group),
        ("GET", ["admin-api", "contexts", ctx]) if *ctx != "for-application" => {
            let apps = state.apps.read().unwrap();
            let contexts = state.contexts.read().unwrap();
            let lie = state
                .hostile
                .lock()
                .unwrap()
                .context_row_of
                .get(*ctx)
                .cloned();
            let ctx = lie.as_deref().unwrap_or(ctx);
            let mut resp = match contexts.iter().find(|c| c.id == *ctx) {
                Some(c) => context_get(p, c, &apps),
                None => Response::error(404, "Context not found"),
            };
            resp.delay = *state.context_delay.lock().unwrap();
            resp
        }
        ("GET", ["admin-api", "alias", "list", "context"]) => {
            let aliases = state.aliases.lock().unwrap();
            let list: Vec<(&str, &str)> = aliases
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            Response::wire(200, wire::aliases_list(&list))
        }
        ("GET", ["admin-api", "contexts", ctx, "identities-owned"]) => {
            let contexts = state.contexts.read().unwrap();
            match contexts.iter().find(|c| c.id == *ctx) {
                Some(c) => {
                    let owned: Vec<&str> = c.owned.iter().map(String::as_str).collect();
                    if p.rc83() {
                        return Response::wire(200, wire::rc83_identities_owned(&owned));
                    }
                    Response::wire(200, wire::identities_owned(&owned))
                }
                None => Response::error(404, "Context not found"),
            }
        }
        ("POST", ["admin-api", "alias", "lookup", "context", name]) => {
            if !alias_ok(name) {
                return Response::text(400, "text/plain; charset=utf-8", &wire::alias_invalid());
            }
            alias(state.aliases.lock().unwrap().get(*name).map(String::as_str))
        }
        ("POST", ["admin-api", "alias", "lookup", "identity", ctx, name])
            if p.identity_aliases() =>
        {
            if !alias_ok(name) {
                return Response::text(400, "text/plain; charset=utf-8", &wire::alias_invalid());
            }
            let contexts = state.contexts.read().unwrap();
            // Every context's first owned identity is aliased `default` and `me`.
            let value = contexts
                .iter()
                .find(|c| c.id == *ctx)
                .filter(|_| matches!(*name, "default" | "me"))
                .and_then(|c| c.owned.first().cloned());
            alias(value.as_deref())
        }
        ("POST", ["jsonrpc"] | ["jsonrpc-moved"]) => jsonrpc(state, req),
        _ => Response::empty(404),
    }
}

fn alias_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 50
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
}

fn blob_route(state: &State, blob: &str) -> Response {
    if decode_id(blob).is_none() {
        return Response::error(400, "Invalid blob ID format");
    }
    let apps = state.apps.read().unwrap();
    let pending = state.code_pending.lock().unwrap();
    for a in apps.iter().filter(|a| !pending.contains(&a.id)) {
        let abi = if a.blob == blob {
            Some(&a.services[0].2)
        } else {
            a.services.iter().find(|s| s.1 == blob).map(|s| &s.2)
        };
        if let Some(abi) = abi {
            let module = match &a.module {
                Some(m) if a.blob == blob => m.clone(),
                _ => wasm_module((!a.legacy).then_some(abi)),
            };
            // `build_blob_response_headers`: the content's SHA-256 as the ETag.
            let hash = sha256_hex(&module);
            return Response {
                status: 200,
                content_type: "application/wasm",
                headers: vec![
                    ("etag", format!("\"{hash}\"")),
                    ("x-blob-id", blob.to_string()),
                    ("x-blob-hash", hash),
                    ("x-blob-mime-type", "application/wasm".into()),
                ],
                body: module,
                delay: None,
            };
        }
    }
    Response::error(404, "Blob not found locally or in network")
}

// ---- the blob store (calimero-server 0.11.0-rc.4 and core 0.11.0-rc.25,
// `admin/handlers/blob.rs`; bodies in `wire`) ----

/// The id a node gives `bytes` (calimero-blobstore `put`: SHA-256 over the
/// SHA-256 of each 1 MiB chunk), in the profile's form.
fn blob_id_of(p: Profile, bytes: &[u8]) -> String {
    use sha2::Digest;
    let mut outer = sha2::Sha256::new();
    for chunk in bytes.chunks(1 << 20) {
        outer.update(sha2::Sha256::digest(chunk));
    }
    let id: [u8; 32] = outer.finalize().into();
    if p.hex_ids() {
        id.iter().map(|b| format!("{b:02x}")).collect()
    } else {
        bs58::encode(id).into_string()
    }
}

/// The blob store's routes (an app's module: `blob_route`).
fn blob_store(state: &State, req: &Request, segs: &[&str]) -> Option<Response> {
    Some(match (req.method.as_str(), segs) {
        ("GET" | "HEAD", ["admin-api", "blobs", blob]) if uploaded(state, blob).is_some() => {
            blob_download(state, blob)
        }
        ("HEAD", ["admin-api", "blobs", blob]) => match blob_route(state, blob) {
            r if r.status == 200 => r,
            _ => Response::error(404, "Blob not found"),
        },
        ("PUT", ["admin-api", "blobs"]) => blob_upload(state, req),
        ("GET", ["admin-api", "blobs"]) => blob_list(state),
        ("DELETE", ["admin-api", "blobs", blob]) => blob_delete(state, blob),
        _ => return None,
    })
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn uploaded(state: &State, blob: &str) -> Option<Vec<u8>> {
    let want = decode_id(blob)?;
    let blobs = state.blobs.lock().unwrap();
    blobs
        .iter()
        .find(|(id, _)| decode_id(id) == Some(want))
        .map(|(_, b)| b.clone())
}

/// `upload_handler`: the body stored, announced when `context_id` is given
/// (a malformed one: 400 "The provided context_id is not a valid format").
fn blob_upload(state: &State, req: &Request) -> Response {
    let ctx = req
        .query
        .split('&')
        .find_map(|kv| kv.strip_prefix("context_id="));
    if let Some(c) = ctx {
        if decode_id(c).is_none() {
            return Response::error(400, "The provided context_id is not a valid format");
        }
        state.announced.lock().unwrap().push(c.to_string());
    }
    let id = blob_id_of(state.profile, &req.body);
    let size = req.body.len() as u64;
    let mut blobs = state.blobs.lock().unwrap();
    if !blobs.iter().any(|(b, _)| *b == id) {
        blobs.push((id.clone(), req.body.clone()));
    }
    Response::wire(200, wire::blob_uploaded(&id, size))
}

/// `list_handler`: each app's module blob (its size) and the uploaded blobs.
fn blob_list(state: &State) -> Response {
    let apps = state.apps.read().unwrap();
    let mut rows: Vec<(String, u64)> = apps
        .iter()
        .map(|a| {
            let module = a
                .module
                .clone()
                .unwrap_or_else(|| wasm_module((!a.legacy).then_some(&a.services[0].2)));
            (a.blob.clone(), module.len() as u64)
        })
        .collect();
    for (id, bytes) in state.blobs.lock().unwrap().iter() {
        rows.push((id.clone(), bytes.len() as u64));
    }
    Response::wire(200, wire::blob_list(&rows))
}

/// `download_handler` / `info_handler` of an uploaded blob: the bytes with
/// `build_blob_response_headers` (HEAD sends the headers only).
fn blob_download(state: &State, blob: &str) -> Response {
    let bytes = uploaded(state, blob).unwrap_or_default();
    let hash = match state.hostile.lock().unwrap().blob_etag.clone() {
        Some(lie) => lie,
        None => sha256_hex(&bytes),
    };
    Response {
        status: 200,
        content_type: "application/octet-stream",
        headers: vec![
            ("etag", format!("\"{hash}\"")),
            ("x-blob-id", blob.to_string()),
            ("x-blob-hash", hash),
            ("x-blob-mime-type", "application/octet-stream".into()),
        ],
        body: bytes,
        delay: None,
    }
}

/// `delete_handler`: rc.25 (and later) refuse an installed app's blob with
/// 403; rc.4 deletes it. An unknown id: 404 "Blob not found".
fn blob_delete(state: &State, blob: &str) -> Response {
    let Some(want) = decode_id(blob) else {
        return Response::error(400, "Invalid blob ID format");
    };
    let apps = state.apps.read().unwrap();
    let app_blob = apps.iter().any(|a| decode_id(&a.blob) == Some(want));
    if app_blob && state.profile.abi_route() {
        return Response::error(
            403,
            "Blob is referenced by an installed application and cannot be deleted",
        );
    }
    let mut blobs = state.blobs.lock().unwrap();
    let before = blobs.len();
    blobs.retain(|(id, _)| decode_id(id) != Some(want));
    if blobs.len() == before && !app_blob {
        // rc.25: 404; rc.4: its store's error as a 500.
        return match state.profile.abi_route() {
            true => Response::error(404, "Blob not found"),
            false => Response::error(500, "Failed to delete blob: Blob not found"),
        };
    }
    Response::wire(200, wire::blob_deleted(blob))
}

fn alias(value: Option<&str>) -> Response {
    Response::wire(
        200,
        match value {
            Some(v) => wire::alias_hit(v),
            None => wire::alias_miss(),
        },
    )
}

fn apps_list(p: Profile, apps: &[AppDef]) -> Response {
    let compiled = p.id(0);
    let metas: Vec<Vec<u8>> = apps
        .iter()
        .map(|a| {
            // A row written for a blob share has empty metadata.
            if a.source.starts_with("calimero://") {
                return Vec::new();
            }
            if let Some(bytes) = &a.metadata {
                return bytes.clone();
            }
            json!({"name": a.name, "description": "a fake app", "package": a.package})
                .to_string()
                .into_bytes()
        })
        .collect();
    let services: Vec<Vec<(&str, wire::Blob<'_>)>> = apps
        .iter()
        .map(|a| {
            a.services
                .iter()
                .filter_map(|(name, blob, _)| {
                    name.as_deref().map(|n| {
                        (
                            n,
                            wire::Blob {
                                bytecode: blob,
                                compiled: &compiled,
                            },
                        )
                    })
                })
                .collect()
        })
        .collect();
    let listed: Vec<wire::App<'_>> = apps
        .iter()
        .zip(&metas)
        .zip(&services)
        .map(|((a, meta), services)| wire::App {
            id: &a.id,
            blob: wire::Blob {
                bytecode: &a.blob,
                compiled: &compiled,
            },
            size: 0,
            source: a.source,
            metadata: meta,
            signer_id: &a.signer,
            package: &a.package,
            version: &a.version,
            services,
        })
        .collect();
    Response::wire(
        200,
        if p == Profile::V010 {
            wire::apps_list_v010(&listed)
        } else {
            wire::apps_list(&listed)
        },
    )
}

/// The group (hex) of the contexts of application `app`: one group per
/// application in this fake.
fn group_of(app: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(format!("group\0{app}").as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `GET /admin-api/groups/:id`: the group of an application's contexts
/// targets that application, or after [`FakeNode::upgrade_group`] the
/// version of its package upgraded to. A group the node does not have: 500
/// (rc.4 says which; rc.25 hides the handler's error).
fn group_route(p: Profile, state: &State, group: &str) -> Response {
    let apps = state.apps.read().unwrap();
    let Some(app) = apps.iter().find(|a| group_of(&a.id) == group) else {
        let bytes: Option<[u8; 32]> = (group.len() == 64)
            .then(|| {
                (0..64)
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&group[i..i + 2], 16).ok())
                    .collect::<Option<Vec<u8>>>()
            })
            .flatten()
            .and_then(|v| v.try_into().ok());
        return match bytes {
            None => Response::error(
                400,
                "Invalid group id format: expected hex-encoded 32 bytes",
            ),
            Some(b) if p == Profile::Rc4 => Response::wire(500, wire::group_not_found_rc4(&b)),
            Some(_) => Response::error(500, "Internal server error"),
        };
    };
    let upgraded = state.group_target.lock().unwrap().clone();
    let target = upgraded
        .filter(|t| {
            !app.package.is_empty() && apps.iter().any(|a| a.id == *t && a.package == app.package)
        })
        .unwrap_or_else(|| app.id.clone());
    let contexts = state.contexts.read().unwrap();
    let (key, hash) = ("cb".repeat(32), "b7".repeat(32));
    let info = wire::GroupInfo {
        group_id: group,
        app_key: &key,
        target_application_id: &target,
        member_count: 1,
        context_count: contexts.iter().filter(|c| c.app == app.id).count() as u64,
        default_capabilities: 4,
        subgroup_visibility: "restricted",
        group_state_hash: &hash,
    };
    let policy = (p == Profile::Rc4).then_some("LazyOnAccess");
    Response::wire(200, wire::group_info(&info, policy))
}

/// `GET /admin-api/contexts/:id`: the context, with the version of the app it runs.
fn context_get(p: Profile, c: &CtxDef, apps: &[AppDef]) -> Response {
    let root = p.id(77);
    let group = group_of(&c.app);
    let version = apps
        .iter()
        .find(|a| a.id == c.app)
        .map(|a| a.version.as_str());
    let ctx = wire::Context {
        id: &c.id,
        application_id: &c.app,
        service_name: c.service.as_deref(),
        root_hash: &root,
        dag_heads: &[],
        application_version: version.filter(|v| !v.is_empty()),
        name: c.name.as_deref(),
        group_id: Some(&group),
    };
    Response::wire(
        200,
        if p == Profile::V010 {
            wire::context_get_v010(&ctx)
        } else {
            wire::context_get(&ctx)
        },
    )
}

/// `empty[i]`: the i-th context has no state yet (the zero root hash).
/// `version`: the version of the application they run, as the node lists it.
fn contexts_list(p: Profile, contexts: &[&CtxDef], empty: &[bool], version: &str) -> Response {
    let (root, zero) = (p.id(77), p.id(0));
    let groups: Vec<String> = contexts.iter().map(|c| group_of(&c.app)).collect();
    let listed: Vec<wire::Context<'_>> = contexts
        .iter()
        .enumerate()
        .map(|(i, c)| wire::Context {
            id: &c.id,
            application_id: &c.app,
            service_name: c.service.as_deref(),
            root_hash: if empty.get(i) == Some(&true) {
                &zero
            } else {
                &root
            },
            dag_heads: &[],
            application_version: Some(version),
            name: c.name.as_deref(),
            group_id: Some(&groups[i]),
        })
        .collect();
    Response::wire(
        200,
        if p == Profile::V010 {
            wire::contexts_list_v010(&listed)
        } else {
            wire::contexts_list(&listed)
        },
    )
}

fn abi_route(state: &State, app: &str, query: &str) -> Response {
    let apps = state.apps.read().unwrap();
    let Some(a) = apps.iter().find(|a| a.id == app) else {
        return Response::error(404, "Application not found");
    };
    if state.code_pending.lock().unwrap().contains(app) {
        return Response::error(404, "Application bytecode not found");
    }
    if a.legacy {
        return Response::error(400, "no usable embedded ABI in the application's module");
    }
    let service = query_param(query, "service_name").map(|s| percent_decode(s, true));
    let multi = a.services.len() > 1 || a.services[0].0.is_some();
    match (multi, service) {
        (true, None) => {
            let names: Vec<&str> = a.services.iter().filter_map(|s| s.0.as_deref()).collect();
            Response::error(
                400,
                &format!(
                    "application has multiple services; pass service_name (available: {})",
                    names.join(", ")
                ),
            )
        }
        (true, Some(s)) => match a.services.iter().find(|x| x.0.as_deref() == Some(&s)) {
            Some(x) => Response::wire(200, wire::abi_ok(&wire::abi_node_form(&x.2))),
            None => Response::error(400, &format!("unknown service `{s}`")),
        },
        (false, Some(_)) => {
            Response::error(400, "service_name given for a single-service application")
        }
        (false, None) => Response::wire(200, wire::abi_ok(&wire::abi_node_form(&a.services[0].2))),
    }
}

// ---- auth ----

fn b64url(bytes: &[u8]) -> String {
    base64::Engine::encode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, bytes)
}

/// A JWT-shaped token with an `iat` claim.
pub fn jwt(iat: u64, n: u64, user: &str) -> String {
    format!(
        "{}.{}.fake-signature",
        b64url(br#"{"alg":"HS256","typ":"JWT"}"#),
        b64url(
            json!({"iat": iat, "sub": user, "n": n})
                .to_string()
                .as_bytes()
        )
    )
}

fn issue(t: &mut Tokens, family: u64, iat: u64, user: &str) -> (String, String) {
    t.counter += 1;
    let access = if t.key_id {
        rc83_jwt(iat, t.counter, user, family)
    } else {
        jwt(iat, t.counter, user)
    };
    let refresh = format!("refresh-{family}-{}", t.counter);
    t.access.insert(access.clone(), (family, false));
    t.refresh.insert(refresh.clone(), (family, false));
    (access, refresh)
}

/// `iat` of freshly issued tokens: always newer than anything minted below it.
const BASE_IAT: u64 = 1_900_000_000;

/// mero-auth's envelope: `{"data": …, "error": …}`.
fn envelope(status: u16, message: &str) -> Response {
    Response::wire(status, wire::auth_error(message))
}

fn auth_route(state: &State, auth: &Auth, req: &Request, rest: &str) -> Response {
    let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
    if state.profile.rc83()
        && let Some(refused) = rc83_auth_refused(auth, req, rest, &body)
    {
        return refused;
    }
    let mut t = auth.tokens.lock().unwrap();
    match (req.method.as_str(), rest) {
        ("POST", "token") => {
            let user = body["provider_data"]["username"]
                .as_str()
                .unwrap_or_default();
            let pass = body["provider_data"]["password"]
                .as_str()
                .unwrap_or_default();
            let known = (user == auth.user && pass == auth.password)
                || auth.others.iter().any(|(u, p)| u == user && p == pass);
            if !known {
                if state.echo_credentials.load(Ordering::SeqCst) {
                    // A hostile (or careless) node quoting what it was sent.
                    let echoed =
                        format!("Authentication failed: no user {user:?} with password {pass:?}");
                    return Response::wire(401, wire::login_failed(&echoed));
                }
                return Response::wire(
                    401,
                    wire::login_failed(
                        "Authentication failed: Authentication failed: Invalid username or password",
                    ),
                );
            }
            t.logins += 1;
            t.counter += 1;
            let family = t.counter;
            let iat = BASE_IAT + t.counter;
            let (a, r) = issue(&mut t, family, iat, user);
            Response::wire(200, wire::login_ok(&a, &r))
        }
        ("POST", "refresh") => {
            let access = body["access_token"].as_str().unwrap_or_default();
            let refresh = body["refresh_token"].as_str().unwrap_or_default();
            let Some(&(family, used)) = t.refresh.get(refresh) else {
                return envelope(401, "Invalid refresh token");
            };
            if used || t.revoked.contains(&family) {
                t.revoked.push(family);
                return if state.profile.refresh_reuse_500() {
                    envelope(
                        500,
                        "Failed to refresh token: Invalid token: Key not found: 2dd054f09c4acd5b23e75e0ee2e3feeee9d2bcb30bf49c86599da159b2f1a45f",
                    )
                } else {
                    // As the rc.25 binary answers (seen by
                    // realnode_login::rc25_parallel_commands_on_one_login_refresh_it_once).
                    envelope(
                        401,
                        "Refresh token reuse detected; re-authentication required",
                    )
                    .with_header("x-auth-error", "token_reuse")
                };
            }
            match t.access.get(access) {
                Some(&(_, false)) => {
                    return envelope(401, "Access token still valid");
                }
                None => return envelope(401, "Invalid access token"),
                Some(_) => {}
            }
            t.refresh.insert(refresh.to_string(), (family, true));
            t.refreshes += 1;
            let iat = BASE_IAT + t.counter + 1;
            let user = auth.user.clone();
            let (a, r) = issue(&mut t, family, iat, &user);
            Response::wire(200, wire::refresh_ok(&a, &r))
        }
        _ => Response::empty(404),
    }
}

/// The guard: empty bodies, `X-Auth-Error` where merod sets one.
fn check_token(p: Profile, auth: &Auth, req: &Request) -> Option<Response> {
    let header = req
        .headers
        .iter()
        .find(|(k, _)| k == "authorization")
        .map(|(_, v)| v.as_str());
    let Some(token) = header.and_then(|h| h.strip_prefix("Bearer ")) else {
        return Some(Response::empty(401));
    };
    if p.rc83() && !rc83_has_key_id(token) {
        // REC §1 "Guard": missing `key_id` → 401, empty body, no X-Auth-Error.
        return Some(Response::empty(401));
    }
    let t = auth.tokens.lock().unwrap();
    match t.access.get(token) {
        None => Some(Response::empty(401)),
        Some((family, _)) if t.revoked.contains(family) => Some(if p.revoked_403() {
            Response::empty(403).with_header("x-auth-error", "token_revoked")
        } else {
            Response::empty(401)
        }),
        Some((_, true)) => Some(Response::empty(401).with_header("x-auth-error", "token_expired")),
        Some(_) => None,
    }
}

// ---- JSON-RPC ----

fn fn_error(data: String) -> Value {
    json!({"type": "FunctionCallError", "data": data})
}

fn jsonrpc(state: &State, req: &Request) -> Response {
    if !req
        .headers
        .iter()
        .any(|(k, v)| k == "content-type" && v.starts_with("application/json"))
    {
        return Response::text(
            415,
            "text/plain",
            "Expected request with `Content-Type: application/json`",
        );
    }
    let Ok(body) = serde_json::from_slice::<Value>(&req.body) else {
        return Response::text(
            400,
            "text/plain",
            "Failed to parse the request body as JSON",
        );
    };
    if body.get("jsonrpc") != Some(&json!("2.0")) || body.get("id").is_none() {
        return Response::text(422, "text/plain", "missing field `id`");
    }
    let id = body["id"].clone();
    let reply = |outcome: Result<Value, Value>| {
        let body = match outcome {
            Ok(output) => wire::rpc_ok(&id, &output),
            Err(error) => wire::rpc_error(
                &id,
                error["type"].as_str().unwrap_or_default(),
                error.get("data"),
            ),
        };
        Response::wire(200, body)
    };
    // 0.11.0-rc.4 and later answer `sync_status`. The faults app's context
    // (whose `uninit` answers Uninitialized) is backing off; a context listed
    // without state waits for peers; the others are initialized and idle
    // unless a test set their status.
    if body["method"] == "sync_status" && state.profile != Profile::V010 {
        let ctx = body["params"]["contextId"].as_str().unwrap_or_default();
        let set = state.sync.lock().unwrap().get(ctx).cloned();
        let (init, st, failures, last) = match set {
            Some(s) => s,
            None if ctx == state.profile.id(CTX_FAULTS) => (
                false,
                json!({"state": "backingOff", "retryInSecs": 30}),
                3,
                Some("No peers to sync with".to_string()),
            ),
            // A context listed without state is not initialized either.
            None if state
                .uninit
                .lock()
                .unwrap()
                .get(ctx)
                .is_some_and(|n| *n > 0) =>
            {
                (false, json!({"state": "waitingForPeers"}), 0, None)
            }
            None => (true, json!({"state": "idle"}), 0, None),
        };
        return Response::wire(
            200,
            wire::rpc_sync_status(&id, ctx, init, &st, failures, last.as_deref()),
        );
    }
    if body["method"] != "execute" {
        // serde's message for a method the node's RequestPayload lacks.
        let method = body["method"].as_str().unwrap_or_default();
        let expected = if state.profile == Profile::V010 {
            "`execute`"
        } else {
            "`execute` or `sync_status`"
        };
        return reply(Err(json!({
            "type": "ParseError",
            "data": format!("unknown variant `{method}`, expected {expected}"),
        })));
    }
    let p = state.profile;
    let params = &body["params"];
    if let Some(refused) = rc83_execute_refused(p, params) {
        return reply(Err(refused));
    }
    let ctx_id = params["contextId"].as_str().unwrap_or_default();
    let method = params["method"].as_str().unwrap_or_default();
    let args = params["argsJson"].clone();
    // The server's own types: ids parse in the node's form only.
    let parse_id = |s: &str| -> Result<(), Value> {
        let bad = if p.hex_ids() {
            (s.len() != 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()))
                .then_some("Invalid string length")
        } else {
            (bs58::decode(s).into_vec().map_or(true, |v| v.len() != 32))
                .then_some("buffer provided to decode base58 encoded string into was too small")
        };
        match bad {
            Some(m) => Err(json!({"type": "ParseError", "data": m})),
            None => Ok(()),
        }
    };
    if let Err(e) = parse_id(ctx_id) {
        return reply(Err(e));
    }
    if let Some(e) = state.execute_errors.lock().unwrap().pop_front() {
        return reply(Err(e));
    }
    if let Some(status) = state.execute_statuses.lock().unwrap().pop_front() {
        return Response::empty(status);
    }
    if std::mem::take(&mut state.sse.lock().unwrap().close_after_execute) {
        // The node shuts its streams down right after the call ran.
        let close = wire::sse_close("server shutting down");
        let mut streams = state.streams.lock().unwrap();
        for s in streams.iter_mut() {
            let frame = wire::sse_frame(&format!("{}-{}", s.session, s.sent), &close);
            let _ = s.frames.send(frame);
        }
        streams.clear();
    }
    let executor = params.get("executorPublicKey").and_then(Value::as_str);
    if p.executor_required() {
        match executor {
            None => {
                return reply(Err(
                    json!({"type": "ParseError", "data": "missing field `executorPublicKey`"}),
                ));
            }
            Some(e) => {
                if let Err(e) = parse_id(e) {
                    return reply(Err(e));
                }
            }
        }
    }
    // A namespace upgraded (LazyOnAccess) moves its context to the
    // namespace's target at its next execution: this call.
    let moved = {
        let life = state.life.lock().unwrap();
        life.ctx_group
            .get(ctx_id)
            .and_then(|ns| life.namespaces.get(ns))
            .cloned()
    };
    if let Some(target) = moved
        && state.apps.read().unwrap().iter().any(|a| a.id == target)
        && let Some(c) = state
            .contexts
            .write()
            .unwrap()
            .iter_mut()
            .find(|c| c.id == ctx_id)
    {
        c.app = target;
    }
    // A group upgrade (LazyOnAccess) moves a context of the upgraded
    // package to the group's target at its next use: this call.
    if let Some(target) = state.group_target.lock().unwrap().clone() {
        let apps = state.apps.read().unwrap();
        let package = |id: &str| apps.iter().find(|a| a.id == id).map(|a| a.package.clone());
        let mut contexts = state.contexts.write().unwrap();
        if let Some(c) = contexts.iter_mut().find(|c| c.id == ctx_id)
            && c.app != target
            && package(&c.app).is_some()
            && package(&c.app) == package(&target)
        {
            c.app = target;
        }
    }
    let apps = state.apps.read().unwrap();
    let contexts = state.contexts.read().unwrap();
    let Some(ctx) = contexts.iter().find(|c| c.id == ctx_id) else {
        return reply(Err(json!({"type": "ContextNotFound"})));
    };
    if !p.executor_required() && ctx.owned.is_empty() {
        return reply(Err(fn_error(
            "No owned identity found for this context".into(),
        )));
    }
    if p.executor_required()
        && let Some(e) = executor
        && !ctx.owned.iter().any(|o| o == e)
    {
        return reply(Err(
            json!({"type": "Unauthorized", "data": {"context_id": ctx.id, "public_key": e}}),
        ));
    }
    let Some(app) = apps.iter().find(|a| a.id == ctx.app) else {
        return reply(Err(
            json!({"type": "ApplicationNotInstalled", "data": {"application_id": ctx.app}}),
        ));
    };
    let abi = match &ctx.service {
        Some(s) => app.services.iter().find(|x| x.0.as_deref() == Some(s)),
        None => app.services.first(),
    }
    .map(|x| &x.2);
    let Some(m) = abi
        .and_then(|a| a["methods"].as_array())
        .and_then(|ms| ms.iter().find(|m| m["name"] == method))
    else {
        return reply(Err(fn_error(format!("method \"{method}\" not found"))));
    };
    // The SDK decodes arguments with deny_unknown_fields.
    let declared: Vec<&str> = m["params"]
        .as_array()
        .map(|ps| ps.iter().filter_map(|p| p["name"].as_str()).collect())
        .unwrap_or_default();
    let Value::Object(args) = args else {
        return reply(Err(fn_error(format!(
            "guest panicked: {method}: failed to deserialize arguments: expected an object"
        ))));
    };
    if let Some(k) = args.keys().find(|k| !declared.contains(&k.as_str())) {
        return reply(Err(fn_error(format!(
            "guest panicked: {method}: failed to deserialize arguments: unknown field `{k}` at src/lib.rs:1:1"
        ))));
    }
    {
        let mut writes = state.synced_writes.lock().unwrap();
        let mut kv = state.kv.lock().unwrap();
        writes.retain_mut(|(c, left, k, v)| {
            if *c != ctx.id {
                return true;
            }
            *left -= 1;
            if *left > 0 {
                return true;
            }
            kv.entry(c.clone())
                .or_default()
                .insert(k.clone(), v.clone());
            false
        });
    }
    let unit = m["returns"]["kind"] == "unit";
    match app.semantics {
        Semantics::Echo => reply(Ok(if unit {
            Value::Null
        } else {
            Value::Object(args)
        })),
        Semantics::Kv => {
            let mut kv = state.kv.lock().unwrap();
            let store = kv.entry(ctx.id.clone()).or_default();
            let key = args
                .get("key")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let out = match method {
                "set" => {
                    let value = args
                        .get("value")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    store.insert(key.clone(), value.to_string());
                    Value::Null
                }
                "get" => store.get(&key).map_or(Value::Null, |v| json!(v)),
                "remove" => store.remove(&key).map_or(Value::Null, |v| json!(v)),
                "entries" => json!(store),
                "len" => json!(store.len()),
                "clear" => {
                    store.clear();
                    Value::Null
                }
                _ => Value::Null,
            };
            drop(kv);
            // The events the kv-store app emits (`Cleared` is not in its ABI).
            let key_json = json!(key).to_string();
            let events: &[(&str, &[u8])] = match method {
                "set" => &[("Inserted", key_json.as_bytes())],
                "remove" => &[("Removed", key_json.as_bytes())],
                "clear" => &[("Cleared", b"")],
                _ => &[],
            };
            if !events.is_empty() {
                push(
                    state,
                    &ctx.id,
                    &wire::event_state_mutation(&ctx.id, ROOT, events),
                );
            }
            reply(Ok(out))
        }
        Semantics::Ids => {
            let (name, value) = match method {
                "member" => ("who", args.get("who")),
                _ => ("hash", args.get("hash")),
            };
            let ok = match (method, value) {
                // A PublicKey: a base58 string of 32 bytes, nothing else.
                ("member", Some(Value::String(s))) => {
                    bs58::decode(s).into_vec().is_ok_and(|v| v.len() == 32)
                }
                // A [u8; 32]: an array of 32 numbers, nothing else.
                (_, Some(Value::Array(a))) if method != "member" => {
                    a.len() == 32 && a.iter().all(|x| x.as_u64().is_some_and(|n| n < 256))
                }
                _ => false,
            };
            if !ok {
                let expected = if method == "member" {
                    "{ who: PublicKey }"
                } else {
                    "{ hash: [u8; 32] }"
                };
                let what = match value {
                    Some(Value::String(_)) => {
                        "invalid type: string, expected an array of length 32"
                    }
                    Some(Value::Array(_)) => "invalid type: sequence, expected a base58 string",
                    _ => "invalid value",
                };
                return reply(Err(fn_error(format!(
                    "guest panicked: {method}: failed to deserialize arguments (expected {expected}): Error(\"{what}\", line: 1, column: {}) at src/lib.rs:1:1",
                    name.len() + 4
                ))));
            }
            reply(Ok(value.cloned().unwrap_or(Value::Null)))
        }
        Semantics::Faults => match method {
            "boom" => reply(Err(fn_error(wire::app_error_data(
                "\"the key is missing\"",
            )))),
            "panic" => reply(Err(fn_error(wire::panic_data(
                "index out of bounds: the len is 0 but the index is 3",
                "src/lib.rs:10:5",
            )))),
            "html" => Response::text(
                500,
                "text/html",
                "<!DOCTYPE html><html><head><title>Internal Server Error</title></head><body><h1>Something broke</h1></body></html>",
            ),
            "slow" => {
                let mut r = reply(Ok(Value::Null));
                r.delay = Some(SLOW);
                r
            }
            "uninit" => reply(Err(json!({"type": "Uninitialized"}))),
            "quote" => {
                let auth = req
                    .headers
                    .iter()
                    .find(|(k, _)| k == "authorization")
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default();
                Response::text(
                    500,
                    "text/plain",
                    &format!("upstream failed for POST /jsonrpc; headers: authorization: {auth}"),
                )
            }
            "redirect_away" => {
                Response::empty(307).with_header("location", "http://evil.example/steal?ctx=secret")
            }
            "redirect_home" if req.path.ends_with("/jsonrpc") => Response::empty(307)
                .with_header("location", &format!("{}/jsonrpc-moved", state.base)),
            "huge" => reply(Ok(json!("x".repeat(1 << 20)))),
            _ => reply(Ok(Value::Null)),
        },
    }
}

// ---- lifecycle routes (research: node-lifecycle-routes.md) ----

impl FakeNode {
    /// What joining context `ctx` of namespace `ns` brings to this node (as
    /// another node that holds it would share it): the app's module and
    /// ABI, listed as a blob share; its state arrives after two listings.
    pub fn offer(&self, ns: &str, ctx: &str, module: Vec<u8>, abi: Value) {
        self.state
            .life
            .lock()
            .unwrap()
            .offers
            .insert(ctx.to_string(), (ns.to_string(), module, abi));
    }

    /// The `initializationParams` context `ctx` was created with.
    pub fn init_params(&self, ctx: &str) -> Option<Vec<u8>> {
        self.state
            .life
            .lock()
            .unwrap()
            .init_params
            .get(ctx)
            .cloned()
    }

    /// How many contexts the node has.
    pub fn context_count(&self) -> usize {
        self.state.contexts.read().unwrap().len()
    }

    /// The application ids installed.
    pub fn app_ids(&self) -> Vec<String> {
        self.state
            .apps
            .read()
            .unwrap()
            .iter()
            .map(|a| a.id.clone())
            .collect()
    }

    /// The aliases the node has.
    pub fn aliases(&self) -> BTreeMap<String, String> {
        self.state.aliases.lock().unwrap().clone()
    }
}

/// The `calimero_abi_v1` custom section of a wasm module, as JSON.
fn embedded_abi(module: &[u8]) -> Option<Value> {
    fn leb(b: &[u8], at: &mut usize) -> Option<usize> {
        let (mut n, mut shift) = (0usize, 0);
        loop {
            let byte = *b.get(*at)?;
            *at += 1;
            n |= ((byte & 0x7f) as usize) << shift;
            if byte & 0x80 == 0 {
                return Some(n);
            }
            shift += 7;
        }
    }
    if module.get(..4) != Some(b"\0asm") {
        return None;
    }
    let mut at = 8;
    while at < module.len() {
        let id = module[at];
        at += 1;
        let size = leb(module, &mut at)?;
        let end = at.checked_add(size)?;
        if id == 0 {
            let mut p = at;
            let n = leb(module, &mut p)?;
            let name = module.get(p..p + n)?;
            if name == b"calimero_abi_v1" {
                return serde_json::from_slice(module.get(p + n..end)?).ok();
            }
        }
        at = end;
    }
    None
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn bytes_of(v: &Value) -> Option<Vec<u8>> {
    v.as_array()?
        .iter()
        .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
        .collect()
}

/// The ValidatedJson error for a body that lacks `field`.
fn missing_field(field: &str) -> Response {
    Response::error(
        400,
        &format!(
            "Invalid JSON data: Failed to deserialize the JSON body into the target type: missing field `{field}` at line 1 column 2"
        ),
    )
}

/// The untyped internal error: rc.4 says it, rc.25 hides it.
fn internal(p: Profile, message: &str) -> Response {
    if p == Profile::Rc4 {
        Response::error(500, message)
    } else {
        Response::error(500, "Internal server error")
    }
}

fn lifecycle_route(state: &State, req: &Request, segs: &[&str]) -> Option<Response> {
    let p = state.profile;
    let body = || serde_json::from_slice::<Value>(&req.body).unwrap_or(Value::Null);
    let member = p.id(owner_seed(200));
    Some(match (req.method.as_str(), segs) {
        ("POST", ["admin-api", "install-dev-application"]) => {
            let b = body();
            let Some(path) = b["path"].as_str() else {
                return Some(missing_field("path"));
            };
            let Some(meta) = bytes_of(&b["metadata"]) else {
                return Some(missing_field("metadata"));
            };
            let Ok(module) = std::fs::read(path) else {
                return Some(Response::text(
                    500,
                    "text/plain; charset=utf-8",
                    &format!("application file not found at {path}"),
                ));
            };
            use sha2::Digest;
            let digest = sha2::Sha256::digest([module.as_slice(), path.as_bytes(), &meta].concat());
            let bytes: [u8; 32] = digest.into();
            let id = if p.hex_ids() {
                hex_of(&bytes)
            } else {
                bs58::encode(bytes).into_string()
            };
            let abi = embedded_abi(&module).unwrap_or(
                json!({"schema_version": "wasm-abi/1", "types": {}, "methods": [], "events": []}),
            );
            let package = b["package"].as_str().unwrap_or("unknown").to_string();
            let version = b["version"].as_str().unwrap_or("0.0.0").to_string();
            let mut apps = state.apps.write().unwrap();
            apps.retain(|a| a.id != id);
            // The node's blob id: SHA-256 over the SHA-256 of each 1 MiB
            // chunk (calimero-blobstore; `abi::load::blob_id`'s test holds
            // it to the node's), one chunk for a test module.
            let blob =
                bs58::encode(sha2::Sha256::digest(sha2::Sha256::digest(&module))).into_string();
            let mut app = single(0, &package, &package, 0, abi, Semantics::Echo);
            app.id = id.clone();
            app.version = version;
            app.blob = blob.clone();
            app.services[0].1 = blob;
            app.source = "file:///installed/app.wasm";
            app.module = Some(module);
            app.metadata = (!meta.is_empty()).then_some(meta);
            apps.push(app);
            Response::wire(200, wire::application_id(&id))
        }
        ("POST", ["admin-api", "install-application"]) => {
            let b = body();
            let Some(url) = b["url"].as_str() else {
                return Some(missing_field("url"));
            };
            if bytes_of(&b["metadata"]).is_none() {
                return Some(missing_field("metadata"));
            }
            let local = url.contains("://127.") || url.contains("://localhost");
            match (local, p) {
                (true, Profile::Rc4 | Profile::V010) => Response::text(
                    500,
                    "text/plain; charset=utf-8",
                    &format!("error sending request for url ({url})"),
                ),
                (true, _) => Response::error(
                    400,
                    "Field 'url' has invalid format: URL host is a loopback, private, link-local, or otherwise non-public address",
                ),
                (false, _) => Response::text(
                    500,
                    "text/plain; charset=utf-8",
                    &format!("error sending request for url ({url})"),
                ),
            }
        }
        ("DELETE", ["admin-api", "applications", app]) => {
            if decode_id(app).is_none() {
                return Some(Response::text(
                    400,
                    "text/plain; charset=utf-8",
                    &format!(
                        "Invalid URL: invalid length {}, expected a base58 encoded hash",
                        app.len()
                    ),
                ));
            }
            // No check that contexts use it; idempotent.
            state.apps.write().unwrap().retain(|a| a.id != *app);
            Response::wire(200, wire::application_id(app))
        }
        ("POST", ["admin-api", "namespaces"]) => {
            let b = body();
            let Some(app) = b["applicationId"].as_str() else {
                return Some(missing_field("applicationId"));
            };
            if p == Profile::Rc4 && b.get("upgradePolicy").is_none() {
                return Some(missing_field("upgradePolicy"));
            }
            let mut life = state.life.lock().unwrap();
            life.counter += 1;
            use sha2::Digest;
            let ns = hex_of(&sha2::Sha256::digest(
                format!("ns\0{}", life.counter).as_bytes(),
            ));
            life.namespaces.insert(ns.clone(), app.to_string());
            Response::wire(200, wire::namespace_created(&ns))
        }
        ("GET", ["admin-api", "groups", ns])
            if state.life.lock().unwrap().namespaces.contains_key(*ns) =>
        {
            let target = state.life.lock().unwrap().namespaces[*ns].clone();
            let (key, hash) = ("cb".repeat(32), "b7".repeat(32));
            let info = wire::GroupInfo {
                group_id: ns,
                app_key: &key,
                target_application_id: &target,
                member_count: 1,
                context_count: 1,
                default_capabilities: 4,
                subgroup_visibility: "restricted",
                group_state_hash: &hash,
            };
            let policy = (p == Profile::Rc4).then_some("LazyOnAccess");
            Response::wire(200, wire::group_info(&info, policy))
        }
        ("GET", ["admin-api", "groups", ns, "contexts"])
            if state.life.lock().unwrap().namespaces.contains_key(*ns) =>
        {
            let life = state.life.lock().unwrap();
            let mut mine: Vec<&str> = life
                .ctx_group
                .iter()
                .filter(|(_, g)| g.as_str() == *ns)
                .map(|(c, _)| c.as_str())
                .collect();
            mine.sort_unstable();
            Response::wire(200, wire::group_contexts(&mine))
        }
        // `upgrade_group.rs` (rc.4 and rc.25): `targetApplicationId` is
        // required, the rest defaults; under `LazyOnAccess` only the target
        // changes, each context moves at its next execution.
        ("POST", ["admin-api", "groups", ns, "upgrade"])
            if state.life.lock().unwrap().namespaces.contains_key(*ns) =>
        {
            let b = body();
            let Some(target) = b["targetApplicationId"].as_str() else {
                return Some(missing_field("targetApplicationId"));
            };
            // `bail!("group is already targeting this application")`
            // (calimero-context `upgrade_group.rs`): 500, its text on rc.4,
            // hidden on rc.25 (both seen on real nodes).
            if state
                .life
                .lock()
                .unwrap()
                .namespaces
                .get(*ns)
                .map(String::as_str)
                == Some(target)
            {
                return Some(if p == Profile::Rc4 {
                    Response::wire(
                        500,
                        wire::admin_error("group is already targeting this application"),
                    )
                } else {
                    Response::error(500, "Internal server error")
                });
            }
            state
                .life
                .lock()
                .unwrap()
                .namespaces
                .insert(ns.to_string(), target.to_string());
            Response::wire(200, wire::group_upgraded(ns, p == Profile::Rc4))
        }
        ("GET", ["admin-api", "namespaces", ns, "identity"]) => {
            if p != Profile::Rc4 {
                return Some(Response::empty(404));
            }
            Response::wire(200, wire::namespace_identity(ns, &member))
        }
        ("POST", ["admin-api", "contexts"]) => {
            let b = body();
            if b["applicationId"].as_str().is_none() {
                return Some(missing_field("applicationId"));
            }
            let Some(group) = b["groupId"].as_str() else {
                return Some(missing_field("groupId"));
            };
            let Some(init) = bytes_of(&b["initializationParams"]) else {
                return Some(missing_field("initializationParams"));
            };
            if group.len() != 64 || !group.bytes().all(|c| c.is_ascii_hexdigit()) {
                return Some(Response::error(
                    400,
                    "Invalid group_id: expected hex-encoded 32 bytes",
                ));
            }
            let mut life = state.life.lock().unwrap();
            // The group's target app runs, whatever `applicationId` says.
            let Some(app) = life.namespaces.get(group).cloned() else {
                return Some(internal(p, "group not found"));
            };
            let apps = state.apps.read().unwrap();
            if !apps.iter().any(|a| a.id == app) {
                return Some(internal(p, "application not found"));
            }
            life.counter += 1;
            use sha2::Digest;
            let bytes: [u8; 32] =
                sha2::Sha256::digest(format!("ctx\0{}", life.counter).as_bytes()).into();
            let ctx = if p.hex_ids() {
                hex_of(&bytes)
            } else {
                bs58::encode(bytes).into_string()
            };
            life.ctx_group.insert(ctx.clone(), group.to_string());
            life.init_params.insert(ctx.clone(), init);
            state.contexts.write().unwrap().push(CtxDef {
                id: ctx.clone(),
                owned: vec![member.clone()],
                app,
                service: b["serviceName"].as_str().map(str::to_string),
                name: b["name"].as_str().map(str::to_string),
            });
            Response::wire(200, wire::context_created(&ctx, &member, group))
        }
        ("POST", ["admin-api", "namespaces", ns, "invite"]) => {
            if req.body.is_empty() {
                return Some(Response::error(
                    400,
                    "Expected request with `Content-Type: application/json`",
                ));
            }
            let life = state.life.lock().unwrap();
            if !life.namespaces.contains_key(*ns) && !life.joined.contains(*ns) {
                return Some(internal(p, "group not found"));
            }
            let group: [u8; 32] = (0..32)
                .map(|i| u8::from_str_radix(&ns[2 * i..2 * i + 2], 16).unwrap_or(0))
                .collect::<Vec<u8>>()
                .try_into()
                .unwrap();
            let inv = wire::signed_invitation(&group, &[253u8; 32], p == Profile::Rc4);
            Response::wire(200, wire::namespace_invitation(&inv))
        }
        ("POST", ["admin-api", "namespaces", ns, "join"]) => {
            let b = body();
            let Some(group) = bytes_of(&b["invitation"]["invitation"]["group_id"]) else {
                return Some(Response::error(
                    400,
                    "Invalid JSON data: Failed to deserialize the JSON body into the target type: invitation: missing field `invitation` at line 1 column 16",
                ));
            };
            if hex_of(&group) != *ns {
                return Some(Response::error(
                    400,
                    "invitation group_id does not match namespace_id in path",
                ));
            }
            state.life.lock().unwrap().joined.insert(ns.to_string());
            Response::wire(200, wire::namespace_joined(ns, &member, p == Profile::Rc4))
        }
        ("POST", ["admin-api", "contexts", ctx, "join"]) => {
            if state.contexts.read().unwrap().iter().any(|c| c.id == *ctx) {
                return Some(Response::wire(200, wire::context_joined(ctx, &member)));
            }
            let offer = {
                let life = state.life.lock().unwrap();
                life.offers
                    .get(*ctx)
                    .filter(|(ns, ..)| life.joined.contains(ns))
                    .cloned()
            };
            let Some((ns, module, abi)) = offer else {
                return Some(internal(p, "context does not belong to any group"));
            };
            // As `FakeNode::share`: a blob-shared app, the context owned.
            use sha2::Digest;
            let mut apps = state.apps.write().unwrap();
            let blob = bs58::encode(sha2::Sha256::digest(&module)).into_string();
            let seed = 230 + u8::try_from(apps.len()).unwrap_or(0);
            let (package, version, source) = match p {
                Profile::Rc25 | Profile::Hex => ("", "", "calimero://pending-blob-share"),
                _ => ("unknown", "0.0.0", "calimero://pending-blob-share"),
            };
            let mut app = single(seed, package, "", seed, abi, Semantics::Echo);
            app.id = p.id(seed);
            app.version = version.into();
            app.signer = String::new();
            app.blob = blob.clone();
            app.services[0].1 = blob;
            app.source = source;
            app.module = Some(module);
            let app_id = app.id.clone();
            apps.push(app);
            state.contexts.write().unwrap().push(CtxDef {
                id: ctx.to_string(),
                owned: vec![member.clone()],
                app: app_id,
                service: None,
                name: None,
            });
            state.uninit.lock().unwrap().insert(ctx.to_string(), 2);
            let mut life = state.life.lock().unwrap();
            life.ctx_group.insert(ctx.to_string(), ns);
            Response::wire(200, wire::context_joined(ctx, &member))
        }
        ("DELETE", ["admin-api", "contexts", ctx]) => {
            if decode_id(ctx).is_none() {
                return Some(Response::error(400, "Invalid context id"));
            }
            let in_group = state.life.lock().unwrap().ctx_group.contains_key(*ctx);
            if p == Profile::Rc4
                && in_group
                && body()["requester"].as_str() != Some(member.as_str())
            {
                return Some(match body()["requester"].as_str() {
                    None => Response::error(500, "requester required to delete a group context"),
                    Some(_) => Response::error(500, "identity is not an admin of group"),
                });
            }
            let mut contexts = state.contexts.write().unwrap();
            let before = contexts.len();
            contexts.retain(|c| c.id != *ctx);
            Response::wire(200, wire::context_deleted(contexts.len() < before))
        }
        ("POST", ["admin-api", "alias", "create", "context"]) => {
            let b = body();
            let (Some(alias), Some(ctx)) = (b["alias"].as_str(), b["contextId"].as_str()) else {
                return Some(Response::text(
                    422,
                    "text/plain; charset=utf-8",
                    "Failed to deserialize the JSON body into the target type: missing field `contextId` at line 1 column 2",
                ));
            };
            let mut aliases = state.aliases.lock().unwrap();
            if aliases.contains_key(alias) {
                return Some(match p {
                    Profile::Rc4 | Profile::V010 => {
                        Response::text(500, "text/plain; charset=utf-8", "alias already exists")
                    }
                    _ => Response::error(409, "alias already exists"),
                });
            }
            aliases.insert(alias.to_string(), ctx.to_string());
            Response::wire(200, wire::data_null())
        }
        ("POST", ["admin-api", "alias", "delete", "context", name]) => {
            state.aliases.lock().unwrap().remove(*name);
            Response::wire(200, wire::data_null())
        }
        _ => return None,
    })
}

// ---- rc.83 (issue 48) ----
//
// merod 0.11.0-rc.83 as its recorded wire says
// (../shared/reference/merod-rc83-wire.md, "REC" with its section); the
// bodies are `wire::rc83_*`, each citing its source. Kept apart from the
// routes above so that versions of the fake can be merged region by region.

impl FakeNode {
    /// A valid pair issued before the node was upgraded to rc.83: its
    /// tokens are in the node's store, but the access token has no `key_id`
    /// claim, so the rc.83 guard answers it with a bare 401 (REC §1 "JWT").
    pub fn mint_before_upgrade(&self, iat: u64) -> (String, String) {
        let a = self.state.auth.as_ref().expect("auth enabled");
        let mut t = a.tokens.lock().unwrap();
        let key_id = std::mem::replace(&mut t.key_id, false);
        t.counter += 1;
        let family = t.counter;
        let pair = issue(&mut t, family, iat, &a.user);
        t.key_id = key_id;
        pair
    }

    /// The next `execute` is a write the node runs read-only and discards:
    /// the node is a read-only member of `context` (REC §5, EXEC83
    /// `refuse_discarded_write`); its answer is [`wire::rc83_read_only_write_refused`].
    pub fn refuse_next_write_read_only(&self, context: &str) {
        self.fail_next_execute(
            json!({"type": "ReadOnlyWriteRefused", "data": {"context_id": context}}),
        );
    }

    /// The next admin-API request to a path ending in `route_end` is
    /// refused as rc.83 refuses: `status` (400 bad proof, 403 not a member,
    /// 404 unknown, 409 stale counter, 503 not yet) with the body
    /// `{"error": message}` (REC §0 "Typed refusals": KTHTTP, SVC83
    /// `parse_api_error`; the statuses and the body's shape are recorded,
    /// a message's text is not, so the test's text is *inferred*).
    pub fn refuse_next_typed(&self, route_end: &str, status: u16, message: &str) {
        assert!(self.state.profile.rc83(), "typed refusals are rc.83's");
        *self.state.typed_refusal.lock().unwrap() =
            Some((route_end.to_string(), status, message.to_string()));
    }

    /// The refresh tokens `POST /auth/logout` retired, in order.
    pub fn logged_out(&self) -> Vec<String> {
        self.state
            .auth
            .as_ref()
            .map_or_else(Vec::new, |a| a.tokens.lock().unwrap().logged_out.clone())
    }

    /// Sends a group-keyed event (`MemberJoined`, `MigrationStarted`, …) to
    /// every stream subscribed to `group` with `groupIds` (rc.18 on).
    pub fn emit_group(&self, group: &str, kind: &str, data: &Value) {
        let event = wire::event_group(group, kind, data);
        let body = wire::sse_event(&event);
        let mut streams = self.state.streams.lock().unwrap();
        for s in streams
            .iter_mut()
            .filter(|s| s.groups.iter().any(|g| g == group))
        {
            let frame = wire::sse_frame(&format!("{}-{}", s.session, s.sent), &body);
            s.sent += 1;
            let _ = s.frames.send(frame);
        }
    }
}

/// An rc.83 access token: the older claims and `key_id` (REC §1 "JWT":
/// AUTH83 reads `claims.key_id`, which binds access to refresh).
fn rc83_jwt(iat: u64, n: u64, user: &str, family: u64) -> String {
    format!(
        "{}.{}.fake-signature",
        b64url(br#"{"alg":"HS256","typ":"JWT"}"#),
        b64url(
            json!({"iat": iat, "sub": user, "n": n, "key_id": format!("key-{family}")})
                .to_string()
                .as_bytes()
        )
    )
}

fn b64url_decode(s: &str) -> Option<Vec<u8>> {
    base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, s).ok()
}

/// Whether a token carries the `key_id` claim rc.83 requires.
fn rc83_has_key_id(token: &str) -> bool {
    token
        .split('.')
        .nth(1)
        .and_then(b64url_decode)
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .is_some_and(|v| v.get("key_id").is_some())
}

/// A trailing slash is no route on rc.83 (axum 0.8, rc.30 #3744): 404 with
/// an empty body, `content-length: 0` (REC §0 "Routing", "404 body").
fn rc83_trailing_slash() -> Response {
    Response::empty(404)
}

/// The first key of `body` (an object) that `allowed` lacks, and the serde
/// path message with its position: `key: unknown field ... at line 1 column
/// C`, C the 1-based column of the key's closing quote in `raw` (REC §0
/// "Unknown-key error"; the position rule from the live rc.32 fixture).
fn unknown_key(raw: &[u8], body: &Value, allowed: &[&str]) -> Option<(String, String)> {
    let key = body
        .as_object()?
        .keys()
        .find(|k| !allowed.contains(&k.as_str()))?
        .clone();
    let text = String::from_utf8_lossy(raw);
    let column = text
        .find(&format!("\"{key}\""))
        .map_or(1, |at| at + key.len() + 2);
    let detail = format!(
        "{key}: {} at line 1 column {column}",
        wire::serde_unknown_field(&key, allowed)
    );
    Some((key, detail))
}

/// The keys `POST /auth/REST` takes on rc.83 (AUTH83
/// `#[serde(deny_unknown_fields)]` on `BaseTokenRequest`,
/// `RefreshTokenRequest`, `LogoutRequest`; REC §1).
pub fn rc83_auth_keys(rest: &str) -> Option<&'static [&'static str]> {
    Some(match rest {
        "token" => &[
            "auth_method",
            "public_key",
            "client_name",
            "permissions",
            "timestamp",
            "provider_data",
        ],
        "refresh" => &["access_token", "refresh_token"],
        "logout" => &["refresh_token"],
        _ => return None,
    })
}

/// `POST /auth/token`, `/auth/refresh` and `/auth/logout` on rc.83: exact
/// keys (AUTH83 `#[serde(deny_unknown_fields)]` on `BaseTokenRequest`,
/// `RefreshTokenRequest`, `LogoutRequest`), 400 with the auth crate's body;
/// and the logout route itself (REC §1 "POST /auth/logout").
fn rc83_auth_refused(auth: &Auth, req: &Request, rest: &str, body: &Value) -> Option<Response> {
    if req.method != "POST" {
        return None;
    }
    let allowed = rc83_auth_keys(rest)?;
    if let Some((_, detail)) = unknown_key(&req.body, body, allowed) {
        return Some(Response::wire(400, wire::rc83_auth_invalid_json(&detail)));
    }
    if rest != "logout" {
        return None;
    }
    let refresh = body["refresh_token"].as_str().unwrap_or_default();
    let mut t = auth.tokens.lock().unwrap();
    match t.refresh.get(refresh).copied() {
        Some((family, false)) if !t.revoked.contains(&family) => {
            // The refresh token is retired; the access token, a stateless
            // JWT, lives until it expires (REC §1, *inferred*).
            t.refresh.insert(refresh.to_string(), (family, true));
            t.logged_out.push(refresh.to_string());
            Some(Response::wire(200, wire::rc83_logout_ok()))
        }
        // REC §1: 401 `Invalid refresh token: <err>` (the error text is
        // the JWT library's; this one is *inferred*).
        _ => Some(envelope(401, "Invalid refresh token: InvalidToken")),
    }
}

/// `execute`'s `params` on rc.83: exactly `contextId`, `method`, `argsJson`
/// (`deny_unknown_fields`; `executorPublicKey` is refused: REC §5, SWCL
/// "Changed"); the ParseError's text comes from a `Value`, so it has no
/// position (*inferred*, REC §5 "bad `params`").
fn rc83_execute_refused(p: Profile, params: &Value) -> Option<Value> {
    if !p.rc83() {
        return None;
    }
    const FIELDS: [&str; 3] = ["contextId", "method", "argsJson"];
    let key = params
        .as_object()?
        .keys()
        .find(|k| !FIELDS.contains(&k.as_str()))?;
    Some(json!({"type": "ParseError", "data": wire::serde_unknown_field(key, &FIELDS)}))
}

/// `POST /sse/subscription` on rc.83: `params` takes `contextIds` and
/// `groupIds` only (SSEP83 `deny_unknown_fields`); 400 ParseError otherwise
/// (REC §6 "Bad payload").
fn rc83_subscription_refused(p: Profile, body: &Value) -> Option<Response> {
    if !p.rc83() {
        return None;
    }
    const FIELDS: [&str; 2] = ["contextIds", "groupIds"];
    let key = body["params"]
        .as_object()?
        .keys()
        .find(|k| !FIELDS.contains(&k.as_str()))?;
    Some(Response::wire(
        400,
        wire::sse_parse_error(&wire::serde_unknown_field(key, &FIELDS)),
    ))
}

/// The groups a subscription asks for. rc.18 and later take `groupIds`
/// (hex; a bad one is a 400 ParseError, LIVE on rc.25); older nodes ignore
/// the key, and without `contextIds` refuse the body ("missing field
/// `contextIds`", LIVE on rc.4: research note §9).
fn subscription_groups(p: Profile, body: &Value) -> Result<Vec<String>, Response> {
    let params = &body["params"];
    if !p.sse_groups() {
        if params.get("contextIds").is_none() {
            return Err(Response::wire(
                400,
                wire::sse_parse_error("missing field `contextIds`"),
            ));
        }
        return Ok(Vec::new());
    }
    let groups: Vec<String> = params["groupIds"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    for g in &groups {
        if let Some((at, c)) = g.chars().enumerate().find(|(_, c)| !c.is_ascii_hexdigit()) {
            return Err(Response::wire(
                400,
                wire::sse_parse_error(&format!("Invalid character '{c}' at position {at}")),
            ));
        }
    }
    Ok(groups)
}

/// The keys each admin-API body rc.83 reads takes (`None`: not one of the
/// bodies calimcp sends, or one the node reads nothing of). REC §0 "Unknown
/// keys": refused on ~37 admin bodies since rc.38 and on every body at
/// rc.83. Only `POST /admin-api/contexts` has a row in the record (REC §3,
/// SW38 `testContextCreateCarriesNoProtocolOrAlias`); the rest are
/// *inferred*: the record has no rows for install, namespaces, invitations
/// or joins, so each takes the fields of its rc.25 struct — the fields
/// calimcp-node's `lifecycle.rs` sends and the rc.25 binary's serde tables
/// name (`InstallDevApplicationRequest` 4 fields, `InstallApplicationRequest`
/// 5, `CreateNamespaceApiRequest` 3 without `upgradePolicy`, which no rc.25
/// struct has, `JoinGroupApiRequest` 2, the invitation's
/// `expirationTimestamp`/`recursive`). Not here: the alias body is
/// `#[serde(flatten)]`, which serde cannot combine with
/// `deny_unknown_fields` (REC §4, unknown keys ignored, *inferred*); a
/// context join or delete reads no body on rc.25 (lifecycle.rs). The
/// install routes may be stricter than this: the name of the swift-sdk
/// fixture REC §0 cites, `rc32-install-application-url-refused`, says an
/// rc.32 node refused `url` there (docs/reference/merod-versions.md, row
/// rc.31); no body of it is in the record, so rc.25's keys stand.
pub fn rc83_admin_keys(method: &str, segs: &[&str]) -> Option<&'static [&'static str]> {
    Some(match (method, segs) {
        ("POST", ["admin-api", "install-dev-application"]) => {
            &["path", "metadata", "package", "version"]
        }
        ("POST", ["admin-api", "install-application"]) => {
            &["url", "hash", "metadata", "package", "version"]
        }
        ("POST", ["admin-api", "namespaces"]) => &["applicationId", "name"],
        ("POST", ["admin-api", "contexts"]) => &[
            "applicationId",
            "groupId",
            "initializationParams",
            "serviceName",
            "contextSeed",
            "identitySecret",
            "name",
        ],
        ("POST", ["admin-api", "namespaces", _, "invite"]) => &["expirationTimestamp", "recursive"],
        ("POST", ["admin-api", "namespaces", _, "join"]) => &["invitation", "groupName"],
        _ => return None,
    })
}

/// An admin-API body with a key rc.83 does not take: 400 with the
/// `ValidatedJson` text and serde's message at the key's position (REC §0
/// "Unknown-key error, admin `ValidatedJson` routes", the live rc.32 fixture
/// `rc32-install-application-url-refused.json`).
fn rc83_admin_refused(req: &Request, segs: &[&str]) -> Option<Response> {
    let allowed = rc83_admin_keys(&req.method, segs)?;
    let body: Value = serde_json::from_slice(&req.body).ok()?;
    let (_, detail) = unknown_key(&req.body, &body, allowed)?;
    Some(Response::wire(400, wire::rc83_admin_invalid_json(&detail)))
}

/// The typed refusal [`FakeNode::refuse_next_typed`] set, once.
fn rc83_typed(state: &State, req: &Request) -> Option<Response> {
    let mut slot = state.typed_refusal.lock().unwrap();
    if !slot
        .as_ref()
        .is_some_and(|(end, ..)| req.path.ends_with(end.as_str()))
    {
        return None;
    }
    let (_, status, message) = slot.take()?;
    Some(Response::error(status, &message))
}
