// The reference documents served at /docs/{name}.md and listed by llms.txt: the package's docs/ directory, read once at start.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface ReferenceDocEntry {
  /** File name without `.md`; also the path: /docs/{name}.md. */
  name: string;
  title: string;
  /** One line: what a reader finds in it (shown by llms.txt). */
  summary: string;
}

export interface ReferenceDoc extends ReferenceDocEntry {
  content: string;
}

/** What is published, in the order llms.txt lists it. Operator notes (storage.md) stay in the repository. */
export const REFERENCE_DOCS: readonly ReferenceDocEntry[] = [
  {
    name: 'api',
    title: 'API guide',
    summary:
      'The public status API and the organization API: API keys, monitors, history, pages, incidents, errors and limits.',
  },
  {
    name: 'mcp',
    title: 'MCP guide',
    summary: 'The MCP endpoint: its tools, their arguments and bounds, resources, and which pages are exposed.',
  },
  {
    name: 'live',
    title: 'Live stream',
    summary: 'The WebSocket stream of a page (/s/{slug}/live): its messages and kinds of update.',
  },
  {
    name: 'push',
    title: 'Push heartbeats',
    summary: 'Heartbeat monitors: the push URL, its parameters, metrics and the grace period.',
  },
  {
    name: 'relay',
    title: 'Relay guide',
    summary: 'Running probes from your own network with a relay agent: tokens, the relay protocol, offline behaviour.',
  },
  {
    name: 'states',
    title: 'States and transitions',
    summary: 'How check results become monitor, component and page states, and why each changes.',
  },
  {
    name: 'monitors',
    title: 'Monitor types',
    summary: 'Every monitor type, where it runs, its configuration fields and what its checks report.',
  },
  {
    name: 'notifications',
    title: 'Notifications',
    summary: 'Alert channels (email, Discord, Slack, webhooks…), what each event says, rules, and page subscriptions.',
  },
  {
    name: 'reports',
    title: 'Uptime reports',
    summary: "Uptime and SLA reports as JSON and CSV, a page's public uptime history, and the monthly report mail.",
  },
  {
    name: 'statuspage-compat',
    title: 'Statuspage-compatible API',
    summary:
      "Atlassian Statuspage's public API v2 on every page: the endpoints, how Warden's states map, and what is not supported.",
  },
  {
    name: 'embed',
    title: 'Embeddable widget',
    summary: 'The widget for other sites: variants, themes, one component, iframe sizes and the postMessage height.',
  },
  {
    name: 'languages',
    title: 'Languages',
    summary: "The page's language and time zone, how a reader's language is chosen, and the shipped languages.",
  },
  {
    name: 'branding',
    title: 'Branding',
    summary: "A page's logo, favicon, accent colour, header links, footer and custom stylesheet, and their limits.",
  },
  {
    name: 'accounts',
    title: 'Accounts and organizations',
    summary: 'Users, sessions, second factor, OpenID Connect, roles, invitations and the audit log.',
  },
  {
    name: 'dashboard',
    title: 'Dashboard',
    summary: 'The /app dashboard: its screens and what each does through the API.',
  },
];

/** The package's docs/ directory, the same from src/ (tests) and dist/ (the built server). */
export const DOCS_DIR = fileURLToPath(new URL('../../docs/', import.meta.url));

/** Reads every published document that exists; a missing file is left out, not an error. */
export function loadReferenceDocs(dir: string = DOCS_DIR): ReferenceDoc[] {
  const docs: ReferenceDoc[] = [];
  for (const entry of REFERENCE_DOCS) {
    try {
      docs.push({ ...entry, content: readFileSync(`${dir.replace(/\/?$/, '/')}${entry.name}.md`, 'utf8') });
    } catch {
      // Not written (yet) in this installation: not listed.
    }
  }
  return docs;
}
