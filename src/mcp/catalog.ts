// What the MCP endpoint offers, without the SDK: the route declares itself from this, and the SDK loads on the first call.
import type { McpTool } from './tool.js';
import { getStatus } from './tools/get-status.js';
import { listIncidents } from './tools/list-incidents.js';
import { listStatusPages } from './tools/list-status-pages.js';

/** The protocol version Warden implements; older versions a client asks for are answered in kind. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';
export const ACCEPTED_VERSIONS = new Set([MCP_PROTOCOL_VERSION, '2025-03-26', '2024-11-05']);

/** Every tool by name; a tool is one file in tools/ and one line here. */
export const MCP_TOOLS = {
  list_status_pages: listStatusPages,
  get_status: getStatus,
  list_incidents: listIncidents,
} satisfies Record<string, McpTool>;
