// /api/v1/panels: discover the servers of a Pterodactyl or Pelican panel, and apply them as monitors and components.
import { API_LIMITS } from '../../../services/api-limits.js';
import { applyPanel } from '../../../services/panels/apply.js';
import { discoverPanel, panelApplyInput, panelDiscoverInput } from '../../../services/panels/discover.js';
import { panelApplyReportSchema, panelDiscoverySchema } from '../../../services/panels/views.js';
import type { App } from '../../env.js';
import { budgetedGuards } from './budget.js';
import type { ApiRunning } from './index.js';
import { type ApiGuards, apiOperation } from './operation.js';

const { requests, windowMs } = API_LIMITS.panelReads;
const PANEL_LIMIT = `${requests} panel discoveries and applies together per ${windowMs / 1000} s per organization`;

export function panelRoutes(app: App, allGuards: ApiGuards, running: Pick<ApiRunning, 'security'>): void {
  const guards = budgetedGuards(allGuards, { requests, windowMs, title: 'Too many panel reads', limit: PANEL_LIMIT });
  const op = { tag: 'monitors', method: 'post', scope: 'write' } as const;
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/panels/discover',
    summary: 'Discover the servers of a panel',
    description: `Lists the servers a Pterodactyl or Pelican client API key (ptlc_…) can see (\`GET /api/client\`, every page, at most 500 servers, under the probe-target policy; with \`allServers\`, \`?type=admin-all\`: every server of the panel, for a root admin's key) and proposes for each a game monitor (type guessed from the egg, the Docker image or the name; address and port from the default allocation), a panel resource monitor and a component. Nothing is stored, the key included. A key the panel refuses is a 400 on \`apiKey\`; a panel that cannot be reached or answers something else, a 400 on \`panelUrl\`. At most ${PANEL_LIMIT} (429 beyond).`,
    body: panelDiscoverInput.openapi('PanelDiscover'),
    ok: { status: 200, schema: panelDiscoverySchema.openapi('PanelDiscovery'), description: 'The proposals.' },
    run: (ctx, input) => discoverPanel({ ...ctx, security: running.security }, input),
    // The panel is asked over the network: no transaction around it; the entry follows (the key is never recorded).
    audit: {
      action: 'panel.discover',
      object: (input) => ({ id: null, label: new URL(input.panelUrl).host }),
      outside: true,
    },
  });
  apiOperation(app, guards, {
    ...op,
    path: '/api/v1/panels/apply',
    summary: 'Apply the servers of a panel',
    description: `Discovers again and creates or updates, for each server (or those in \`servers\`), its monitor, its resource monitor when \`resources\` is true (that monitor keeps the key in its config, as any pterodactyl monitor does) and its component on \`page\`. Keys start with \`ptero-\` and the server identifier: calling again re-syncs (renamed servers and moved allocations are updated). Each server's active restart schedules (\`GET /api/client/servers/{identifier}/schedules\`: a power restart, stop or kill, or a stop/restart command) become one recurring maintenance window \`ptero-<identifier>-restarts\` on \`page\` covering its monitors (cron read in \`timezone\`, each lasting \`restartMinutes\`), removed when the schedules are gone. Objects apply did not make are never changed: they are reported \`skipped\`; a server Warden refuses gets \`error\` and the others still apply. Servers of this panel gone from its listing are listed in \`gone\`; with \`prune\` (and a complete listing) their objects are deleted and listed in \`removed\`. At most ${PANEL_LIMIT} (429 beyond).`,
    body: panelApplyInput.openapi('PanelApply'),
    ok: {
      status: 200,
      schema: panelApplyReportSchema.openapi('PanelApplyReport'),
      description: 'What each server got.',
    },
    run: (ctx, input) => applyPanel({ ...ctx, security: running.security }, input),
    audit: { action: 'panel.apply', object: (input) => ({ id: null, label: input.page }), outside: true },
  });
}
