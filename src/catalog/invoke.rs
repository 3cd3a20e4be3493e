//! The one path from a tool call to the node's `execute` parameters, shared by
//! `calimcp call` and the MCP server so they cannot drift apart: check the
//! arguments with the tool's compiled schema, take the injected `_context`
//! out, and build `argsJson` from the declared parameters only.

use std::sync::Arc;

use serde_json::Value;

use super::Catalog;
use crate::mapping::Tool;
use crate::mapping::args::{self, Problem, Validator};
use crate::mapping::schema::CONTEXT_PARAM;

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
}

impl Catalog {
    /// The compiled input schema of a tool (compiled once, on first use).
    pub fn validator(&self, tool: &Tool) -> Result<Arc<Validator>, String> {
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
        let validator = self.validator(tool).map_err(|e| {
            vec![Problem {
                path: String::new(),
                message: e,
            }]
        })?;
        let problems = validator.check(arguments);
        if !problems.is_empty() {
            return Err(problems);
        }
        let app = &self.apps[tool.app];
        let service = app.service(tool.service.as_deref()).ok_or_else(|| {
            vec![Problem {
                path: String::new(),
                message: "the tool's service is gone".into(),
            }]
        })?;
        let method = service.manifest.method(&tool.method).ok_or_else(|| {
            vec![Problem {
                path: String::new(),
                message: "the tool's method is gone".into(),
            }]
        })?;
        let empty = serde_json::Map::new();
        let obj = arguments.as_object().unwrap_or(&empty);
        let context = if tool.context_injected {
            obj.get(CONTEXT_PARAM)
                .and_then(Value::as_str)
                .map(str::to_string)
        } else {
            None
        };
        Ok(Prepared {
            app: tool.app,
            service: tool.service.clone(),
            method: tool.method.clone(),
            args_json: args::outgoing(&service.manifest, method, obj),
            context,
        })
    }
}
