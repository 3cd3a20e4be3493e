//! Lints: things `validate_manifest` would reject but calimcp can still map.

use super::model::*;
use super::{JsonPath, Seg, Warning};

/// A schema major the node's `validate_manifest` supports (`wasm-abi/1`).
pub(crate) fn supported_schema(version: &str) -> bool {
    version == "wasm-abi/1" || version.starts_with("wasm-abi/1.")
}

/// Why the node's `validate_manifest` refuses `m` (another schema major,
/// or a lint below); empty when it accepts it. A refused embedded ABI is
/// one the node ignores (calimero-wasm-abi `src/embed.rs`).
pub fn refusals(m: &Manifest) -> Vec<String> {
    let mut out = Vec::new();
    if !supported_schema(&m.schema_version) {
        out.push(format!(
            "schema_version {:?} is not wasm-abi/1",
            crate::text::sanitize_line(&m.schema_version)
        ));
    }
    out.extend(lint(m).iter().map(ToString::to_string));
    out
}

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
    let mut l = Linter {
        m,
        out,
        path: JsonPath::default(),
    };
    for (name, def) in &m.types {
        l.path.push(Seg::Key("types"));
        l.path.push(Seg::Name(name.as_str().into()));
        match &def.kind {
            TypeDefKind::Record(r) => l.record(r),
            TypeDefKind::Variant(v) => {
                for (i, c) in v.variants.iter().enumerate() {
                    if let Some(p) = &c.payload {
                        l.within(
                            &[Seg::Key("variants"), Seg::Index(i), Seg::Key("payload")],
                            |l| l.ty(p),
                        );
                    }
                }
            }
            TypeDefKind::Alias(t) => l.within(&[Seg::Key("target")], |l| l.ty(t)),
            TypeDefKind::Bytes(b) => l.bytes(b),
            TypeDefKind::Unknown(_) => {}
        }
        l.path.pop();
        l.path.pop();
    }
    for (i, method) in m.methods.iter().enumerate() {
        l.path.push(Seg::Key("methods"));
        l.path.push(Seg::Index(i));
        for (j, p) in method.params.iter().enumerate() {
            l.within(
                &[Seg::Key("params"), Seg::Index(j), Seg::Key("type")],
                |l| l.ty(&p.ty),
            );
        }
        if let Some(r) = &method.returns {
            l.within(&[Seg::Key("returns")], |l| l.ty(r));
        }
        l.path.pop();
        l.path.pop();
    }
    for (i, e) in m.events.iter().enumerate() {
        if let Some(p) = &e.payload {
            l.within(
                &[Seg::Key("events"), Seg::Index(i), Seg::Key("payload")],
                |l| l.ty(p),
            );
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
    /// Where the walk is; formatted only for a warning.
    path: JsonPath<'m>,
}

impl<'m> Linter<'m> {
    fn warn(&mut self, path: String, message: impl Into<String>) {
        self.out.push(Warning::new(path, message));
    }

    /// Runs `f` with `segs` appended to the path.
    fn within(&mut self, segs: &[Seg<'static>], f: impl FnOnce(&mut Self)) {
        for seg in segs {
            self.path.push(match seg {
                Seg::Key(k) => Seg::Key(k),
                Seg::Index(i) => Seg::Index(*i),
                Seg::Name(n) => Seg::Name(n.clone()),
            });
        }
        f(self);
        for _ in segs {
            self.path.pop();
        }
    }

    fn bytes(&mut self, b: &Bytes) {
        if b.size == Some(0) {
            self.warn(
                self.path.to_string(),
                "bytes with size 0; the size is ignored",
            );
        }
    }

    fn record(&mut self, r: &'m Record) {
        for (i, f) in r.fields.iter().enumerate() {
            self.within(
                &[Seg::Key("fields"), Seg::Index(i), Seg::Key("type")],
                |l| l.ty(&f.ty),
            );
        }
        if let Some(inner) = &r.inner {
            self.within(&[Seg::Key("inner_type")], |l| l.ty(inner));
        }
    }

    fn ty(&mut self, t: &'m TypeRef) {
        match t {
            TypeRef::Ref(name) if !self.m.types.contains_key(name) => {
                self.warn(
                    self.path.to_string(),
                    format!("dangling $ref {name:?}: no such type; accepted unvalidated"),
                );
            }
            TypeRef::Ref(_) | TypeRef::Scalar(_) | TypeRef::Unknown(_) => {}
            TypeRef::Bytes(b) => self.bytes(b),
            TypeRef::List { items, .. } => self.within(&[Seg::Key("items")], |l| l.ty(items)),
            TypeRef::Map { key, value, .. } => {
                if !matches!(**key, TypeRef::Scalar(Scalar::String)) {
                    self.warn(
                        self.path.to("key"),
                        "map key is not a string; JSON object keys are strings",
                    );
                }
                self.within(&[Seg::Key("value")], |l| l.ty(value));
            }
            TypeRef::Tuple { elements, .. } => {
                for (i, e) in elements.iter().enumerate() {
                    self.within(&[Seg::Key("elements"), Seg::Index(i)], |l| l.ty(e));
                }
            }
            TypeRef::Record(r) => self.record(r),
        }
    }
}
