//! State rules: the stored layout of `state_root`, `state_version` and
//! `migrations`, compared the way the node reads stored state, and the
//! verdict of a node's upgrade gate on the release as declared.
//!
//! The stored state model (read from calimero-network/core at 051f0848,
//! August 2026, not guessed):
//! - the root is one borsh blob: `Entry<T>` = `borsh(T) ++ Element.id`
//!   (calimero-sdk `src/state.rs` `read_raw`, calimero-storage
//!   `src/collections.rs` `Entry`), read back with `borsh::from_slice`, so
//!   fields are read by position and names are not stored;
//! - a collection field (`UnorderedMap`, `Vector`, …) is a handle: its
//!   `Collection` serialises only its `Element` id (32 bytes), the entries
//!   live under their own ids; `LwwRegister<T>` stores `T`, a timestamp and a
//!   node id; borsh writes an enum as its case index (one byte) then the
//!   case's payload, and `Option<T>` as a tag byte then `T`;
//! - with an unchanged `state_version` an upgrade swaps the code only and the
//!   new code reads the old bytes in place (calimero-context
//!   `src/handlers/upgrade_group.rs`: "A code-only upgrade does not transform
//!   existing state — the new bytecode reads the old data in place, so an
//!   incompatible top-level type change fails to deserialize"); Calimero's
//!   own `apps/migrations/migration-suite-v2-add-field` adds a root field
//!   with `version = 2` and a `#[derive(app::Migrate)]` from v1.
//!
//! So a root field appended, inserted, removed or moved, or any nested
//! change in how a stored type reads by position, breaks stored state unless
//! a migration carries it; a field or case renamed in place, or a case
//! appended to an enum, still reads (a warning). Verdicts follow the bytes:
//! `UnorderedMap` ↔ `SortedMap` (and the sets) keep handle, entries and merge
//! (calimero-storage `collections/sorted_map.rs` at 0.11.0-rc.25) and a
//! zero-byte field (`()`) reads nothing ([`LayoutKind::Same`]); `String` →
//! `Vec<u8>` is the same borsh read as raw bytes
//! ([`LayoutKind::Reinterpreted`]), while `Vec<u8>` → `String` breaks: borsh
//! checks UTF-8 when it reads a `String` (borsh 1.8 `de/mod.rs`).
//!
//! Other sources:
//! - identity-gated CRDTs: `collection_category` in calimero-wasm-abi
//!   1.0.0-rc.8 `src/schema.rs` (`authored_map`, `authored_sorted_map`,
//!   `authored_vector`, `shared_storage` are `IdentityGated`);
//! - identity downgrade: `identity_downgrades` in calimero-wasm-abi
//!   1.0.0-rc.8 `src/downgrade.rs` — the node's L1 gate: a top-level field
//!   whose old type is identity-gated *or unresolvable* (fail closed) and whose
//!   new type is not definitely gated, or which is gone; `$ref`/alias hops
//!   followed up to depth 32; both-unresolvable fields carried through;
//! - the upgrade gate: `plan_upgrade` in calimero-context 0.11.0-rc.4
//!   `src/migration_plan.rs` and `resolve_upgrade_from_abis` /
//!   `verify_no_identity_downgrade` in `src/handlers/upgrade_group.rs`:
//!   versions default to 1; equal → code only; one higher with an edge from
//!   the old version → migrate (and then the identity gate runs); one higher
//!   without → rejected; more than one higher → rejected; lower → rejected.

use super::follow::{End, follow};
use crate::abi::*;

/// How a field's top-level type reads to the identity gate.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Top {
    Crdt(String),
    Plain,
    Unresolvable,
}

/// `collection_category(..) == IdentityGated` (calimero-wasm-abi 1.0.0-rc.8).
pub(crate) fn is_identity_gated_tag(tag: &str) -> bool {
    matches!(
        tag,
        "authored_map" | "authored_sorted_map" | "authored_vector" | "shared_storage"
    )
}

fn top_crdt(t: &TypeRef) -> Option<&Crdt> {
    match t {
        TypeRef::List { crdt, .. } | TypeRef::Map { crdt, .. } | TypeRef::Tuple { crdt, .. } => {
            crdt.as_ref()
        }
        TypeRef::Record(r) => r.crdt.as_ref(),
        _ => None,
    }
}

/// `resolve_top_level` of downgrade.rs.
fn top_level(m: &Manifest, t: &TypeRef, depth: u8) -> Top {
    if depth > 32 {
        return Top::Unresolvable;
    }
    if let Some(c) = top_crdt(t) {
        return if Crdt::KNOWN.contains(&c.0.as_str()) {
            Top::Crdt(c.0.clone())
        } else {
            Top::Unresolvable
        };
    }
    match t {
        TypeRef::Ref(name) => match m.types.get(name).map(|d| &d.kind) {
            Some(TypeDefKind::Alias(target)) => top_level(m, target, depth + 1),
            Some(TypeDefKind::Unknown(_)) | None => Top::Unresolvable,
            Some(_) => Top::Plain,
        },
        TypeRef::Unknown(_) => Top::Unresolvable,
        _ => Top::Plain,
    }
}

fn label(top: &Top) -> String {
    match top {
        Top::Crdt(c) => c.clone(),
        Top::Plain => "plain".into(),
        Top::Unresolvable => "(unresolved)".into(),
    }
}

/// The fields of the state root record, if the manifest has one.
pub(crate) fn root_fields(m: &Manifest) -> Option<&[Field]> {
    let root = m.state_root.as_deref()?;
    match &m.types.get(root)?.kind {
        TypeDefKind::Record(r) => Some(&r.fields),
        _ => None,
    }
}

/// One top-level state field whose identity gating is stripped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Downgrade {
    pub field: String,
    pub from: String,
    pub to: String,
}

/// `identity_downgrades(old, new)` of calimero-wasm-abi 1.0.0-rc.8, on calimcp's model.
pub(crate) fn identity_downgrades(old: &Manifest, new: &Manifest) -> Vec<Downgrade> {
    let new_fields = root_fields(new).unwrap_or(&[]);
    let mut out = Vec::new();
    for f in root_fields(old).unwrap_or(&[]) {
        let from = top_level(old, &f.ty, 0);
        let gated_or_unknown = match &from {
            Top::Crdt(c) => is_identity_gated_tag(c),
            Top::Plain => false,
            Top::Unresolvable => true,
        };
        if !gated_or_unknown {
            continue;
        }
        match new_fields.iter().find(|nf| nf.name == f.name) {
            None => out.push(Downgrade {
                field: f.name.clone(),
                from: label(&from),
                to: "(removed)".into(),
            }),
            Some(nf) => {
                let to = top_level(new, &nf.ty, 0);
                let still_gated = matches!(&to, Top::Crdt(c) if is_identity_gated_tag(c));
                let carried = from == Top::Unresolvable && to == Top::Unresolvable;
                if !(still_gated || carried) {
                    out.push(Downgrade {
                        field: f.name.clone(),
                        from: label(&from),
                        to: label(&to),
                    });
                }
            }
        }
    }
    out
}

/// What a node does with the release, per `plan_upgrade`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Action {
    CodeOnly,
    Migrate { method: String, from: u32, to: u32 },
    Behind { from: u32, to: u32 },
    Downgrade { from: u32, to: u32 },
    MissingEdge { from: u32, to: u32 },
}

/// `plan_upgrade(current, target)` of calimero-context 0.11.0-rc.4.
pub(crate) fn plan_upgrade(old: &Manifest, new: &Manifest) -> Action {
    let from = old.state_version.unwrap_or(1);
    let to = new.state_version.unwrap_or(1);
    if from == to {
        return Action::CodeOnly;
    }
    if to < from {
        return Action::Downgrade { from, to };
    }
    if to == from + 1 {
        return match new.migrations.iter().find(|e| e.from_version == from) {
            Some(edge) => Action::Migrate {
                method: edge.method.clone(),
                from,
                to,
            },
            None => Action::MissingEdge { from, to },
        };
    }
    Action::Behind { from, to }
}

// ------------------------------------------------------------------ stored layout

/// Nested type comparisons followed before the comparison stops and says so
/// (a chain of distinct named types this long is not a real app).
pub(crate) const MAX_LAYOUT_DEPTH: u32 = 512;

/// How a stored value changed, by position: what the new code reads from
/// bytes the old code wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LayoutChange {
    /// Path segments inside the field, outermost first: `.field`, `[]`,
    /// `{}` (map value), `{key}`, `[i]`, `<Case>`.
    pub path: String,
    pub old: String,
    pub new: String,
    pub why: String,
    pub kind: LayoutKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LayoutKind {
    /// Old bytes no longer decode, or decode into something else.
    Breaking,
    /// A name changed where borsh stores none (a field, an enum case).
    Renamed,
    /// A case appended to an enum: old values keep their index.
    CaseAdded,
    /// The comparison hit [`MAX_LAYOUT_DEPTH`] and could not decide.
    Limit,
    /// The type changed but reads the same bytes with the same meaning
    /// (`UnorderedMap` ↔ `SortedMap`, a zero-byte field added or removed).
    Same,
    /// Every old value decodes under the new type, which reads it as
    /// something else (`String` → `Vec<u8>`: its UTF-8 bytes).
    Reinterpreted,
}

/// Collections whose handle, entries and merge are the same (calimero-storage
/// at 0.11.0-rc.25, `collections/sorted_map.rs`: "stores its entries exactly
/// like UnorderedMap … identical CRDT merge semantics … and on-wire byte
/// layout"; `sorted_set.rs` likewise for UnorderedSet): the sorted one only
/// adds a node-local key index, rebuilt on its first ordered read.
fn same_collection(a: &Crdt, b: &Crdt) -> bool {
    let family = |c: &Crdt| match c.0.as_str() {
        "unordered_map" | "sorted_map" => Some("map"),
        "unordered_set" | "sorted_set" => Some("set"),
        _ => None,
    };
    family(a).is_some() && family(a) == family(b)
}

/// A value borsh writes as zero bytes: `()`, and records and tuples of
/// nothing else (an `Option` writes a tag byte, so a nullable one is not).
fn zero_size(m: &Manifest, t: &TypeRef, depth: u32) -> bool {
    if depth > 32 {
        return false;
    }
    match stored(m, t).0 {
        Stored::Scalar(Scalar::Unit) => true,
        Stored::Record(fields) => fields
            .iter()
            .all(|f| !f.nullable && zero_size(m, &f.ty, depth + 1)),
        Stored::Tuple(elements) => elements.iter().all(|e| zero_size(m, e, depth + 1)),
        _ => false,
    }
}

/// `fields` without those borsh writes as zero bytes (they read nothing, so
/// they cannot move another field's bytes), and the ones left out.
pub(crate) fn stored_fields<'f>(
    m: &Manifest,
    fields: &'f [Field],
) -> (Vec<&'f Field>, Vec<&'f Field>) {
    let (zero, kept): (Vec<&Field>, Vec<&Field>) = fields
        .iter()
        .partition(|f| !f.nullable && zero_size(m, &f.ty, 0));
    (kept, zero)
}

/// A type with references and aliases followed, as borsh stores it.
enum Stored<'m> {
    Scalar(Scalar),
    /// `[u8; N]` has no length prefix, `Vec<u8>` has one.
    Bytes(Option<u64>),
    List(&'m TypeRef, Option<&'m Crdt>),
    Map(&'m TypeRef, &'m TypeRef, Option<&'m Crdt>),
    Tuple(&'m [TypeRef]),
    /// A CRDT cell (`LwwRegister<T>`: T plus a timestamp and node id) or an
    /// opaque CRDT (`Counter`): its tag and inner type.
    Cell(&'m Crdt, Option<&'m TypeRef>),
    Record(&'m [Field]),
    Variant(&'m Variant),
    Unknown(&'m str),
}

fn stored<'m>(m: &'m Manifest, t: &'m TypeRef) -> (Stored<'m>, Option<&'m str>) {
    follow(m, t, Stored::Unknown("alias cycle"), |end| {
        Ok(match end {
            End::Def(TypeDefKind::Record(r)) | End::Inline(TypeRef::Record(r)) => record_stored(r),
            End::Def(TypeDefKind::Variant(v)) => Stored::Variant(v),
            End::Def(TypeDefKind::Bytes(b)) | End::Inline(TypeRef::Bytes(b)) => {
                Stored::Bytes(b.size.filter(|&n| n > 0))
            }
            End::Def(TypeDefKind::Unknown(k)) | End::Inline(TypeRef::Unknown(k)) => {
                Stored::Unknown(k)
            }
            End::Dangling => Stored::Unknown("dangling"),
            End::Inline(TypeRef::Scalar(s)) => Stored::Scalar(*s),
            End::Inline(TypeRef::List { items, crdt }) => Stored::List(items, crdt.as_ref()),
            End::Inline(TypeRef::Map { key, value, crdt }) => {
                Stored::Map(key, value, crdt.as_ref())
            }
            End::Inline(TypeRef::Tuple { elements, .. }) => Stored::Tuple(elements),
            // Aliases and references never end a walk.
            End::Def(TypeDefKind::Alias(_)) | End::Inline(TypeRef::Ref(_)) => {
                Stored::Unknown("alias cycle")
            }
        })
    })
}

fn record_stored(r: &Record) -> Stored<'_> {
    match &r.crdt {
        Some(c) => Stored::Cell(c, r.inner.as_deref()),
        None => Stored::Record(&r.fields),
    }
}

fn stored_kind(s: &Stored) -> String {
    match s {
        Stored::Scalar(s) => s.name().into(),
        Stored::Bytes(Some(n)) => format!("bytes[{n}]"),
        Stored::Bytes(None) => "bytes".into(),
        Stored::List(_, Some(c)) | Stored::Map(_, _, Some(c)) | Stored::Cell(c, _) => {
            crate::text::sanitize_line(&c.0)
        }
        Stored::List(..) => "a list".into(),
        Stored::Map(..) => "a map".into(),
        Stored::Tuple(e) => format!("a {}-tuple", e.len()),
        Stored::Record(_) => "a record".into(),
        Stored::Variant(_) => "an enum".into(),
        Stored::Unknown(_) => "unknown".into(),
    }
}

/// Compares stored layouts the way borsh reads them: by position, names
/// ignored, enums by case index. One comparator per pair of manifests:
/// named pairs already compared are not compared again (a pair met again
/// is assumed unchanged while it is being compared, and its breaking change,
/// if any, is remembered), so every pair is compared once.
pub(crate) struct Layout<'a> {
    a: &'a Manifest,
    b: &'a Manifest,
    /// Named pairs compared or being compared; `Some` is their breaking change
    /// (path relative to the pair).
    seen: std::collections::HashMap<(&'a str, &'a str), Option<LayoutChange>>,
    /// Pairs first met in the current [`Layout::compare`]: when it fails,
    /// those decided on an assumption that failed are forgotten.
    fresh: Vec<(&'a str, &'a str)>,
    path: String,
    depth: u32,
    /// Renames and appended cases met on the way (absolute paths, each once).
    pub notes: Vec<LayoutChange>,
    /// Named types identical in both manifests, down to what they reach.
    same: Option<&'a std::collections::HashSet<String>>,
}

impl<'a> Layout<'a> {
    pub(crate) fn new(a: &'a Manifest, b: &'a Manifest) -> Self {
        Layout {
            a,
            b,
            seen: std::collections::HashMap::new(),
            fresh: Vec::new(),
            path: String::new(),
            depth: 0,
            notes: Vec::new(),
            same: None,
        }
    }

    /// Skips a named type against itself when it is in `same`.
    pub(crate) fn with_unchanged(mut self, same: &'a std::collections::HashSet<String>) -> Self {
        self.same = Some(same);
        self
    }

    /// The first breaking change of `ta` → `tb` (path relative to them);
    /// renames and appended cases are added to `notes` with `prefix`.
    pub(crate) fn compare(
        &mut self,
        prefix: &str,
        ta: &'a TypeRef,
        na: bool,
        tb: &'a TypeRef,
        nb: bool,
    ) -> Option<LayoutChange> {
        self.path.clear();
        self.path.push_str(prefix);
        self.fresh.clear();
        let r = self.opt(ta, na, tb, nb).err();
        if r.is_some() {
            for k in std::mem::take(&mut self.fresh) {
                if matches!(self.seen.get(&k), Some(None)) {
                    self.seen.remove(&k);
                }
            }
        }
        r.map(|mut c| {
            c.path = c.path[prefix.len().min(c.path.len())..].to_string();
            c
        })
    }

    fn fail(&self, old: String, new: String, why: String) -> Result<(), LayoutChange> {
        Err(LayoutChange {
            path: self.path.clone(),
            old,
            new,
            why,
            kind: LayoutKind::Breaking,
        })
    }

    fn note(&mut self, kind: LayoutKind, old: String, new: String, why: String) {
        if !self
            .notes
            .iter()
            .any(|n| n.path == self.path && n.kind == kind)
        {
            self.notes.push(LayoutChange {
                path: self.path.clone(),
                old,
                new,
                why,
                kind,
            });
        }
    }

    fn within(
        &mut self,
        seg: &str,
        f: impl FnOnce(&mut Self) -> Result<(), LayoutChange>,
    ) -> Result<(), LayoutChange> {
        let len = self.path.len();
        self.path.push_str(seg);
        let r = f(self);
        self.path.truncate(len);
        r
    }

    fn opt(
        &mut self,
        ta: &'a TypeRef,
        na: bool,
        tb: &'a TypeRef,
        nb: bool,
    ) -> Result<(), LayoutChange> {
        match (na, nb) {
            (false, true) => self.fail(
                type_label(ta),
                format!("{}?", type_label(tb)),
                "became an Option: borsh now reads a tag byte the old bytes do not have".into(),
            ),
            (true, false) => self.fail(
                format!("{}?", type_label(ta)),
                type_label(tb),
                "is no longer an Option: borsh no longer reads the tag byte the old bytes start with".into(),
            ),
            _ => self.ty(ta, tb),
        }
    }

    fn ty(&mut self, ta: &'a TypeRef, tb: &'a TypeRef) -> Result<(), LayoutChange> {
        if self.depth >= MAX_LAYOUT_DEPTH {
            return Err(LayoutChange {
                path: self.path.clone(),
                old: type_label(ta),
                new: type_label(tb),
                why: format!(
                    "the types nest more than {MAX_LAYOUT_DEPTH} deep, so calimcp stopped comparing here (not checked)"
                ),
                kind: LayoutKind::Limit,
            });
        }
        let (sa, na) = stored(self.a, ta);
        let (sb, nb) = stored(self.b, tb);
        let key = na.zip(nb);
        if let (Some((x, y)), Some(same)) = (key, self.same)
            && x == y
            && same.contains(x)
        {
            return Ok(());
        }
        let start = self.path.len();
        if let Some(key) = key {
            if let Some(done) = self.seen.get(&key) {
                return match done {
                    None => Ok(()),
                    Some(c) => Err(LayoutChange {
                        path: format!("{}{}", self.path, c.path),
                        ..c.clone()
                    }),
                };
            }
            self.seen.insert(key, None);
            self.fresh.push(key);
        }
        self.depth += 1;
        let r = self.shapes(ta, tb, &sa, &sb);
        self.depth -= 1;
        // Past the limit is remembered too (as undecided, never unchanged).
        if let (Some(key), Err(c)) = (key, &r) {
            let rel = LayoutChange {
                path: c.path.get(start..).unwrap_or("").to_string(),
                ..c.clone()
            };
            self.seen.insert(key, Some(rel));
        }
        r
    }

    fn shapes(
        &mut self,
        ta: &'a TypeRef,
        tb: &'a TypeRef,
        sa: &Stored<'a>,
        sb: &Stored<'a>,
    ) -> Result<(), LayoutChange> {
        use Stored as S;
        match (sa, sb) {
            (S::Scalar(x), S::Scalar(y)) if x == y => Ok(()),
            (S::Bytes(x), S::Bytes(y)) if x == y => Ok(()),
            (S::List(x, cx), S::List(y, cy)) if cx == cy => self.within("[]", |l| l.ty(x, y)),
            (S::Map(kx, vx, cx), S::Map(ky, vy, cy)) if cx == cy => {
                self.within("{key}", |l| l.ty(kx, ky))?;
                self.within("{}", |l| l.ty(vx, vy))
            }
            (S::Map(kx, vx, Some(cx)), S::Map(ky, vy, Some(cy))) if same_collection(cx, cy) => {
                self.within("{key}", |l| l.ty(kx, ky))?;
                self.within("{}", |l| l.ty(vx, vy))?;
                self.same_collection_note(cx, cy);
                Ok(())
            }
            (S::List(x, Some(cx)), S::List(y, Some(cy))) if same_collection(cx, cy) => {
                self.within("[]", |l| l.ty(x, y))?;
                self.same_collection_note(cx, cy);
                Ok(())
            }
            (S::Scalar(Scalar::String), S::Bytes(None))
            | (S::Bytes(None), S::Scalar(Scalar::String)) => {
                self.string_and_bytes(ta, tb, matches!(sa, S::Bytes(_)))
            }
            (S::Tuple(x), S::Tuple(y)) if x.len() == y.len() => {
                for (i, (ex, ey)) in x.iter().zip(y.iter()).enumerate() {
                    self.within(&format!("[{i}]"), |l| l.ty(ex, ey))?;
                }
                Ok(())
            }
            (S::Cell(cx, ix), S::Cell(cy, iy)) if cx == cy => match (ix, iy) {
                (Some(x), Some(y)) => self.ty(x, y),
                (None, None) => Ok(()),
                _ => self.fail(
                    type_label(ta),
                    type_label(tb),
                    "the CRDT's inner type appeared or disappeared".into(),
                ),
            },
            (S::Record(x), S::Record(y)) => self.fields(x, y),
            (S::Variant(x), S::Variant(y)) => self.cases(x, y),
            (S::Unknown(x), S::Unknown(y)) if x == y => Ok(()),
            (S::Unknown(_), _) | (_, S::Unknown(_)) => self.fail(
                type_label(ta),
                type_label(tb),
                "a type calimcp does not know is involved, so the stored layout cannot be checked"
                    .into(),
            ),
            _ => {
                let (x, y) = (stored_kind(sa), stored_kind(sb));
                let why = if x == y {
                    format!("{x} changed its stored form")
                } else {
                    format!("{x} became {y}: the old bytes do not decode as the new type")
                };
                self.fail(type_label(ta), type_label(tb), why)
            }
        }
    }

    /// A string that became bytes, or bytes that became a string
    /// (`to_string`).
    fn string_and_bytes(
        &mut self,
        ta: &'a TypeRef,
        tb: &'a TypeRef,
        to_string: bool,
    ) -> Result<(), LayoutChange> {
        if to_string {
            // borsh 1.x reads `String` as `String::from_utf8(Vec<u8>)` and
            // fails with InvalidData otherwise (de/mod.rs).
            return self.fail(
                type_label(ta),
                type_label(tb),
                "bytes became a string: borsh reads a string as bytes and then checks UTF-8, so any stored value that is not valid UTF-8 no longer loads".into(),
            );
        }
        // borsh 1.x writes `String` as its `as_bytes()` (ser/mod.rs), so
        // the old bytes read as `Vec<u8>` unchanged; a set item's entry
        // id is `compute_id(parent, value.as_ref())` (calimero-storage
        // `collections/unordered_set.rs`), the same bytes for both.
        self.note(
            LayoutKind::Reinterpreted,
            type_label(ta),
            type_label(tb),
            "a string became bytes: borsh writes both as a u32 length then the bytes, and every string is valid bytes (a set item keeps its id, the hash of those bytes), so every stored value reads, now as its UTF-8 bytes".into(),
        );
        Ok(())
    }

    /// The outcome `r` of comparing a record's field or an enum's case
    /// (`what`: "field" or "case", its position and how borsh reads it) at
    /// `seg`, whose name went from `old` to `new`: a failure says the name
    /// changed, and a rename that decodes alike is noted.
    fn member(
        &mut self,
        r: Result<(), LayoutChange>,
        seg: &str,
        (what, i, how): (&str, usize, &str),
        old: &str,
        new: &str,
    ) -> Result<(), LayoutChange> {
        if old == new {
            return r;
        }
        r.map_err(|mut c| {
            c.why = format!(
                "{what} {i} was `{old}` and is now `{new}` ({}): {how}",
                c.why
            );
            c
        })?;
        let len = self.path.len();
        self.path.push_str(seg);
        self.note(
            LayoutKind::Renamed,
            old.to_string(),
            new.to_string(),
            format!("{what} {i} was renamed from `{old}`"),
        );
        self.path.truncate(len);
        Ok(())
    }

    fn same_collection_note(&mut self, a: &Crdt, b: &Crdt) {
        use crate::text::sanitize_line as clean;
        self.note(
            LayoutKind::Same,
            clean(&a.0),
            clean(&b.0),
            format!(
                "{} became {}: the same handle, entries and merge (calimero-storage: the sorted collection stores its entries exactly like the unordered one and only adds a node-local key index, built on its first ordered read), so the stored state reads unchanged",
                clean(&a.0),
                clean(&b.0)
            ),
        );
    }

    /// Record fields by position (borsh writes no names); fields of zero
    /// bytes (`()`) read nothing and are set aside first.
    fn fields(&mut self, x: &'a [Field], y: &'a [Field]) -> Result<(), LayoutChange> {
        let (xs, xz) = stored_fields(self.a, x);
        let (ys, yz) = stored_fields(self.b, y);
        for (f, added) in yz
            .iter()
            .map(|f| (f, true))
            .chain(xz.iter().map(|f| (f, false)))
        {
            let other = if added { &xz } else { &yz };
            if other.iter().any(|g| g.name == f.name) {
                continue;
            }
            let len = self.path.len();
            self.path.push_str(&format!(".{}", f.name));
            let (old, new, verb) = if added {
                ("(absent)".to_string(), field_label(f), "added")
            } else {
                (field_label(f), "(removed)".to_string(), "removed")
            };
            self.note(
                LayoutKind::Same,
                old,
                new,
                format!("field `{}` of zero bytes ({}) was {verb}: borsh reads nothing for it, so the stored state reads as before", f.name, type_label(&f.ty)),
            );
            self.path.truncate(len);
        }
        self.by_position(&xs, &ys)
    }

    fn by_position(&mut self, x: &[&'a Field], y: &[&'a Field]) -> Result<(), LayoutChange> {
        for (i, (fx, fy)) in x.iter().zip(y).enumerate() {
            if fx.name != fy.name
                && let Some(j) = y.iter().position(|f| f.name == fx.name)
            {
                let why = swap_why(fx, fy);
                return self.within(&format!(".{}", fx.name), |l| {
                    l.fail(
                        format!("position {i}"),
                        format!("position {j}"),
                        format!(
                            "field `{}` moved from position {i} to {j}: fields are read by position, so it reads the bytes of another field{why}",
                            fx.name
                        ),
                    )
                });
            }
            let seg = format!(".{}", fy.name);
            let r = self.within(&seg, |l| l.opt(&fx.ty, fx.nullable, &fy.ty, fy.nullable));
            let how = "fields are read by position";
            self.member(r, &seg, ("field", i, how), &fx.name, &fy.name)?;
        }
        match x.len().cmp(&y.len()) {
            std::cmp::Ordering::Less => {
                let f = &y[x.len()];
                self.within(&format!(".{}", f.name), |l| {
                    l.fail(
                        "(absent)".into(),
                        field_label(f),
                        format!(
                            "field `{}` was added at position {}: the old bytes end before it, so they no longer decode",
                            f.name,
                            x.len()
                        ),
                    )
                })
            }
            std::cmp::Ordering::Greater => {
                let f = &x[y.len()];
                self.within(&format!(".{}", f.name), |l| {
                    l.fail(
                        field_label(f),
                        "(removed)".into(),
                        format!(
                            "field `{}` (position {}) is gone: the old bytes carry it, so they no longer decode",
                            f.name,
                            y.len()
                        ),
                    )
                })
            }
            std::cmp::Ordering::Equal => Ok(()),
        }
    }

    /// Enum cases by index (borsh writes the case index as one byte).
    fn cases(&mut self, x: &'a Variant, y: &'a Variant) -> Result<(), LayoutChange> {
        for (i, (cx, cy)) in x.variants.iter().zip(&y.variants).enumerate() {
            if cx.name != cy.name
                && let Some(j) = y.variants.iter().position(|c| c.name == cx.name)
            {
                return self.within(&format!("<{}>", cx.name), |l| {
                    l.fail(
                        format!("index {i}"),
                        format!("index {j}"),
                        format!(
                            "case `{}` moved from index {i} to {j}: borsh stores the case index, so stored `{}` values now read as `{}`",
                            cx.name, cx.name, cy.name
                        ),
                    )
                });
            }
            let seg = format!("<{}>", cy.name);
            let r = self.within(&seg, |l| match (&cx.payload, &cy.payload) {
                (Some(px), Some(py)) => l.ty(px, py),
                (None, None) => Ok(()),
                _ => l.fail(
                    case_label(cx),
                    case_label(cy),
                    format!("case {i} gained or lost its payload"),
                ),
            });
            let how = "borsh stores the case index, not its name";
            self.member(r, &seg, ("case", i, how), &cx.name, &cy.name)?;
        }
        if x.variants.len() > y.variants.len() {
            let c = &x.variants[y.variants.len()];
            return self.within(&format!("<{}>", c.name), |l| {
                l.fail(
                    case_label(c),
                    "(removed)".into(),
                    format!(
                        "case `{}` (index {}) is gone: stored values of it no longer decode",
                        c.name,
                        y.variants.len()
                    ),
                )
            });
        }
        for (i, c) in y.variants.iter().enumerate().skip(x.variants.len()) {
            let len = self.path.len();
            self.path.push_str(&format!("<{}>", c.name));
            self.note(
                LayoutKind::CaseAdded,
                "(absent)".into(),
                case_label(c),
                format!("case `{}` was appended at index {i}", c.name),
            );
            self.path.truncate(len);
        }
        Ok(())
    }
}

/// Why two fields whose names swapped places read as moved, not renamed in
/// place, when their types are equal (the bytes decode either way).
pub(crate) fn swap_why(a: &Field, b: &Field) -> String {
    if a.ty != b.ty || a.nullable != b.nullable {
        return String::new();
    }
    format!(
        " (their types are equal, so the bytes decode either way and this could be two renames in place; calimcp reads it as a move because a name keeps its meaning across versions: code that reads `{}` now gets the value stored as `{}`, silently)",
        a.name, b.name
    )
}

fn type_label(t: &TypeRef) -> String {
    crate::mapping::signature::type_name(t)
}

fn field_label(f: &Field) -> String {
    let t = type_label(&f.ty);
    if f.nullable { format!("{t}?") } else { t }
}

fn case_label(c: &VariantCase) -> String {
    match &c.payload {
        Some(p) => format!("{}({})", c.name, type_label(p)),
        None => c.name.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(json: &str) -> Manifest {
        crate::abi::parse_manifest_value(&serde_json::from_str(json).unwrap(), &mut Vec::new())
            .unwrap()
    }

    #[test]
    fn zero_byte_types_are_unit_and_what_holds_only_unit() {
        let m = manifest(
            r#"{"schema_version":"wasm-abi/1","methods":[],"types":{
            "Marker":{"kind":"record","fields":[]},
            "Pair":{"kind":"record","fields":[{"name":"a","type":{"kind":"unit"}},{"name":"b","type":{"$ref":"Marker"}}]},
            "Opt":{"kind":"record","fields":[{"name":"a","type":{"kind":"unit"},"nullable":true}]},
            "Loop":{"kind":"record","fields":[{"name":"l","type":{"$ref":"Loop"}}]}}}"#,
        );
        let r = |n: &str| TypeRef::Ref(n.into());
        assert!(zero_size(&m, &TypeRef::Scalar(Scalar::Unit), 0));
        assert!(zero_size(&m, &r("Marker"), 0));
        assert!(zero_size(&m, &r("Pair"), 0));
        // An Option writes a tag byte; a self-reference never ends (not zero, no hang).
        assert!(!zero_size(&m, &r("Opt"), 0));
        assert!(!zero_size(&m, &r("Loop"), 0));
        assert!(!zero_size(&m, &TypeRef::Scalar(Scalar::U32), 0));
    }

    #[test]
    fn only_the_unordered_and_sorted_of_one_family_are_the_same_collection() {
        let c = |s: &str| Crdt(s.into());
        assert!(same_collection(&c("unordered_map"), &c("sorted_map")));
        assert!(same_collection(&c("sorted_set"), &c("unordered_set")));
        assert!(!same_collection(&c("unordered_map"), &c("unordered_set")));
        assert!(!same_collection(
            &c("authored_map"),
            &c("authored_sorted_map")
        ));
        assert!(!same_collection(&c("vector"), &c("vector")));
    }

    fn compare_root(old: &str, new: &str) -> (Option<LayoutChange>, Vec<LayoutChange>) {
        let m = |t: &str| {
            manifest(&format!(
                r#"{{"schema_version":"wasm-abi/1","methods":[],"state_root":"S","types":{{
                "S":{{"kind":"record","fields":[{{"name":"f","type":{t}}}]}}}}}}"#
            ))
        };
        let (a, b) = (m(old), m(new));
        let (ta, tb) = (TypeRef::Ref("S".into()), TypeRef::Ref("S".into()));
        let mut l = Layout::new(&a, &b);
        let r = l.compare("state", &ta, false, &tb, false);
        (r, l.notes)
    }

    #[test]
    fn bytes_read_as_a_string_break_because_borsh_checks_utf8() {
        let (r, notes) = compare_root(r#"{"kind":"bytes"}"#, r#"{"kind":"string"}"#);
        let c = r.expect("bytes → string is breaking");
        assert_eq!(c.kind, LayoutKind::Breaking);
        assert_eq!(c.path, ".f");
        assert!(c.why.contains("UTF-8"), "{}", c.why);
        assert!(notes.is_empty());
    }

    #[test]
    fn a_string_read_as_bytes_is_compatible_also_as_a_set_item() {
        for (old, new) in [
            (r#"{"kind":"string"}"#, r#"{"kind":"bytes"}"#),
            (
                r#"{"kind":"list","items":{"kind":"string"},"crdt_type":"unordered_set"}"#,
                r#"{"kind":"list","items":{"kind":"bytes"},"crdt_type":"unordered_set"}"#,
            ),
        ] {
            let (r, notes) = compare_root(old, new);
            assert!(r.is_none(), "{old} → {new}: {r:?}");
            assert_eq!(notes.len(), 1, "{old} → {new}");
            assert_eq!(notes[0].kind, LayoutKind::Reinterpreted);
        }
        // A set of bytes read as a set of strings breaks like the plain field.
        let (r, _) = compare_root(
            r#"{"kind":"list","items":{"kind":"bytes"},"crdt_type":"unordered_set"}"#,
            r#"{"kind":"list","items":{"kind":"string"},"crdt_type":"unordered_set"}"#,
        );
        assert_eq!(r.expect("breaking").path, ".f[]");
    }
}
