// `warden import gatus`: a realistic Gatus config becomes a warden.yaml that validates, with what could not be carried over reported.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importGatusCommand } from '../../cli/commands/import-gatus.js';
import type { ConfigFile } from '../../config/file-schema.js';
import { ConfigError, parseConfigText } from '../../config/load.js';
import { importGatus, parseGatusConfig } from './gatus.js';
import { mapConditions } from './gatus-conditions.js';

const FIXTURE = 'test/fixtures/gatus/config.yaml';
/** The secrets the imported file reads from the environment, as the operator would set them. */
const SECRETS = {
  GATUS_DISCORD_WEBHOOK_URL: 'https://discord.com/api/webhooks/1234567890/abcdefghijklmnop',
  SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXX',
  GATUS_EMAIL_PASSWORD: 'hunter2',
  GATUS_CUSTOM_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
  GATUS_CUSTOM_HEADERS_AUTHORIZATION: 'Bearer s3cr3t-token',
  GATUS_API_X_API_KEY: 'abcdef123456',
  STORE_HOST: 'store.blocky.example.com',
  GATUS_PAGERDUTY_INTEGRATION_KEY: 'R0123456789abcdef0123456789abcde',
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'warden-gatus-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs `warden import gatus … -o FILE` in-process; returns the file's text and what went to standard error. */
async function runImport(...args: string[]): Promise<{ text: string; stderr: string }> {
  const output = join(dir, `warden-${Math.random().toString(36).slice(2)}.yaml`);
  const lines: string[] = [];
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    await importGatusCommand().parseAsync(['node', 'gatus', ...args, '-o', output]);
  } finally {
    spy.mockRestore();
  }
  return { text: await readFile(output, 'utf8'), stderr: lines.join('') };
}

describe('warden import gatus', () => {
  let text: string;
  let stderr: string;
  let file: ConfigFile;
  const monitor = (key: string) => file.monitors.find((m) => m.key === key);
  beforeAll(async () => {
    ({ text, stderr } = await runImport(FIXTURE));
    file = parseConfigText(text, 'imported', SECRETS);
  });

  it('writes a warden.yaml that config apply accepts once its secrets are set, and says which are missing otherwise', () => {
    expect(file.monitors.map((m) => [m.key, m.type])).toEqual([
      ['website', 'http'],
      ['api', 'http'],
      ['store', 'http'],
      ['lobby', 'tcp'],
      ['database', 'tcp'],
      ['mail', 'tls'],
      ['mail-submission', 'smtp'],
      ['dns', 'dns'],
      ['router', 'ping'],
      ['bastion', 'ssh'],
      ['orders', 'grpc'],
      ['live-map', 'websocket'],
      ['voice', 'udp'],
      ['staging-lobby', 'tcp'],
      ['nightly-backup', 'heartbeat'],
      ['map-render', 'heartbeat'],
    ]);
    expect(() => parseConfigText(text, 'imported', {})).toThrow(ConfigError);
    try {
      parseConfigText(text, 'imported', {});
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of Object.keys(SECRETS)) expect(problems).toContain(`environment variable ${name} is not set`);
    }
    expect(stderr).toContain('16 monitors, 1 page; 1 skipped');
  });

  it('turns Gatus maintenance into a recurring page-wide window', () => {
    const page = (file.pages as { maintenance?: unknown[] }[])[0];
    expect(page?.maintenance).toEqual([
      {
        key: 'maintenance-1',
        title: 'Maintenance',
        recurrence: [{ rrule: 'FREQ=WEEKLY;BYDAY=MO;BYHOUR=23;BYMINUTE=0', timezone: 'UTC', durationMin: 60 }],
        components: [],
        monitors: [],
        announce: true,
      },
    ]);
  });

  it('keeps secrets out of the file as ${ENV} placeholders, and Gatus’s own references as they were', () => {
    for (const secret of ['abcdefghijklmnop', 'hunter2', 's3cr3t-token', 'abcdef123456', 'potato-token'])
      expect(text).not.toContain(secret);
    expect(text).toContain('url: ${SLACK_WEBHOOK_URL}');
    expect(text).toContain('url: https://${STORE_HOST}/');
    expect(monitor('store')?.config).toMatchObject({ url: 'https://store.blocky.example.com/' });
  });

  it('turns conditions into expectations: status codes, keyword, JSON value, latency, certificate expiry, DNS answer', () => {
    expect(monitor('website')).toMatchObject({
      intervalSec: 300,
      degradedLatencyMs: 800,
      config: { url: 'https://blocky.example.com/', expectedStatus: 200, keyword: 'Welcome', certExpiryDays: 10 },
    });
    expect(monitor('api')).toMatchObject({
      intervalSec: 30,
      timeoutMs: 5000,
      config: {
        method: 'POST',
        expectedStatus: '100-299',
        jsonPath: '$.status',
        jsonExpected: 'UP',
        body: '{"probe": "API"}',
      },
    });
    expect(monitor('store')?.config).toMatchObject({
      expectedStatus: '200, 301-302',
      ignoreTls: true,
      maxRedirects: 0,
    });
    expect(monitor('lobby')).toMatchObject({
      intervalSec: 15,
      degradedLatencyMs: 200,
      config: { host: 'mc.blocky.example.com', port: 25565 },
    });
    expect(monitor('mail')?.config).toEqual({ host: 'mail.blocky.example.com', port: 465, certExpiryDays: 3 });
    expect(monitor('dns')?.config).toEqual({
      hostname: 'blocky.example.com',
      recordType: 'A',
      expected: '203.0.113.10',
      resolver: '1.1.1.1',
    });
    expect(monitor('staging-lobby')?.enabled).toBe(false);
    // A monitor on a private address is allowed to reach it, as Gatus did.
    expect(file.organization).toEqual({ key: 'default', name: 'Blocky Network', probePrivateTargets: 'allow' });
  });

  it("shows every enabled endpoint on one page, in its Gatus group, with the dashboard's title, logo and buttons", async () => {
    const [page] = file.pages;
    expect(page).toMatchObject({
      slug: 'status',
      title: 'Blocky Network status',
      branding: { logoUrl: 'https://blocky.example.com/logo.png' },
    });
    expect(page?.components.map((c) => [c.name, c.group ?? null])).toEqual([
      ['Website', 'Web'],
      ['API', 'Web'],
      ['Store', 'Web'],
      ['Lobby', 'Minecraft'],
      ['Database', 'Infrastructure'],
      ['Mail', 'Infrastructure'],
      ['Mail submission', 'Infrastructure'],
      ['DNS', 'Infrastructure'],
      ['Router', 'Infrastructure'],
      ['Bastion', 'Infrastructure'],
      ['Orders', 'Infrastructure'],
      ['Live map', 'Minecraft'],
      ['Voice', 'Infrastructure'],
      ['Nightly backup', 'Infrastructure'],
      ['Map render', null],
    ]);
    const other = parseConfigText((await runImport(FIXTURE, '--page', 'blocky')).text, 'imported', SECRETS);
    expect(other.pages.map((p) => p.slug)).toEqual(['blocky']);
    // The file is checked before it is written, placeholders aside: a slug config apply would refuse is an error.
    await expect(runImport(FIXTURE, '--page', 'Our Status')).rejects.toThrow(/pages\[0\]\.slug/);
  });

  it('makes external endpoints heartbeat monitors, and the alerting providers in use channels that their monitors name', () => {
    expect(monitor('nightly-backup')).toMatchObject({
      type: 'heartbeat',
      config: { graceSec: 90_000 },
      notify: ['discord'],
    });
    expect(monitor('map-render')?.config).toEqual({ graceSec: 604_800 });
    expect(file.notifications.map((c) => [c.key, c.type, c.rules.events])).toEqual([
      ['discord', 'discord', ['monitor.down', 'monitor.recovered']],
      ['slack', 'slack', ['monitor.down', 'monitor.recovered']],
      ['email', 'email', ['monitor.down']],
      ['custom', 'webhook', ['monitor.down']],
      ['pagerduty', 'pagerduty', ['monitor.down']],
    ]);
    expect(file.notifications.find((c) => c.key === 'slack')?.rules.remindEveryMin).toBe(30);
    expect(file.notifications.find((c) => c.key === 'email')?.config).toMatchObject({
      to: ['ops@blocky.example.com', 'owner@blocky.example.com'],
      port: 587,
      secure: 'starttls',
      password: 'hunter2',
    });
    // Gatus alerts after failure-threshold failures in a row: the default-alert's 2, and its default 3.
    expect(monitor('website')).toMatchObject({ notify: ['discord', 'email'], retries: 1 });
    expect(monitor('api')).toMatchObject({ notify: ['slack', 'pagerduty'], retries: 2 });
    expect(monitor('database')?.notify).toBeUndefined();
  });

  it('reports each endpoint, condition and provider it could not carry over exactly, in the file and on standard error', () => {
    const notes = [
      'alerting.pagerduty: Warden resolves the alert on recovery only when its rules send monitor.recovered',
      'endpoints[1] "API": condition "len([BODY].errors) == 0" not imported',
      'endpoints[1] "API": condition "[DOMAIN_EXPIRATION] > 720h" approximated',
      'endpoints[0] "Website": condition "[RESPONSE_TIME] < 800" approximated',
      'endpoints[0] "Website": its alerts wait for different failure-thresholds',
      'endpoints[6] "Mail submission": condition "[CERTIFICATE_EXPIRATION] > 48h" approximated',
      'endpoints[12] "Voice": Warden waits for an answer datagram',
      'external-endpoints[1] "Map render": Gatus never failed it for silence',
      'alerting.custom: Warden posts its own signed JSON event',
      'alerting.discord: title not imported',
    ];
    for (const note of notes) {
      expect(text).toContain(`#   - ${note}`);
      expect(stderr).toContain(`  - ${note}`);
    }
  });
});

describe('Gatus conditions as expectations', () => {
  it.each([
    [['[STATUS] != 500'], '100-499, 501-599'],
    [['[STATUS] == pat(2*)'], '200-299'],
    [['[STATUS] >= 200', '[STATUS] < 400'], '200-399'],
    [['200 == [STATUS]'], 200],
    [['[BODY].ok == true'], '100-599'],
  ])('reads %j as expectedStatus %j', (conditions, expected) => {
    expect(mapConditions('https', conditions).config.expectedStatus).toEqual(expected);
  });

  it('maps what the body must and must not contain, and which JSON value must be there', () => {
    const mapping = mapConditions('http', ['[BODY] != pat(*error*)', 'has([BODY].data) == true', '[BODY] == pat(OK*)']);
    expect(mapping.config).toMatchObject({ notKeyword: 'error', jsonPath: '$.data', keyword: 'OK' });
    expect(mapping.notes).toEqual([
      'condition "[BODY] == pat(OK*)" approximated: the body must contain "OK" anywhere (keyword)',
    ]);
  });

  it('names every condition it cannot express, and keeps the rest', () => {
    const mapping = mapConditions('http', [
      '[BODY].id == any(1, 2)',
      '[IP] == 10.0.0.1',
      '[STATUS] = 200',
      '[BODY].a == 1',
      '[BODY].b == 2',
    ]);
    expect(mapping.config).toMatchObject({ jsonPath: '$.a', jsonExpected: '1' });
    expect(mapping.notes).toEqual([
      'condition "[BODY].id == any(1, 2)" not imported: Warden checks that a JSON value equals one value',
      'condition "[IP] == 10.0.0.1" not imported: Warden has no equivalent of [IP]',
      'condition "[STATUS] = 200" not imported: not a condition Warden understands',
      'condition "[BODY].b == 2" not imported: a Warden http monitor checks one JSON path',
    ]);
  });
});

describe('Gatus files', () => {
  it('reads a folder of files merged as Gatus merges them, with $VAR references kept as ${VAR}', async () => {
    const folder = join(dir, 'gatus-config');
    await mkdir(join(folder, 'endpoints'), { recursive: true });
    await writeFile(join(folder, 'alerting.yaml'), 'alerting:\n  slack:\n    webhook-url: $SLACK_URL\n');
    await writeFile(
      join(folder, 'endpoints', 'web.yml'),
      'endpoints:\n  - name: Web\n    url: https://example.com/\n    conditions: ["[BODY] == pat(*costs $$5*)"]\n    alerts: [{ type: slack }]\n',
    );
    await writeFile(
      join(folder, 'endpoints', 'game.yaml'),
      'endpoints:\n  - name: Game\n    url: tcp://game.example.com:27015\n    conditions: ["[CONNECTED] == true"]\n',
    );
    const file = parseConfigText((await runImport(folder)).text, 'imported', {
      SLACK_URL: 'https://hooks.slack.com/services/T/B/X',
    });
    expect(file.monitors.map((m) => m.key)).toEqual(['game', 'web']);
    expect(file.monitors[1]?.config).toMatchObject({ keyword: 'costs $5' });
    expect(file.notifications[0]?.config).toEqual({ url: 'https://hooks.slack.com/services/T/B/X' });
  });

  it('gives endpoints of the same name in different groups keys and components of their own', () => {
    const report = importGatus(
      parseGatusConfig([
        'endpoints:\n' +
          '  - { name: API, group: EU, url: "https://eu.example.com/", conditions: ["[STATUS] == 200"] }\n' +
          '  - { name: API, group: US, url: "https://us.example.com/", conditions: ["[STATUS] == 200"] }\n',
      ]),
    );
    const page = (report.file.pages as { components: unknown[] }[])[0];
    expect((report.file.monitors as { key: string }[]).map((m) => m.key)).toEqual(['api', 'us-api']);
    expect(page?.components).toEqual([
      { key: 'api', name: 'API', monitor: 'api', group: 'EU' },
      { key: 'us-api', name: 'API', monitor: 'us-api', group: 'US' },
    ]);
  });
});
