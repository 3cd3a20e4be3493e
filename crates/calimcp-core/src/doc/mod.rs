//! `doc`: an app's reference as one self-contained HTML page (`calimcp doc`,
//! the pages `serve --http` answers at `/` and `/apps/NAME`, and the MCP App
//! resource `ui://calimcp/reference`). Pure, no I/O: built from the apps and
//! the tools the mapping core made, so a page says what `describe` and
//! `schema` say — signatures, tool names, schemas — with the types linked to
//! their definitions, an example argument object per method, the events and
//! the state layout, and the app's guide and icon from its metadata.
//!
//! A page holds everything it shows (no fonts, scripts or styles fetched;
//! the one image it may load is the app's icon, a `data:` or `https:` URL);
//! its script only enhances it: the method filter, keyboard shortcuts and,
//! when [`TryIt`] is given, a form per callable tool that checks its
//! arguments against the tool's input schema in the page and calls the tool
//! over the server's MCP endpoint (same-origin fetch) or, inside an MCP Apps
//! host, over the host's postMessage bridge.

pub mod example;
mod guide;
pub mod html;
mod page;

pub use page::{index, not_found, page};

use std::collections::HashSet;

use crate::abi::App;
use crate::mapping::Tool;

/// One app on a page.
pub struct AppDoc<'a> {
    pub app: &'a App,
    /// The app's tools, every service's, as the tool set built them.
    pub tools: Vec<&'a Tool>,
    /// How links and ids name the app: its tool prefix or resource key.
    pub key: String,
    /// The resource listing its contexts, for the try-it context chooser.
    pub contexts_uri: Option<String>,
}

/// How a page's try-it forms reach the tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// Same-origin requests to the server's Streamable HTTP endpoint.
    Fetch { endpoint: String },
    /// JSON-RPC over `postMessage` to an MCP Apps host (SEP-1865).
    Bridge,
}

/// Try-it forms: how they call, and which tools get one (the ones the server
/// lists: `--read-only`, `--allow`/`--deny` and `--app` already applied).
#[derive(Debug, Clone)]
pub struct TryIt {
    pub transport: Transport,
    pub callable: HashSet<String>,
}

/// What a page offers beyond the reference.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `None`: a static page, without forms.
    pub try_it: Option<TryIt>,
}
