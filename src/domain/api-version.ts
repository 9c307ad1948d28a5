// The version of Warden's public API: told by the OpenAPI document (http/openapi.ts) and the MCP server's info
// (mcp/server.ts), so neither adapter imports the other for it.
export const API_VERSION = '1.0.0';
