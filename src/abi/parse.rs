//! `serde_json::Value` → [`Manifest`], leniently.
//!
//! Hard errors are kept for what makes a document unusable as an ABI (not an
//! object, no `methods`, a schema major other than 1, a method without a name);
//! everything else that is unexpected becomes a [`Warning`] with the JSON path
//! where it was found.

use serde_json::{Map, Value};

use super::model::*;
use super::{AbiError, Warning};
use crate::text::sanitize_doc;

/// Parses a manifest from raw bytes.
pub fn parse_manifest(bytes: &[u8], warnings: &mut Vec<Warning>) -> Result<Manifest, AbiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(AbiError::new(
            "$",
            "the file is empty; expected a wasm-abi/1 JSON manifest",
        ));
    }
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        let what = if e.to_string().contains("recursion limit") {
            "the JSON nests too deeply (more than 128 levels)".to_string()
        } else {
            format!("not valid JSON: {e}")
        };
        AbiError::new("$", what)
    })?;
    parse_manifest_value(&value, warnings)
}

/// Parses a manifest that is already a JSON value (e.g. from the node).
pub fn parse_manifest_value(
    value: &Value,
    warnings: &mut Vec<Warning>,
) -> Result<Manifest, AbiError> {
    let mut p = Parser { warnings };
    p.manifest(value)
}

struct Parser<'w> {
    warnings: &'w mut Vec<Warning>,
}

/// How a JSON value is named in messages: `an object`, `a string`, `null`.
pub(crate) fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Parser<'_> {
    fn warn(&mut self, path: &str, message: impl Into<String>) {
        self.warnings.push(Warning::new(path, message));
    }

    fn manifest(&mut self, value: &Value) -> Result<Manifest, AbiError> {
        let Value::Object(top) = value else {
            return Err(AbiError::new(
                "$",
                format!(
                    "expected a JSON object (a wasm-abi/1 manifest), found {}",
                    kind_of(value)
                ),
            ));
        };
        let schema_version = self.schema_version(top)?;
        let Some(methods_value) = top.get("methods") else {
            let hint = if top.contains_key("services")
                || top.contains_key("wasm")
                || top.contains_key("package")
            {
                "; this looks like a bundle's manifest.json: pass the bundle directory or .mpk instead"
            } else {
                ""
            };
            return Err(AbiError::new(
                "$",
                format!("no `methods` key: not a wasm-abi/1 ABI manifest{hint}"),
            ));
        };
        let Value::Array(methods_in) = methods_value else {
            return Err(AbiError::new(
                "$.methods",
                format!(
                    "expected an array of methods, found {}",
                    kind_of(methods_value)
                ),
            ));
        };

        let mut m = Manifest {
            schema_version,
            ..Manifest::default()
        };
        match top.get("types") {
            None => {}
            Some(Value::Object(types)) => {
                for (name, def) in types {
                    let path = format!("$.types.{name}");
                    let def = self.type_def(def, &path);
                    m.types.insert(name.clone(), def);
                }
            }
            Some(other) => {
                return Err(AbiError::new(
                    "$.types",
                    format!(
                        "expected an object of named types, found {}",
                        kind_of(other)
                    ),
                ));
            }
        }
        for (i, method) in methods_in.iter().enumerate() {
            m.methods
                .push(self.method(method, &format!("$.methods[{i}]"))?);
        }
        if let Some(Value::Array(events)) = top.get("events") {
            for (i, ev) in events.iter().enumerate() {
                let path = format!("$.events[{i}]");
                let name = ev
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let payload = match ev.get("payload") {
                    None | Some(Value::Null) => None,
                    Some(t) => Some(self.type_ref(t, &format!("{path}.payload"))),
                };
                m.events.push(Event { name, payload });
            }
        }
        m.state_root = top
            .get("state_root")
            .and_then(Value::as_str)
            .map(str::to_string);
        (m.state_version, m.migrations) = super::state::state_meta(
            top.get("state_version"),
            top.get("migrations"),
            self.warnings,
        );
        Ok(m)
    }

    fn schema_version(&mut self, top: &Map<String, Value>) -> Result<String, AbiError> {
        let path = "$.schema_version";
        let version = match top.get("schema_version") {
            None => {
                self.warn(path, "no `schema_version`; reading it as wasm-abi/1");
                return Ok("wasm-abi/1".into());
            }
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                return Err(AbiError::new(
                    path,
                    format!(
                        "expected a string like \"wasm-abi/1\", found {}",
                        kind_of(other)
                    ),
                ));
            }
        };
        let Some(rest) = version.strip_prefix("wasm-abi/") else {
            return Err(AbiError::new(
                path,
                format!(
                    "unknown schema version {:?}; calimcp reads wasm-abi/1 manifests",
                    crate::text::sanitize_line(&version)
                ),
            ));
        };
        let major = rest.split('.').next().unwrap_or_default();
        match major.parse::<u32>() {
            Ok(1) => Ok(version),
            Ok(_) => Err(AbiError::new(
                path,
                format!(
                    "unsupported schema version {:?}: calimcp reads major version 1 (wasm-abi/1.x); upgrade calimcp for newer manifests",
                    crate::text::sanitize_line(&version)
                ),
            )),
            Err(_) => Err(AbiError::new(
                path,
                format!(
                    "malformed schema version {:?}; expected wasm-abi/<major>[.<minor>]",
                    crate::text::sanitize_line(&version)
                ),
            )),
        }
    }

    fn doc(&mut self, obj: &Map<String, Value>, key: &str) -> Option<String> {
        obj.get(key)
            .and_then(Value::as_str)
            .map(sanitize_doc)
            .filter(|d| !d.trim().is_empty())
    }

    fn flag(obj: &Map<String, Value>, key: &str) -> bool {
        obj.get(key).and_then(Value::as_bool).unwrap_or(false)
    }

    fn method(&mut self, value: &Value, path: &str) -> Result<Method, AbiError> {
        let Value::Object(obj) = value else {
            return Err(AbiError::new(
                path,
                format!("expected a method object, found {}", kind_of(value)),
            ));
        };
        let name = match obj.get("name") {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => {
                return Err(AbiError::new(
                    format!("{path}.name"),
                    "every method needs a non-empty string `name`",
                ));
            }
        };
        let mut params = Vec::new();
        match obj.get("params") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) => {
                for (i, p) in items.iter().enumerate() {
                    params.push(self.param(p, &format!("{path}.params[{i}]"))?);
                }
            }
            Some(other) => {
                return Err(AbiError::new(
                    format!("{path}.params"),
                    format!("expected an array, found {}", kind_of(other)),
                ));
            }
        }
        let returns = match obj.get("returns") {
            None | Some(Value::Null) => None,
            Some(t) => Some(self.type_ref(t, &format!("{path}.returns"))),
        };
        let intent = match obj.get("intent").and_then(Value::as_str) {
            None | Some("unspecified") => Intent::Unspecified,
            Some("read_only") => Intent::ReadOnly,
            Some("mutating") => Intent::Mutating,
            Some(other) => {
                self.warn(
                    &format!("{path}.intent"),
                    format!(
                        "unknown intent {:?}; treating the method as [mut]",
                        crate::text::sanitize_line(other)
                    ),
                );
                Intent::Other(other.to_string())
            }
        };
        Ok(Method {
            name,
            params,
            returns,
            returns_nullable: Self::flag(obj, "returns_nullable"),
            returns_doc: self.doc(obj, "returns_doc"),
            intent,
            doc: self.doc(obj, "doc"),
            destructive: Self::flag(obj, "destructive"),
            idempotent: Self::flag(obj, "idempotent"),
        })
    }

    fn param(&mut self, value: &Value, path: &str) -> Result<Param, AbiError> {
        let Value::Object(obj) = value else {
            return Err(AbiError::new(
                path,
                format!(
                    "expected an object with `name` and `type`, found {}",
                    kind_of(value)
                ),
            ));
        };
        let name = match obj.get("name") {
            Some(Value::String(s)) => s.clone(),
            _ => {
                return Err(AbiError::new(
                    format!("{path}.name"),
                    "expected a string `name`",
                ));
            }
        };
        let ty = match obj.get("type") {
            Some(t) => self.type_ref(t, &format!("{path}.type")),
            None => {
                self.warn(path, "no `type`; the value is accepted unvalidated");
                TypeRef::Unknown("missing".into())
            }
        };
        Ok(Param {
            name,
            ty,
            nullable: Self::flag(obj, "nullable"),
            doc: self.doc(obj, "doc"),
        })
    }

    fn crdt(&mut self, obj: &Map<String, Value>, path: &str) -> Option<Crdt> {
        let tag = obj.get("crdt_type")?.as_str()?;
        if !Crdt::KNOWN.contains(&tag) {
            self.warn(
                &format!("{path}.crdt_type"),
                format!(
                    "unknown crdt_type {:?}; mapped by its shape",
                    crate::text::sanitize_line(tag)
                ),
            );
        }
        Some(Crdt(tag.to_string()))
    }

    fn fields(&mut self, obj: &Map<String, Value>, path: &str) -> Vec<Field> {
        let mut out = Vec::new();
        if let Some(Value::Array(fields)) = obj.get("fields") {
            for (i, f) in fields.iter().enumerate() {
                match self.param(f, &format!("{path}.fields[{i}]")) {
                    Ok(f) => out.push(f),
                    Err(e) => self.warn(&e.path, format!("{}; field skipped", e.message)),
                }
            }
        }
        out
    }

    fn bytes(&mut self, obj: &Map<String, Value>) -> Bytes {
        Bytes {
            size: obj.get("size").and_then(Value::as_u64),
            encoding: obj
                .get("encoding")
                .and_then(Value::as_str)
                .map(str::to_string),
        }
    }

    fn sub(&mut self, obj: &Map<String, Value>, key: &str, path: &str) -> TypeRef {
        match obj.get(key) {
            Some(v) => self.type_ref(v, &format!("{path}.{key}")),
            None => {
                self.warn(
                    path,
                    format!("no `{key}`; the value is accepted unvalidated"),
                );
                TypeRef::Unknown("missing".into())
            }
        }
    }

    fn type_ref(&mut self, value: &Value, path: &str) -> TypeRef {
        // The map key may be given as the bare string "string".
        if let Some(scalar) = value.as_str().and_then(Scalar::parse) {
            return TypeRef::Scalar(scalar);
        }
        let Value::Object(obj) = value else {
            self.warn(
                path,
                format!(
                    "expected a type object, found {}; accepted unvalidated",
                    kind_of(value)
                ),
            );
            return TypeRef::Unknown("malformed".into());
        };
        if let Some(r) = obj.get("$ref") {
            if let Some(name) = r.as_str() {
                return TypeRef::Ref(name.to_string());
            }
            self.warn(path, "`$ref` is not a string; accepted unvalidated");
            return TypeRef::Unknown("malformed".into());
        }
        let Some(kind) = obj.get("kind").and_then(Value::as_str) else {
            self.warn(path, "a type needs `kind` or `$ref`; accepted unvalidated");
            return TypeRef::Unknown("malformed".into());
        };
        if let Some(scalar) = Scalar::parse(kind) {
            return TypeRef::Scalar(scalar);
        }
        match kind {
            "bytes" => TypeRef::Bytes(self.bytes(obj)),
            "list" => {
                let crdt = self.crdt(obj, path);
                TypeRef::List {
                    items: Box::new(self.sub(obj, "items", path)),
                    crdt,
                }
            }
            "map" => {
                let crdt = self.crdt(obj, path);
                let key = Box::new(self.sub(obj, "key", path));
                TypeRef::Map {
                    key,
                    value: Box::new(self.sub(obj, "value", path)),
                    crdt,
                }
            }
            "tuple" => {
                let crdt = self.crdt(obj, path);
                let mut elements = Vec::new();
                if let Some(Value::Array(items)) = obj.get("elements") {
                    for (i, e) in items.iter().enumerate() {
                        elements.push(self.type_ref(e, &format!("{path}.elements[{i}]")));
                    }
                }
                TypeRef::Tuple { elements, crdt }
            }
            "record" => TypeRef::Record(self.record(obj, path)),
            other => {
                self.warn(
                    &format!("{path}.kind"),
                    format!(
                        "unknown kind {:?}; accepted unvalidated",
                        crate::text::sanitize_line(other)
                    ),
                );
                TypeRef::Unknown(other.to_string())
            }
        }
    }

    fn record(&mut self, obj: &Map<String, Value>, path: &str) -> Record {
        let crdt = self.crdt(obj, path);
        let inner = obj
            .get("inner_type")
            .map(|t| Box::new(self.type_ref(t, &format!("{path}.inner_type"))));
        Record {
            fields: self.fields(obj, path),
            crdt,
            inner,
        }
    }

    fn type_def(&mut self, value: &Value, path: &str) -> TypeDef {
        let Value::Object(obj) = value else {
            self.warn(
                path,
                format!(
                    "expected a type definition object, found {}; accepted unvalidated",
                    kind_of(value)
                ),
            );
            return TypeDef {
                kind: TypeDefKind::Unknown("malformed".into()),
                doc: None,
            };
        };
        let doc = self.doc(obj, "doc");
        let kind = match obj.get("kind").and_then(Value::as_str) {
            Some("record") => TypeDefKind::Record(self.record(obj, path)),
            Some("variant") => TypeDefKind::Variant(self.variant(obj, path)),
            Some("alias") => TypeDefKind::Alias(self.sub(obj, "target", path)),
            Some("bytes") => TypeDefKind::Bytes(self.bytes(obj)),
            Some(other) => {
                self.warn(
                    &format!("{path}.kind"),
                    format!(
                        "unknown type kind {:?}; accepted unvalidated",
                        crate::text::sanitize_line(other)
                    ),
                );
                TypeDefKind::Unknown(other.to_string())
            }
            None => {
                self.warn(path, "a type definition needs `kind`; accepted unvalidated");
                TypeDefKind::Unknown("malformed".into())
            }
        };
        TypeDef { kind, doc }
    }

    fn variant(&mut self, obj: &Map<String, Value>, path: &str) -> Variant {
        let mut variants = Vec::new();
        if let Some(Value::Array(cases)) = obj.get("variants") {
            for (i, case) in cases.iter().enumerate() {
                let cpath = format!("{path}.variants[{i}]");
                let Some(name) = case.get("name").and_then(Value::as_str) else {
                    self.warn(&cpath, "a variant needs a string `name`; skipped");
                    continue;
                };
                let payload = match case.get("payload") {
                    None | Some(Value::Null) => None,
                    Some(t) => Some(self.type_ref(t, &format!("{cpath}.payload"))),
                };
                let doc = case.as_object().and_then(|c| self.doc(c, "doc"));
                variants.push(VariantCase {
                    name: name.to_string(),
                    payload,
                    doc,
                });
            }
        } else {
            self.warn(path, "a variant type needs a `variants` array");
        }
        let tag = obj.get("tag").and_then(Value::as_str);
        let content = obj.get("content").and_then(Value::as_str);
        let untagged = Self::flag(obj, "untagged");
        let tagging = match (untagged, tag, content) {
            (true, None, None) => Tagging::Untagged,
            (true, _, _) => {
                self.warn(
                    path,
                    "`untagged` together with `tag`/`content`; treating the enum as untagged",
                );
                Tagging::Untagged
            }
            (false, Some(tag), Some(content)) => Tagging::Adjacent {
                tag: tag.into(),
                content: content.into(),
            },
            (false, Some(tag), None) => Tagging::Internal { tag: tag.into() },
            (false, None, Some(_)) => {
                self.warn(
                    path,
                    "`content` without `tag`; treating the enum as externally tagged",
                );
                Tagging::External
            }
            (false, None, None) => Tagging::External,
        };
        Variant { variants, tagging }
    }
}
