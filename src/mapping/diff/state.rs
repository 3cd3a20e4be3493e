//! State rules: the top-level fields of `state_root`, `state_version` and
//! `migrations`, classified the way Calimero's own tools do, and the verdict
//! of a node's upgrade gate on the release as declared.
//!
//! Sources (read, not guessed):
//! - identity-gated CRDTs: `collection_category` in calimero-wasm-abi
//!   1.0.0-rc.8 `src/schema.rs` (`authored_map`, `authored_sorted_map`,
//!   `authored_vector`, `shared_storage` are `IdentityGated`);
//! - identity downgrade: `identity_downgrades` in calimero-wasm-abi
//!   1.0.0-rc.8 `src/downgrade.rs` — the node's L1 gate: a top-level field
//!   whose old type is identity-gated *or unresolvable* (fail closed) and whose
//!   new type is not definitely gated, or which is gone; `$ref`/alias hops
//!   followed up to depth 32; both-unresolvable fields carried through;
//! - additive / breaking per field: `calimero-abi diff`
//!   (calimero-network/core `tools/calimero-abi/src/diff.rs`): a field added
//!   is additive; removed or with a different fully resolved type is breaking
//!   (needs a migration);
//! - the upgrade gate: `plan_upgrade` in calimero-context 0.11.0-rc.4
//!   `src/migration_plan.rs` and `resolve_upgrade_from_abis` /
//!   `verify_no_identity_downgrade` in `src/handlers/upgrade_group.rs`:
//!   versions default to 1; equal → code only; one higher with an edge from
//!   the old version → migrate (and then the identity gate runs); one higher
//!   without → rejected; more than one higher → rejected; lower → rejected.

use std::collections::HashSet;

use crate::abi::*;

/// How a field's top-level type reads to the identity gate.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Top {
    Crdt(String),
    Plain,
    Unresolvable,
}

/// `collection_category(..) == IdentityGated` (calimero-wasm-abi 1.0.0-rc.8).
pub fn is_identity_gated_tag(tag: &str) -> bool {
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
pub fn root_fields(m: &Manifest) -> Option<&[Field]> {
    let root = m.state_root.as_deref()?;
    match &m.types.get(root)?.kind {
        TypeDefKind::Record(r) => Some(&r.fields),
        _ => None,
    }
}

/// One top-level state field whose identity gating is stripped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Downgrade {
    pub field: String,
    pub from: String,
    pub to: String,
}

/// `identity_downgrades(old, new)` of calimero-wasm-abi 1.0.0-rc.8, on calimcp's model.
pub fn identity_downgrades(old: &Manifest, new: &Manifest) -> Vec<Downgrade> {
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
pub enum Action {
    CodeOnly,
    Migrate { method: String, from: u32, to: u32 },
    Behind { from: u32, to: u32 },
    Downgrade { from: u32, to: u32 },
    MissingEdge { from: u32, to: u32 },
}

/// `plan_upgrade(current, target)` of calimero-context 0.11.0-rc.4.
pub fn plan_upgrade(old: &Manifest, new: &Manifest) -> Action {
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

/// Whether two types have the same fully resolved shape (`canonical` of
/// calimero-abi diff: `$ref`s expanded, cycles compared by their names).
pub fn same_type(a: &Manifest, ta: &TypeRef, b: &Manifest, tb: &TypeRef) -> bool {
    let mut seen = HashSet::new();
    Same {
        a,
        b,
        seen: &mut seen,
        depth: 0,
    }
    .ty(ta, tb)
}

struct Same<'a, 's> {
    a: &'a Manifest,
    b: &'a Manifest,
    seen: &'s mut HashSet<(&'a str, &'a str)>,
    depth: u32,
}

impl<'a> Same<'a, '_> {
    fn ty(&mut self, x: &'a TypeRef, y: &'a TypeRef) -> bool {
        if self.depth > 200 {
            return true;
        }
        self.depth += 1;
        let r = self.ty_inner(x, y);
        self.depth -= 1;
        r
    }

    fn ty_inner(&mut self, x: &'a TypeRef, y: &'a TypeRef) -> bool {
        use TypeRef as T;
        match (x, y) {
            (T::Ref(n1), T::Ref(n2)) => {
                if !self.seen.insert((n1, n2)) {
                    return true;
                }
                match (self.a.types.get(n1), self.b.types.get(n2)) {
                    (Some(d1), Some(d2)) => self.def(&d1.kind, &d2.kind),
                    (None, None) => n1 == n2,
                    _ => false,
                }
            }
            (T::Ref(n), _) => match self.a.types.get(n).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(t)) => self.ty(t, y),
                Some(TypeDefKind::Record(r)) => matches!(y, T::Record(r2) if self.record(r, r2)),
                Some(TypeDefKind::Bytes(bx)) => matches!(y, T::Bytes(by) if bx == by),
                _ => false,
            },
            (_, T::Ref(n)) => match self.b.types.get(n).map(|d| &d.kind) {
                Some(TypeDefKind::Alias(t)) => self.ty(x, t),
                Some(TypeDefKind::Record(r)) => matches!(x, T::Record(r1) if self.record(r1, r)),
                Some(TypeDefKind::Bytes(by)) => matches!(x, T::Bytes(bx) if bx == by),
                _ => false,
            },
            (T::Scalar(a), T::Scalar(b)) => a == b,
            (T::Bytes(a), T::Bytes(b)) => a == b,
            (T::List { items: a, crdt: ca }, T::List { items: b, crdt: cb }) => {
                ca == cb && self.ty(a, b)
            }
            (
                T::Map {
                    key: ka,
                    value: va,
                    crdt: ca,
                },
                T::Map {
                    key: kb,
                    value: vb,
                    crdt: cb,
                },
            ) => ca == cb && self.ty(ka, kb) && self.ty(va, vb),
            (
                T::Tuple {
                    elements: a,
                    crdt: ca,
                },
                T::Tuple {
                    elements: b,
                    crdt: cb,
                },
            ) => ca == cb && a.len() == b.len() && a.iter().zip(b).all(|(x, y)| self.ty(x, y)),
            (T::Record(a), T::Record(b)) => self.record(a, b),
            (T::Unknown(a), T::Unknown(b)) => a == b,
            _ => false,
        }
    }

    fn record(&mut self, a: &'a Record, b: &'a Record) -> bool {
        a.crdt == b.crdt
            && a.fields.len() == b.fields.len()
            && a.fields
                .iter()
                .zip(&b.fields)
                .all(|(x, y)| x.name == y.name && x.nullable == y.nullable && self.ty(&x.ty, &y.ty))
            && match (&a.inner, &b.inner) {
                (Some(x), Some(y)) => self.ty(x, y),
                (None, None) => true,
                _ => false,
            }
    }

    fn def(&mut self, a: &'a TypeDefKind, b: &'a TypeDefKind) -> bool {
        use TypeDefKind as D;
        match (a, b) {
            (D::Record(x), D::Record(y)) => self.record(x, y),
            (D::Variant(x), D::Variant(y)) => {
                x.tagging == y.tagging
                    && x.variants.len() == y.variants.len()
                    && x.variants.iter().zip(&y.variants).all(|(p, q)| {
                        p.name == q.name
                            && match (&p.payload, &q.payload) {
                                (Some(s), Some(t)) => self.ty(s, t),
                                (None, None) => true,
                                _ => false,
                            }
                    })
            }
            (D::Alias(x), D::Alias(y)) => self.ty(x, y),
            (D::Alias(x), _) => match b {
                D::Record(r) => matches!(x, TypeRef::Record(r1) if self.record(r1, r)),
                _ => false,
            },
            (_, D::Alias(y)) => match a {
                D::Record(r) => matches!(y, TypeRef::Record(r2) if self.record(r, r2)),
                _ => false,
            },
            (D::Bytes(x), D::Bytes(y)) => x == y,
            (D::Unknown(x), D::Unknown(y)) => x == y,
            _ => false,
        }
    }
}
