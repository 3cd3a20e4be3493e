//! The one path from a tool call to the node's `execute` parameters, shared by
//! `calimcp call` and the MCP server so they cannot drift apart: check the
//! arguments with the tool's compiled schema, take the injected `_context`
//! out, and build `argsJson` from the declared parameters only. A failed
//! call's error gets its hint here too ([`Prepared::explain`]), so both faces
//! say the same.

use std::sync::Arc;

use serde_json::Value;

use super::Catalog;
use calimcp_core::error::{Code, Error, NodeSaid};
use calimcp_core::mapping::Tool;
use calimcp_core::mapping::args::{self, Form32, Problem, Validator};
use calimcp_core::mapping::schema::CONTEXT_PARAM;

/// A checked call, ready for a context and the node.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// Index of the app in the catalog.
    pub app: usize,
    pub service: Option<String>,
    /// The method name as the node knows it.
    pub method: String,
    /// The `argsJson` object: declared parameters only, converted for the wire.
    pub args_json: Value,
    /// The injected `_context` value, when the tool has one and it was given.
    pub context: Option<String>,
    /// The 32-byte values in `args_json` and the form each went in.
    pub id32: Vec<(String, Form32)>,
}

impl Prepared {
    /// A failed call's error, with a hint when the app could not read its
    /// arguments and a 32-byte value went in one form: the other form is
    /// the likely fix (the ABI cannot say which one the app takes).
    pub fn explain(&self, mut e: Error) -> Error {
        let unreadable = e.code == Code::AppError && e.said == Some(NodeSaid::ArgumentsUnreadable);
        if let (true, Some(hint)) = (unreadable, args::id32_hint(&self.id32)) {
            e.hint = Some(match e.hint.take() {
                Some(old) => format!("{hint}\n{old}"),
                None => hint,
            });
        }
        e
    }
}

impl Catalog {
    /// The compiled input schema of a tool (compiled once, on first use).
    pub(crate) fn validator(&self, tool: &Tool) -> Result<Arc<Validator>, String> {
        let index = self
            .tools
            .tools
            .iter()
            .position(|t| t.name == tool.name)
            .ok_or("tool not in this catalog")?;
        if let Some(v) = self.validators.get(index).and_then(|c| c.get()) {
            return Ok(v.clone());
        }
        let v = Arc::new(Validator::new(&tool.input_schema())?);
        if let Some(cell) = self.validators.get(index) {
            let _ = cell.set(v.clone());
        }
        Ok(v)
    }

    /// Checks `arguments` against the tool and builds the execute parameters.
    pub fn prepare(&self, tool: &Tool, arguments: &Value) -> Result<Prepared, Vec<Problem>> {
        let validator = self
            .validator(tool)
            .map_err(|e| vec![Problem::new("", e)])?;
        let problems = validator.check(arguments);
        let app = &self.apps[tool.app];
        let service = app
            .service(tool.service.as_deref())
            .ok_or_else(|| vec![Problem::new("", "the tool's service is gone")])?;
        let method = service
            .manifest
            .method(&tool.method)
            .ok_or_else(|| vec![Problem::new("", "the tool's method is gone")])?;
        let empty = serde_json::Map::new();
        let obj = arguments.as_object().unwrap_or(&empty);
        let problems = args::merge(problems, args::check_values(&service.manifest, method, obj));
        if !problems.is_empty() {
            return Err(problems);
        }
        let context = if tool.context_injected {
            obj.get(CONTEXT_PARAM)
                .and_then(Value::as_str)
                .map(str::to_string)
        } else {
            None
        };
        let args_json = args::outgoing(&service.manifest, method, obj);
        Ok(Prepared {
            app: tool.app,
            service: tool.service.clone(),
            method: tool.method.clone(),
            id32: args::id32_forms(&service.manifest, method, &args_json),
            args_json,
            context,
        })
    }
}
