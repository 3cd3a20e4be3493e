//! Which parts of a release did not change, so the comparison can skip them.

use crate::abi::*;

/// Named types whose definitions (docs included) are the same in both
/// manifests and reach only such types: anything built only from them and
/// itself unchanged needs no comparison at all (most of a release).
pub(super) struct Unchanged {
    pub(super) names: std::collections::HashSet<String>,
}

fn refs_of<'t>(t: &'t TypeRef, out: &mut Vec<&'t str>) {
    match t {
        TypeRef::Ref(n) => out.push(n),
        TypeRef::List { items, .. } => refs_of(items, out),
        TypeRef::Map { key, value, .. } => {
            refs_of(key, out);
            refs_of(value, out);
        }
        TypeRef::Tuple { elements, .. } => elements.iter().for_each(|e| refs_of(e, out)),
        TypeRef::Record(r) => record_refs(r, out),
        TypeRef::Scalar(_) | TypeRef::Bytes(_) | TypeRef::Unknown(_) => {}
    }
}

fn record_refs<'t>(r: &'t Record, out: &mut Vec<&'t str>) {
    r.fields.iter().for_each(|f| refs_of(&f.ty, out));
    if let Some(inner) = &r.inner {
        refs_of(inner, out);
    }
}

fn def_refs(d: &TypeDef) -> Vec<&str> {
    let mut out = Vec::new();
    match &d.kind {
        TypeDefKind::Record(r) => record_refs(r, &mut out),
        TypeDefKind::Variant(v) => v
            .variants
            .iter()
            .filter_map(|c| c.payload.as_ref())
            .for_each(|p| refs_of(p, &mut out)),
        TypeDefKind::Alias(t) => refs_of(t, &mut out),
        TypeDefKind::Bytes(_) | TypeDefKind::Unknown(_) => {}
    }
    out
}

impl Unchanged {
    pub(super) fn new(old: &Manifest, new: &Manifest) -> Self {
        // Locally equal definitions (references compared by name), then the
        // greatest fixpoint: drop any that reaches a changed or missing name.
        let mut names: std::collections::HashSet<String> = old
            .types
            .iter()
            .filter(|(k, d)| {
                new.types
                    .get(*k)
                    .is_some_and(|e| format!("{d:?}") == format!("{e:?}"))
            })
            .map(|(k, _)| k.clone())
            .collect();
        loop {
            let before = names.len();
            let drop: Vec<String> = names
                .iter()
                .filter(|k| {
                    def_refs(&old.types[k.as_str()]).iter().any(|r| {
                        !names.contains(*r)
                            && (old.types.contains_key(*r) || new.types.contains_key(*r))
                    })
                })
                .cloned()
                .collect();
            for k in drop {
                names.remove(&k);
            }
            if names.len() == before {
                break;
            }
        }
        Unchanged { names }
    }

    /// Every named type `t` reaches is unchanged (`t` itself compared by the caller).
    pub(super) fn reaches_only_unchanged(
        &self,
        old: &Manifest,
        new: &Manifest,
        t: &TypeRef,
    ) -> bool {
        let mut refs = Vec::new();
        refs_of(t, &mut refs);
        refs.iter().all(|r| {
            self.names.contains(*r) || (!old.types.contains_key(*r) && !new.types.contains_key(*r))
        })
    }

    pub(super) fn method(&self, old: &Manifest, new: &Manifest, m: &Method, n: &Method) -> bool {
        format!("{m:?}") == format!("{n:?}")
            && m.params
                .iter()
                .all(|p| self.reaches_only_unchanged(old, new, &p.ty))
            && m.returns
                .as_ref()
                .is_none_or(|t| self.reaches_only_unchanged(old, new, t))
    }
}
