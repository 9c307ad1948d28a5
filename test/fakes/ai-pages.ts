// A warden.yaml with pages AI readers may and may not see, and the secrets that must never reach MCP or the llms files.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Every secret of AI_PAGES_CONFIG: none may appear in an MCP answer or an llms file. */
export const AI_SECRETS = {
  pagePassword: 'hunter2-page-pass',
  rconPassword: 'rcon-secret-7Q2x',
  headerToken: 'Bearer header-secret-9Zk',
  pushToken: 'wdp_pushsecret0123456789abcdef',
} as const;

/** The pages that must stay hidden, by slug and title. */
export const HIDDEN_PAGES = [
  { slug: 'secret', title: 'Secret Base' },
  { slug: 'private', title: 'Private Stuff' },
] as const;

/**
 * Acme (public, custom domain status.acme.test) with an active incident, one resolved 3 days ago and one 60 days ago;
 * Beta (public, no incidents); Secret (password); Private (aiPolicy disallow, custom domain private.acme.test).
 */
export function aiPagesConfig(now: number): string {
  const at = (ms: number) => new Date(ms).toISOString();
  return `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
  - { key: admin, name: Admin, type: rcon, config: { host: 127.0.0.1, port: 25575, password: "${AI_SECRETS.rconPassword}" } }
  - key: web
    name: Web
    type: http
    config: { url: "http://127.0.0.1:1/", headers: { Authorization: "${AI_SECRETS.headerToken}" } }
  - { key: beat, name: Beat, type: heartbeat, runOn: push, pushToken: "${AI_SECRETS.pushToken}", config: { graceSec: 300 } }
pages:
  - slug: acme
    title: Acme Network
    description: Our Minecraft servers
    customDomain: status.acme.test
    components:
      - { name: Lobby, monitor: lobby }
      - { name: Admin, monitor: admin }
      - { name: Website, monitor: web }
      - { name: Backups, monitor: beat }
    incidents:
      - key: lag
        title: Lobby lag spikes
        status: identified
        impact: minor
        startedAt: "${at(now - HOUR)}"
        components: [Lobby]
        updates:
          - { at: "${at(now - HOUR)}", status: investigating, message: "Players report lag in the lobby." }
          - { at: "${at(now - HOUR / 2)}", status: identified, message: "A plugin update causes it; rolling back." }
      - key: outage
        title: Website outage
        status: resolved
        impact: major
        startedAt: "${at(now - 3 * DAY - 2 * HOUR)}"
        resolvedAt: "${at(now - 3 * DAY)}"
        components: [Website]
        updates:
          - { at: "${at(now - 3 * DAY)}", status: resolved, message: "The website is back." }
      - key: ancient
        title: Old database incident
        status: resolved
        impact: critical
        startedAt: "${at(now - 60 * DAY - HOUR)}"
        resolvedAt: "${at(now - 60 * DAY)}"
  - slug: beta
    title: Beta Realm
    components:
      - { name: Lobby, monitor: lobby }
  - slug: secret
    title: Secret Base
    password: "${AI_SECRETS.pagePassword}"
    components:
      - { name: Admin, monitor: admin }
  - slug: private
    title: Private Stuff
    aiPolicy: disallow
    customDomain: private.acme.test
    components:
      - { name: Website, monitor: web }
`;
}
