// The rules a channel may declare: each field's bounds and defaults, as warden.yaml and the API check them.
import { describe, expect, it } from 'vitest';
import { channelCreateSchema, channelEntrySchema, rules } from './schema.js';

const issuesOf = (input: unknown) => {
  const parsed = rules.safeParse(input);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('channel rules', () => {
  it('takes every field within its bounds, flap filling its defaults', () => {
    const input = {
      events: ['monitor.down'],
      monitors: ['lobby'],
      pages: ['status'],
      groups: ['Survival'],
      holdSec: 0,
      remindEveryMin: 10_080,
      quietDuringMaintenance: false,
      flap: {},
      tlsDays: 90,
    };
    expect(rules.parse(input)).toEqual({ ...input, flap: { changes: 5, windowMin: 10 } });
    expect(rules.parse({})).toEqual({});
  });

  it.each([
    [{ holdSec: 86_401 }, 'holdSec: expected an integer from 0 to 86400 seconds'],
    [{ holdSec: 1.5 }, 'holdSec: expected an integer from 0 to 86400 seconds'],
    [{ remindEveryMin: 0 }, 'remindEveryMin: expected an integer from 1 to 10080 minutes'],
    [{ flap: { changes: 1 } }, 'flap.changes: expected an integer from 2 to 100'],
    [{ flap: { windowMin: 1441 } }, 'flap.windowMin: expected an integer from 1 to 1440 minutes'],
    [{ tlsDays: 91 }, 'tlsDays: expected an integer from 1 to 90 days'],
    [{ pages: Array.from({ length: 1001 }, (_, i) => `p${i}`) }, 'pages: Too big: expected array to have <=1000 items'],
    [{ groups: [''] }, 'groups.0: must not be empty'],
    [{ flap: { changes: 5, extra: 1 } }, 'flap: Unrecognized key: "extra"'],
  ])('refuses %j', (input, message) => {
    expect(issuesOf(input)).toEqual([message]);
  });
});

describe("a webhook's signing secret", () => {
  const webhook = { key: 'hook', name: 'Hook', type: 'webhook', config: { url: 'https://hooks.example.com/w' } };

  it('may be left out of an API create, which generates one', () => {
    expect(channelCreateSchema.safeParse(webhook).success).toBe(true);
  });

  it('must be set by warden.yaml, and the error says how to make one', () => {
    const parsed = channelEntrySchema.safeParse(webhook);
    expect(parsed.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['config.secret', expect.stringMatching(/a file sets its own.*openssl rand -base64 32/)],
    ]);
  });

  it('is still checked when given', () => {
    const given = { ...webhook, config: { ...webhook.config, secret: 'hunter2' } };
    expect(channelCreateSchema.safeParse(given).error?.issues[0]?.message).toMatch(/24 to 64 bytes/);
  });
});
