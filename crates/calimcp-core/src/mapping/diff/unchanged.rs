//! Which parts of a release did not change, so the comparison can skip them.

use crate::abi::*;

/// Named types whose definitions (docs included) are the same in both
/// manifests and reach only such types: anything built only from them and
/// itself unchanged needs no comparison at all (most of a release).
pub(super) struct Unchanged {
    pub(super) names: std::collections::HashSet<String>,
    /// The same with docs ignored: types whose values and stored layout are
    /// the same in both versions (a docs-only change is compatible, and is
    /// never walked, however deep or recursive the types).
    pub(super) shapes: std::collections::HashSet<String>,
}

/// `t` with every doc dropped (inline records' field docs).
fn undoc_ref(t: &TypeRef) -> TypeRef {
    match t {
        TypeRef::List { items, crdt } => TypeRef::List {
            items: Box::new(undoc_ref(items)),
            crdt: crdt.clone(),
        },
        TypeRef::Map { key, value, crdt } => TypeRef::Map {
            key: Box::new(undoc_ref(key)),
            value: Box::new(undoc_ref(value)),
            crdt: crdt.clone(),
        },
        TypeRef::Tuple { elements, crdt } => TypeRef::Tuple {
            elements: elements.iter().map(undoc_ref).collect(),
            crdt: crdt.clone(),
        },
        TypeRef::Record(r) => TypeRef::Record(undoc_record(r)),
        t => t.clone(),
    }
}

fn undoc_field(f: &Field) -> Field {
    Field {
        name: f.name.clone(),
        ty: undoc_ref(&f.ty),
        nullable: f.nullable,
        doc: None,
    }
}

fn undoc_record(r: &Record) -> Record {
    Record {
        fields: r.fields.iter().map(undoc_field).collect(),
        crdt: r.crdt.clone(),
        inner: r.inner.as_deref().map(|t| Box::new(undoc_ref(t))),
    }
}

fn undoc_def(d: &TypeDef) -> TypeDef {
    let kind = match &d.kind {
        TypeDefKind::Record(r) => TypeDefKind::Record(undoc_record(r)),
        TypeDefKind::Variant(v) => TypeDefKind::Variant(Variant {
            variants: v
                .variants
                .iter()
                .map(|c| VariantCase {
                    name: c.name.clone(),
                    payload: c.payload.as_ref().map(undoc_ref),
                    doc: None,
                })
                .collect(),
            tagging: v.tagging.clone(),
        }),
        TypeDefKind::Alias(t) => TypeDefKind::Alias(undoc_ref(t)),
        k => k.clone(),
    };
    TypeDef { kind, doc: None }
}

fn undoc_method(m: &Method) -> Method {
    Method {
        params: m.params.iter().map(undoc_field).collect(),
        returns: m.returns.as_ref().map(undoc_ref),
        returns_doc: None,
        doc: None,
        ..m.clone()
    }
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

/// Every named type `t` reaches is in `set` (or in neither manifest).
fn reaches_only(
    set: &std::collections::HashSet<String>,
    old: &Manifest,
    new: &Manifest,
    t: &TypeRef,
) -> bool {
    let mut refs = Vec::new();
    refs_of(t, &mut refs);
    refs.iter()
        .all(|r| set.contains(*r) || (!old.types.contains_key(*r) && !new.types.contains_key(*r)))
}

impl Unchanged {
    pub(super) fn new(old: &Manifest, new: &Manifest) -> Self {
        Unchanged {
            names: Self::fixpoint(old, new, |d, e| d == e),
            shapes: Self::fixpoint(old, new, |d, e| undoc_def(d) == undoc_def(e)),
        }
    }

    /// Types locally `equal` (references compared by name), then the
    /// greatest fixpoint: drop any that reaches a changed or missing name
    /// (a worklist over who references whom: linear in the type table).
    fn fixpoint(
        old: &Manifest,
        new: &Manifest,
        equal: impl Fn(&TypeDef, &TypeDef) -> bool,
    ) -> std::collections::HashSet<String> {
        use std::collections::{HashMap, HashSet};
        let mut names: HashSet<&str> = old
            .types
            .iter()
            .filter(|(k, d)| new.types.get(*k).is_some_and(|e| equal(d, e)))
            .map(|(k, _)| k.as_str())
            .collect();
        let mut users: HashMap<&str, Vec<&str>> = HashMap::new();
        for k in &names {
            for r in def_refs(&old.types[*k]) {
                users.entry(r).or_default().push(k);
            }
        }
        let mut todo: Vec<&str> = old
            .types
            .keys()
            .chain(new.types.keys())
            .map(String::as_str)
            .filter(|k| !names.contains(k))
            .collect();
        while let Some(r) = todo.pop() {
            for k in users.get(r).into_iter().flatten() {
                if names.remove(k) {
                    todo.push(k);
                }
            }
        }
        names.into_iter().map(str::to_string).collect()
    }

    /// Every named type `t` reaches is unchanged (`t` itself compared by the caller).
    pub(super) fn reaches_only_unchanged(
        &self,
        old: &Manifest,
        new: &Manifest,
        t: &TypeRef,
    ) -> bool {
        reaches_only(&self.names, old, new, t)
    }

    /// The same method with the same types, docs aside (its own, its
    /// parameters', or those of the types it reaches): nothing but what
    /// agents read changed, and no type needs a look.
    pub(super) fn method_docs_only(
        &self,
        old: &Manifest,
        new: &Manifest,
        m: &Method,
        n: &Method,
    ) -> bool {
        undoc_method(m) == undoc_method(n)
            && m.params
                .iter()
                .all(|p| reaches_only(&self.shapes, old, new, &p.ty))
            && m.returns
                .as_ref()
                .is_none_or(|t| reaches_only(&self.shapes, old, new, t))
    }

    pub(super) fn method(&self, old: &Manifest, new: &Manifest, m: &Method, n: &Method) -> bool {
        m == n
            && m.params
                .iter()
                .all(|p| self.reaches_only_unchanged(old, new, &p.ty))
            && m.returns
                .as_ref()
                .is_none_or(|t| self.reaches_only_unchanged(old, new, t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn manifest(leaf_doc: &str, leaf: &str) -> Manifest {
        let json = format!(
            r#"{{"schema_version":"wasm-abi/1","methods":[],"types":{{
            "Top":{{"kind":"record","fields":[{{"name":"l","type":{{"$ref":"Leaf"}}}}]}},
            "Leaf":{{"kind":"record","fields":[{{"name":"v","type":{{"kind":"{leaf}"}},"doc":"{leaf_doc}"}}]}},
            "Other":{{"kind":"record","fields":[{{"name":"x","type":{{"kind":"u32"}}}}]}}}}}}"#
        );
        crate::abi::parse_manifest_value(&serde_json::from_str(&json).unwrap(), &mut Vec::new())
            .unwrap()
    }

    fn sorted(set: &std::collections::HashSet<String>) -> Vec<&str> {
        let mut v: Vec<&str> = set.iter().map(String::as_str).collect();
        v.sort();
        v
    }

    #[test]
    fn a_docs_only_change_keeps_the_shapes_and_what_reaches_them() {
        let u = Unchanged::new(&manifest("old", "u64"), &manifest("new", "u64"));
        assert_eq!(sorted(&u.names), ["Other"]);
        assert_eq!(sorted(&u.shapes), ["Leaf", "Other", "Top"]);
        // A real change leaves the changed type and its users out of both.
        let u = Unchanged::new(&manifest("d", "u64"), &manifest("d", "u32"));
        assert_eq!(sorted(&u.names), ["Other"]);
        assert_eq!(sorted(&u.shapes), ["Other"]);
    }
}
