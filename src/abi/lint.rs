//! Lints: things `validate_manifest` would reject but calimcp can still map.

use super::Warning;
use super::model::*;

/// Checks sort order, dangling `$ref`s, zero-size bytes and non-string map keys.
pub fn lint(m: &Manifest) -> Vec<Warning> {
    let mut out = Vec::new();
    if let Some(w) = m.methods.windows(2).position(|w| w[0].name > w[1].name) {
        out.push(Warning::new(
            "$.methods",
            format!("methods are not sorted by name ({:?} before {:?}); the node ignores such an embedded ABI", m.methods[w].name, m.methods[w + 1].name),
        ));
    }
    if let Some(w) = m.events.windows(2).position(|w| w[0].name > w[1].name) {
        out.push(Warning::new(
            "$.events",
            format!(
                "events are not sorted by name ({:?} before {:?})",
                m.events[w].name,
                m.events[w + 1].name
            ),
        ));
    }
    let mut l = Linter { m, out };
    for (name, def) in &m.types {
        let path = format!("$.types.{name}");
        match &def.kind {
            TypeDefKind::Record(r) => l.record(r, &path),
            TypeDefKind::Variant(v) => {
                for (i, c) in v.variants.iter().enumerate() {
                    if let Some(p) = &c.payload {
                        l.ty(p, &format!("{path}.variants[{i}].payload"));
                    }
                }
            }
            TypeDefKind::Alias(t) => l.ty(t, &format!("{path}.target")),
            TypeDefKind::Bytes(b) => l.bytes(b, &path),
            TypeDefKind::Unknown(_) => {}
        }
    }
    for (i, method) in m.methods.iter().enumerate() {
        for (j, p) in method.params.iter().enumerate() {
            l.ty(&p.ty, &format!("$.methods[{i}].params[{j}].type"));
        }
        if let Some(r) = &method.returns {
            l.ty(r, &format!("$.methods[{i}].returns"));
        }
    }
    for (i, e) in m.events.iter().enumerate() {
        if let Some(p) = &e.payload {
            l.ty(p, &format!("$.events[{i}].payload"));
        }
    }
    l.out
        .iter_mut()
        .for_each(|w| w.message = crate::text::sanitize_line(&w.message));
    l.out
}

struct Linter<'m> {
    m: &'m Manifest,
    out: Vec<Warning>,
}

impl Linter<'_> {
    fn bytes(&mut self, b: &Bytes, path: &str) {
        if b.size == Some(0) {
            self.out
                .push(Warning::new(path, "bytes with size 0; the size is ignored"));
        }
    }

    fn record(&mut self, r: &Record, path: &str) {
        for (i, f) in r.fields.iter().enumerate() {
            self.ty(&f.ty, &format!("{path}.fields[{i}].type"));
        }
        if let Some(inner) = &r.inner {
            self.ty(inner, &format!("{path}.inner_type"));
        }
    }

    fn ty(&mut self, t: &TypeRef, path: &str) {
        match t {
            TypeRef::Ref(name) if !self.m.types.contains_key(name) => {
                self.out.push(Warning::new(
                    path,
                    format!("dangling $ref {name:?}: no such type; accepted unvalidated"),
                ));
            }
            TypeRef::Ref(_) | TypeRef::Scalar(_) | TypeRef::Unknown(_) => {}
            TypeRef::Bytes(b) => self.bytes(b, path),
            TypeRef::List { items, .. } => self.ty(items, &format!("{path}.items")),
            TypeRef::Map { key, value, .. } => {
                if !matches!(**key, TypeRef::Scalar(Scalar::String)) {
                    self.out.push(Warning::new(
                        format!("{path}.key"),
                        "map key is not a string; JSON object keys are strings",
                    ));
                }
                self.ty(value, &format!("{path}.value"));
            }
            TypeRef::Tuple { elements, .. } => {
                for (i, e) in elements.iter().enumerate() {
                    self.ty(e, &format!("{path}.elements[{i}]"));
                }
            }
            TypeRef::Record(r) => self.record(r, path),
        }
    }
}
