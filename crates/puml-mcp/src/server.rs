//! The MCP handler: routes tools, resources and prompts, and keeps the
//! roots in force (the server's `--root`s, narrowed by the client's roots).

use crate::prompts;
use crate::resources;
use crate::security::Roots;
use crate::tools::{self, ToolContext, ToolEntry};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse, Implementation,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{NotificationContext, RequestContext};
use rmcp::{ErrorData, Peer, RoleServer, ServerHandler};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long to wait for the client's answer to `roots/list`.
const ROOTS_TIMEOUT: Duration = Duration::from_secs(5);

const INSTRUCTIONS: &str = "puml: a compiler for PlantUML sequence diagrams. \
Never present diagram source that has not passed puml_check: draft, call puml_check, repair every \
diagnostic (apply the machine-applicable fixes), check again until ok is true, then render with \
puml_render_svg. Use puml_list_primitives or the puml://syntax/* resources instead of guessing syntax. \
Files are read and written only inside the workspace roots; writing needs write: true and an explicit target.";

#[derive(Debug, Clone)]
enum ClientRoots {
    /// Not asked yet (or the client said its roots changed).
    Unknown,
    /// The client offers no roots: the server's roots apply.
    NotOffered,
    /// The client's roots, already intersected with the server's.
    Narrowed(Roots),
}

#[derive(Clone)]
pub struct PumlServer {
    server_roots: Roots,
    client_roots: Arc<Mutex<ClientRoots>>,
    tools: Arc<Vec<ToolEntry>>,
}

impl PumlServer {
    pub fn new(roots: Roots) -> PumlServer {
        PumlServer {
            server_roots: roots,
            client_roots: Arc::new(Mutex::new(ClientRoots::Unknown)),
            tools: Arc::new(tools::all()),
        }
    }

    /// The roots for one request. Asks the client for its roots once (again
    /// after `roots/list_changed`); a client that offers roots but fails to
    /// list them gets no roots at all: fail closed.
    async fn effective_roots(&self, peer: &Peer<RoleServer>) -> Roots {
        let state = self
            .client_roots
            .lock()
            .map(|s| s.clone())
            .unwrap_or(ClientRoots::Unknown);
        match state {
            ClientRoots::NotOffered => return self.server_roots.clone(),
            ClientRoots::Narrowed(roots) => return roots,
            ClientRoots::Unknown => {}
        }
        let offers_roots = peer.peer_info().is_some_and(|info| info.capabilities.roots.is_some());
        let state = if !offers_roots {
            ClientRoots::NotOffered
        } else {
            match tokio::time::timeout(ROOTS_TIMEOUT, client_root_dirs(peer)).await {
                Ok(Some(dirs)) => ClientRoots::Narrowed(self.server_roots.narrowed_by(&dirs)),
                _ => ClientRoots::Narrowed(Roots::none()),
            }
        };
        if let Ok(mut slot) = self.client_roots.lock() {
            *slot = state.clone();
        }
        match state {
            ClientRoots::Narrowed(roots) => roots,
            _ => self.server_roots.clone(),
        }
    }

    pub fn tool_list(&self) -> Vec<Tool> {
        self.tools.iter().map(|t| (t.describe)()).collect()
    }
}

/// The directories of the client's roots (`roots/list`), or `None` when it fails.
/// MCP 2026-07-28 deprecates roots; clients of earlier versions still send them.
#[allow(deprecated)]
async fn client_root_dirs(peer: &Peer<RoleServer>) -> Option<Vec<PathBuf>> {
    let result = peer.list_roots().await.ok()?;
    Some(result.roots.iter().filter_map(|r| file_uri_to_path(&r.uri)).collect())
}

/// `file:///a/b%20c` → `/a/b c`; anything else (other schemes, hosts) → `None`.
pub fn file_uri_to_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    Some(PathBuf::from(resources::percent_decode(rest)?))
}

impl ServerHandler for PumlServer {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(
                Implementation::new("puml-mcp", env!("CARGO_PKG_VERSION"))
                    .with_title("puml — PlantUML sequence diagrams with a compiler"),
            )
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tool_list()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).map(|t| (t.describe)())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(entry) = self.tools.iter().find(|t| t.name == request.name) else {
            return Err(ErrorData::invalid_params(
                format!("unknown tool: {}", request.name),
                None,
            ));
        };
        let roots = self.effective_roots(&context.peer).await;
        let ctx = ToolContext { roots };
        let result = (entry.call)(&ctx, request.arguments.unwrap_or_default())?;
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resources::list()))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(ListResourceTemplatesResult::with_all_items(resources::templates()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let roots = if resources::needs_roots(&request.uri) {
            self.effective_roots(&context.peer).await
        } else {
            self.server_roots.clone()
        };
        let uri = request.uri.clone();
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| resources::read(&request.uri, &roots)));
        match read {
            Ok(result) => result.map(Into::into),
            Err(_) => Err(ErrorData::internal_error(
                format!("internal error while reading {uri}"),
                None,
            )),
        }
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let name = request.name.clone();
        let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            prompts::get(&request.name, request.arguments.unwrap_or_default())
        }));
        match got {
            Ok(result) => result.map(Into::into),
            Err(_) => Err(ErrorData::internal_error(
                format!("internal error in prompt {name}"),
                None,
            )),
        }
    }

    async fn on_roots_list_changed(&self, _context: NotificationContext<RoleServer>) {
        if let Ok(mut slot) = self.client_roots.lock() {
            *slot = ClientRoots::Unknown;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris() {
        assert_eq!(file_uri_to_path("file:///tmp/a%20b"), Some(PathBuf::from("/tmp/a b")));
        assert_eq!(file_uri_to_path("file://localhost/tmp"), Some(PathBuf::from("/tmp")));
        assert_eq!(file_uri_to_path("file://host/tmp"), None);
        assert_eq!(file_uri_to_path("https://x/y"), None);
    }
}
