import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { MONITOR_TYPES } from '../domain/monitor-type.js';
import { demoConfig } from './demo.js';
import { configJsonSchema } from './file-schema.js';
import { ConfigError, loadConfigFile, parseConfigText } from './load.js';

function problemsOf(text: string, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    parseConfigText(text, 'test.yaml', env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected the config to be rejected');
}

const MINIMAL = `
organization: { name: Acme }
monitors:
  - { key: web, name: Web, type: http, config: { url: "https://example.com" } }
pages:
  - slug: acme
    title: Acme
    components: [{ name: Web, monitor: web }]
`;

describe('config file validation', () => {
  it('accepts the shipped example, which has one monitor of every type', async () => {
    const config = await loadConfigFile('warden.example.yaml', {});
    expect(new Set(config.monitors.map((m) => m.type))).toEqual(new Set(MONITOR_TYPES));
  });

  it("accepts the README's warden.yaml example as printed", async () => {
    const readme = await readFile('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('### warden.yaml'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(yaml).toBeDefined();
    const env = {
      BACKUP_PUSH_TOKEN: 'wdp_readme-example-token-0123456789',
      ACME_PAGE_PASSWORD: 'correct horse battery',
      COMMUNITY_DISCORD_URL: 'https://discord.com/api/webhooks/1/abc',
      ACME_DISCORD_WEBHOOK: 'https://discord.com/api/webhooks/2/readme-board-token',
    };
    const config = parseConfigText(yaml as string, 'README.md', env);
    expect(config.monitors.map((m) => m.key)).toEqual(['lobby', 'backup']);
    expect(config.notifications?.map((n) => n.key)).toEqual(['oncall', 'community']);
    expect(config.escalationPolicies).toEqual([
      {
        key: 'night',
        name: 'Night shift',
        monitors: ['lobby'],
        steps: [
          { afterMin: 0, channels: ['community'] },
          { afterMin: 15, channels: ['oncall'] },
        ],
      },
    ]);
    expect(config.pages[0]?.boards).toEqual([
      {
        key: 'status',
        kind: 'discord',
        webhookUrl: 'https://discord.com/api/webhooks/2/readme-board-token',
        components: ['Lobby'],
        enabled: true,
      },
    ]);
  });

  it('accepts a minimal file and fills in the documented defaults', () => {
    const config = parseConfigText(MINIMAL, 'test.yaml', {});
    expect(config.organization).toEqual({ key: 'default', name: 'Acme' });
    const [web] = config.monitors;
    expect(web).toMatchObject({ runOn: 'edge', intervalSec: 60, timeoutMs: 10000, retries: 1, enabled: true });
    expect(web?.config).toMatchObject({ method: 'GET', expectedStatus: '200-299', maxRedirects: 5 });
    expect(config.pages[0]).toMatchObject({ aiPolicy: 'allow', incidents: [], maintenance: [], boards: [] });
  });

  it('defaults runOn to the first place the type allows', () => {
    const config = parseConfigText(
      `organization: { name: A }
relays: [{ key: lab, name: Lab }]
monitors:
  - { key: hb, name: HB, type: heartbeat }
  - { key: gd, name: GD, type: gamedig, relay: lab, config: { game: valheim, host: 10.0.0.1 } }`,
      't',
      {},
    );
    expect(config.monitors.map((m) => m.runOn)).toEqual(['push', 'relay']);
    expect(config.monitors[0]?.config).toEqual({ graceSec: 90 });
  });

  it('lists every problem by path with the exact message', () => {
    const problems = problemsOf(`
organization: { name: Acme }
monitors:
  - { key: a, name: A, type: tcp, config: { host: a.example.com, port: 80 } }
  - { key: b, name: B, type: tcp, config: { host: b.example.com, port: 80 } }
  - { key: c, name: C, type: tcp, config: { host: c.example.com, port: 70000 } }
  - { key: d, name: D, type: teamspeak, config: {} }
  - { key: e, name: E, type: gamedig, runOn: edge, config: { game: valheim, host: x } }
  - { key: a, name: F, type: tcp, intervalSec: 5, config: { host: f.example.com, port: 1 } }
`);
    expect(problems).toEqual([
      'monitors[2].config.port: expected an integer from 1 to 65535',
      `monitors[3].type: expected one of ${MONITOR_TYPES.join(', ')}`,
      'monitors[4].runOn: a gamedig monitor runs on relay',
      'monitors[5].intervalSec: expected an integer from 10 to 86400 seconds',
      // Checked although other fields failed: every problem in one run.
      'monitors[5].key: duplicate monitor key "a"',
    ]);
  });

  it("lists a typo'd key, a bad port and a broken reference in one run, suggesting the key meant", () => {
    const problems = problemsOf(`
orgnization: { name: Acme }
relays: [{ key: lab, name: Lab }]
monitors:
  - { key: web, name: Web, type: tcp, config: { host: web.example.com, port: 70000 } }
  - { key: mc, name: MC, type: minecraft-java, runOn: relay, relay: attic, config: { host: mc.example.com }, notfy: [ops] }
pages:
  - slug: acme
    titel: Acme
    components: [{ name: Web, monitor: web }, { name: MC, monitor: mc }, { name: Shop, monitor: shop }]
`);
    expect(problems).toEqual([
      'organization: required — e.g. `organization: { key: acme }` to add to an organization made in the dashboard, or `organization: { name: My Community }` to create and manage one',
      'monitors[0].config.port: expected an integer from 1 to 65535',
      'monitors[1]: Unrecognized key: "notfy" (did you mean notify?)',
      'pages[0].title: required',
      'pages[0]: Unrecognized key: "titel" (did you mean title?)',
      '(root): Unrecognized key: "orgnization" (did you mean organization?)',
      // A monitor that failed elsewhere still counts as declared: no "no monitor with key" for web or mc.
      'monitors[1].relay: no relay with key "attic"',
      'pages[0].components[2].monitor: no monitor with key "shop"',
    ]);
  });

  it('says what a missing organization needs, and checks the rest of the file meanwhile', () => {
    expect(problemsOf('')).toEqual([
      'organization: required — e.g. `organization: { key: acme }` to add to an organization made in the dashboard, or `organization: { name: My Community }` to create and manage one',
    ]);
    expect(problemsOf('organization: {}')).toEqual([
      'organization.name: required — or the key alone of an organization made in the dashboard',
    ]);
    expect(problemsOf('pages: [{ slug: a, title: A, components: [{ name: X, monitor: nope }] }]')).toEqual([
      'organization: required — e.g. `organization: { key: acme }` to add to an organization made in the dashboard, or `organization: { name: My Community }` to create and manage one',
      'pages[0].components[0].monitor: no monitor with key "nope"',
    ]);
  });

  it('checks references between relays, monitors, components, incidents and maintenance', () => {
    const problems = problemsOf(`
organization: { name: Acme }
relays: [{ key: lab, name: Lab }]
monitors:
  - { key: a, name: A, type: tcp, runOn: relay, config: { host: a.example.com, port: 80 } }
  - { key: b, name: B, type: tcp, runOn: relay, relay: attic, config: { host: b.example.com, port: 80 } }
  - { key: a, name: C, type: tcp, config: { host: c.example.com, port: 80 } }
pages:
  - slug: acme
    title: Acme
    components: [{ name: A, monitor: a }, { name: Z, monitor: zzz }, { name: A }]
    incidents:
      - { key: i1, title: Down, startedAt: "2026-01-01T00:00:00Z", components: [Nope] }
    maintenance:
      - { key: m1, title: Work, startsAt: "2026-01-02T00:00:00Z", endsAt: "2026-01-01T00:00:00Z" }
      - { key: m2, title: Work, startsAt: "2026-01-02T00:00:00Z", endsAt: "2026-01-03T00:00:00Z", monitors: [b, nope] }
  - { slug: acme, title: Again }
`);
    expect(problems).toEqual([
      'pages[0].maintenance[0].endsAt: must be after startsAt',
      'monitors[0].relay: required when runOn is relay',
      'monitors[1].relay: no relay with key "attic"',
      'monitors[2].key: duplicate monitor key "a"',
      'pages[0].components[1].monitor: no monitor with key "zzz"',
      'pages[0].components[2].name: duplicate component "A" on this page',
      'pages[0].incidents[0].components[0]: no component "Nope" on this page',
      'pages[0].maintenance[1].monitors[1]: no monitor with key "nope"',
      'pages[1].slug: duplicate page slug "acme"',
    ]);
  });

  it("checks a monitor's locations and quorum against the relays of the file", () => {
    const problems = problemsOf(`
organization: { name: Acme }
relays: [{ key: lab, name: Lab }]
monitors:
  - { key: a, name: A, type: tcp, runOn: edge, locations: [lab, attic], config: { host: a.example.com, port: 80 } }
  - { key: b, name: B, type: tcp, runOn: relay, relay: lab, locations: [lab, edge], quorum: 4, config: { host: b.example.com, port: 80 } }
`);
    expect(problems).toEqual([
      'monitors[0].locations: no relay with key "attic" (a location is "edge" or a relay key)',
      `monitors[1].locations: "lab" is the monitor's own place`,
      `monitors[1].quorum: at most the number of locations (3, the monitor's own place included)`,
    ]);
  });

  it('validates each type with its own schema', () => {
    const problems = problemsOf(`
organization: { name: Acme }
monitors:
  - { key: a, name: A, type: discord, config: { mode: bot, guildId: "123456789012345678" } }
  - { key: b, name: B, type: http, config: { url: "ftp://example.com", expectedStatus: "2xx" } }
  - { key: c, name: C, type: dns, config: { hostname: example.com, recordType: PTR } }
  - { key: d, name: D, type: minecraft-java, config: { host: mc.example.com, bogus: 1 } }
`);
    expect(problems).toEqual([
      'monitors[0].config.botToken: required when mode is bot',
      'monitors[1].config.url: expected an http:// or https:// URL',
      'monitors[1].config.expectedStatus: expected a status code, a list of codes, or ranges such as "200-299"',
      'monitors[2].config.recordType: Invalid option: expected one of "A"|"AAAA"|"CNAME"|"MX"|"TXT"|"NS"|"SRV"|"CAA"',
      'monitors[3].config: Unrecognized key: "bogus"',
    ]);
  });

  it("checks a channel's message template, naming the line", () => {
    const problems = problemsOf(`
organization: { name: Acme }
notifications:
  - key: ops
    name: Ops
    type: discord
    config: { url: "https://discord.com/api/webhooks/1/a", template: { title: "{{title}}", body: "ok\\n{{monitr.name}}" } }
`);
    expect(problems).toEqual([
      'notifications[0].config.template.body: body template, line 2: unknown field "monitr.name" (docs/notifications.md lists the fields)',
    ]);
  });

  it('substitutes ${ENV_VAR} in values, with defaults, and reports missing variables by path', () => {
    const text = `
organization: { name: "\${ORG_NAME}" }
pages:
  - { slug: a, title: A, password: "\${PAGE_PASSWORD}" }
  - { slug: b, title: "\${TITLE_B:-Fallback}" }
`;
    const config = parseConfigText(text, 't', {
      ORG_NAME: 'From env: "quoted" #not-a-comment',
      PAGE_PASSWORD: 's3cret-passphrase',
    });
    expect(config.organization.name).toBe('From env: "quoted" #not-a-comment');
    expect(config.pages[0]?.password).toBe('s3cret-passphrase');
    expect(config.pages[1]?.title).toBe('Fallback');
    expect(problemsOf(text, {})).toEqual([
      'organization.name: environment variable ORG_NAME is not set',
      'pages[0].password: environment variable PAGE_PASSWORD is not set',
    ]);
  });

  it('reports YAML syntax errors with their line', () => {
    const problems = problemsOf('organization:\n  name: [unclosed\n');
    expect(problems[0]).toMatch(/^line \d+, column \d+: /);
  });

  it('reads YAML 1.2: yes, dates and << stay strings, and a key given twice is an error with its line', () => {
    const config = parseConfigText(
      'organization: { name: yes }\npages:\n  - { slug: a, title: 2026-11-24, description: "<<" }\n',
      't',
      {},
    );
    expect(config.organization.name).toBe('yes');
    expect(config.pages[0]?.title).toBe('2026-11-24');
    expect(problemsOf('organization:\n  name: A\n  name: B\n')).toEqual(['line 3, column 3: duplicated mapping key']);
  });

  it('refuses a file whose aliases expand without bound, without expanding them', () => {
    // Ten levels of ten aliases each: 10^10 values from ~600 bytes.
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= 10; i++)
      lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
    expect(problemsOf(`${lines.join('\n')}\norganization: { name: Acme }\n`)).toEqual([
      "the file's aliases expand to more than 1000000 values (a file that repeats itself through anchors)",
    ]);
  });

  it('refuses an alias to a value that contains it', () => {
    expect(problemsOf('organization: &o { name: Acme, again: *o }\n')).toEqual([
      'an alias refers to a value that contains it',
    ]);
  });

  it('keeps a __proto__ key an ordinary key, through ${VAR} substitution too', () => {
    const problems = problemsOf('organization: { name: "${NAME}", __proto__: { polluted: true } }\n', { NAME: 'Acme' });
    expect(problems).toEqual(['organization: Unrecognized key: "__proto__"']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports a missing file plainly', async () => {
    await expect(loadConfigFile('/nonexistent/warden.yaml')).rejects.toThrow(/the file does not exist/);
  });

  it('builds a valid demo that checks the server itself', () => {
    const demo = demoConfig(4321);
    expect(demo.pages.map((p) => p.slug)).toEqual(['demo']);
    expect(demo.monitors.map((m) => m.type).sort()).toEqual(['heartbeat', 'http', 'tcp']);
    expect(demo.monitors.find((m) => m.type === 'tcp')?.config).toEqual({ host: '127.0.0.1', port: 4321 });
  });

  it('exports a JSON Schema that describes every monitor type', () => {
    const schema = JSON.stringify(configJsonSchema());
    for (const type of MONITOR_TYPES) expect(schema).toContain(`"const":"${type}"`);
    expect(schema).toContain('expected an integer from 1 to 65535'.slice(0, 0));
  });
});
