// A Gatus file written to break the importer: every field it reads given values of the wrong kind, keys that name
// Object.prototype's members, aliases that loop. Each import ends in a report or a validation message, never a crash.
import { describe, expect, it } from 'vitest';
import { configFileSchema } from '../../config/file-schema.js';
import { formatWardenYaml } from '../../config/write.js';
import { ValidationError } from '../../domain/errors.js';
import { importGatus, parseGatusConfig } from './gatus.js';
import { importHeader } from './report.js';

/** A Gatus file using every part the importer reads. */
const base = () => ({
  ui: {
    title: 'Status',
    header: 'Acme',
    description: 'd',
    logo: 'https://x.example/l.png',
    buttons: [{ name: 'Home', link: 'https://x.example' }],
    'custom-css': 'a{}',
  },
  alerting: {
    slack: {
      'webhook-url': 'https://hooks.slack.com/x',
      'default-alert': { 'failure-threshold': 2, 'send-on-resolved': true },
    },
    ntfy: { topic: 't', url: 'https://ntfy.sh', token: 'tk', priority: 3 },
    telegram: { token: 'tk', id: 5, 'api-url': 'https://api.telegram.org' },
    email: {
      from: 'a@x.example',
      host: 'smtp.x.example',
      port: 465,
      to: 'b@x.example',
      password: 'p',
      username: 'u',
      client: { insecure: true },
    },
    custom: {
      url: 'https://x.example/[ALERT_DESCRIPTION]',
      headers: { Authorization: 'Bearer x', 'X-A': 'b' },
      overrides: [{ group: 'g' }],
    },
  },
  endpoints: [
    {
      name: 'web',
      group: 'core',
      url: 'https://example.com',
      method: 'POST',
      body: '[ENDPOINT_NAME]',
      graphql: true,
      headers: { Authorization: 'x', Accept: 'y' },
      interval: '30s',
      client: { timeout: '5s', insecure: true, 'ignore-redirect': true },
      conditions: ['[STATUS] == 200', '[RESPONSE_TIME] < 500', '[BODY].status == UP'],
      alerts: [
        { type: 'slack', enabled: true, 'failure-threshold': 3, 'minimum-reminder-interval': '10m' },
        { type: 'custom' },
        { type: 'ntfy' },
      ],
      'maintenance-windows': [{ start: '02:00' }],
    },
    {
      name: 'dns',
      url: '1.1.1.1',
      dns: { 'query-name': 'example.com', 'query-type': 'A' },
      conditions: ['[DNS_RCODE] == NOERROR'],
    },
    {
      name: 'tcp',
      url: 'tcp://example.com:22',
      conditions: ['[CONNECTED] == true'],
      alerts: [{ type: 'telegram' }, { type: 'email' }],
    },
  ],
  'external-endpoints': [{ name: 'job', group: 'jobs', heartbeat: { interval: '1h' }, alerts: [{ type: 'slack' }] }],
  suites: [{ name: 's' }],
  announcements: [{ message: 'm' }],
  maintenance: { start: '23:00' },
});

/** Values of every wrong kind, and objects whose own keys shadow what a plain object inherits. */
const HOSTILE: unknown[] = [
  { toString: 1, valueOf: 1 },
  JSON.parse('{"__proto__": {"polluted": 1}, "constructor": "x", "hasOwnProperty": 1}'),
  [[{ toString: 1 }]],
  null,
  true,
  Number.POSITIVE_INFINITY,
  '__proto__',
];

/** Every path of a value in the base file, leaves and branches alike. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value)) for (const [i, child] of value.entries()) out.push(...paths(child, [...prefix, i]));
  else if (value !== null && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) out.push(...paths(child, [...prefix, key]));
  return out;
}

function withValue(path: (string | number)[], hostile: unknown): Record<string, unknown> {
  const config = base() as Record<string, unknown>;
  let node = config as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  Object.defineProperty(node, path[path.length - 1]!, {
    value: hostile,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return config;
}

describe('importing a hostile Gatus file', () => {
  it('answers a report or a validation message for any value of any field', () => {
    const failures: string[] = [];
    for (const path of paths(base()))
      for (const hostile of HOSTILE) {
        try {
          // As `warden import gatus` goes on: the file is checked, then written with its report as a header.
          const report = importGatus(withValue(path, hostile));
          configFileSchema.safeParse(report.file);
          formatWardenYaml(report.file, importHeader('config.yaml', report));
        } catch (error) {
          if (!(error instanceof ValidationError))
            failures.push(`${path.join('.')} = ${JSON.stringify(hostile)?.slice(0, 40)}: ${(error as Error).message}`);
        }
      }
    expect(failures).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses alert types and providers named after Object.prototype’s members, naming each field', () => {
    for (const type of ['__proto__', 'toString', 'hasOwnProperty']) {
      const config = parseGatusConfig([
        `alerting:\n  ${type}:\n    webhook-url: https://x.example\nendpoints:\n  - name: web\n    url: https://example.com\n    alerts:\n      - type: ${type}\n`,
      ]);
      expect(() => importGatus(config)).toThrow(ValidationError);
      try {
        importGatus(config);
      } catch (error) {
        expect((error as ValidationError).issues).toEqual([
          { path: `alerting.${type}`, message: expect.stringContaining(`"${type}" is not a Gatus alerting provider`) },
          {
            path: 'endpoints[0].alerts[0].type',
            message: expect.stringContaining(`"${type}" is not a Gatus alerting provider`),
          },
        ]);
      }
    }
  });

  it('reports a provider named like one Gatus could have but does not (constructor) as one Warden lacks', () => {
    const config = parseGatusConfig([
      'alerting:\n  constructor:\n    webhook-url: https://x.example\nendpoints:\n  - name: web\n    url: https://example.com\n    alerts:\n      - type: constructor\n      - type: valueof\n',
    ]);
    const report = importGatus(config);
    expect(report.skipped).toEqual([
      { item: 'alerting.constructor', reason: expect.stringContaining('Warden has no constructor channel') },
      { item: 'endpoints[0] "web" alert valueof', reason: 'no alerting.valueof provider is configured' },
    ]);
    expect(report.file.notifications).toBeUndefined();
  });

  it('refuses a file whose alias holds itself, instead of walking it forever', () => {
    expect(() =>
      parseGatusConfig(['endpoints: &e\n  - name: web\n    url: https://example.com\n    extra: *e\n']),
    ).toThrow('an alias refers to a mapping or list that holds it');
  });

  it('takes a `__proto__` key as a key: merging files never sets a prototype', () => {
    const config = parseGatusConfig([
      '__proto__:\n  endpoints:\n    - name: ghost\n      url: https://ghost.example\n',
      'endpoints:\n  - name: web\n    url: https://example.com\n',
    ]);
    expect(Object.getPrototypeOf(config)).toBe(Object.prototype);
    expect(importGatus(config).file.monitors).toEqual([expect.objectContaining({ key: 'web' })]);
  });
});
