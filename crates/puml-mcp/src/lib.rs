//! The MCP server. Owned by the MCP work (issue 5).
