// Every limit of what Warden exposes to AI readers (MCP and the llms.txt files) in one place; docs/mcp.md lists the same numbers.

export const AI_LIMITS = {
  /** Largest JSON-RPC request body accepted on POST /mcp (413 beyond). Tool arguments are a slug and three numbers. */
  mcpBodyBytes: 64 * 1024,
  /** Pages listed by list_status_pages, the MCP resources and the llms files, by slug. */
  publicPages: 500,
  /** Page snapshots built at once when a listing finds cold pages. */
  snapshotLoadConcurrency: 8,
  /** list_incidents: how many incidents (newest first) and how far back resolved ones go. */
  incidents: {
    limit: { min: 1, max: 100, default: 20 },
    days: { min: 1, max: 365, default: 30 },
  },
  /** Rendered llms files kept per process (one per host that asked, custom domains included). */
  llmsRenderings: 64,
} as const;
