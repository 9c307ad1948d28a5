// The channel form generated from the JSON Schemas the server gives (shapes copied from GET /api/v1/notification-channel-types).
import { describe, expect, it } from 'vitest';
import {
  ALL,
  allFields,
  fieldsOf,
  initialValues,
  type JsonSchema,
  labelOf,
  toJson,
  withChoices,
} from './schema-form-model';

const EMAIL = '^(?:[A-Za-z0-9_+-]+)@example$';
const emailConfig: JsonSchema = {
  type: 'object',
  properties: {
    to: {
      anyOf: [
        { type: 'string', format: 'email', pattern: EMAIL },
        { type: 'array', minItems: 1, items: { type: 'string', format: 'email' } },
      ],
    },
    from: {
      anyOf: [
        { type: 'string', format: 'email' },
        { type: 'object', properties: { address: { type: 'string' } }, required: ['address'] },
      ],
    },
    port: { type: 'integer', minimum: 1, maximum: 65535 },
    secure: { default: 'starttls', type: 'string', enum: ['tls', 'starttls', 'none'] },
    password: { type: 'string', minLength: 1 },
    tlsRejectUnauthorized: { default: true, type: 'boolean' },
  },
  required: ['to'],
};
const telegramConfig: JsonSchema = {
  type: 'object',
  properties: {
    botToken: { type: 'string' },
    chatId: { anyOf: [{ type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 }, { type: 'string' }] },
    apiBaseUrl: { default: 'https://api.telegram.org', type: 'string', format: 'uri' },
  },
  required: ['botToken', 'chatId'],
};
const webhookConfig: JsonSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', format: 'uri' },
    secret: { type: 'string' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
  },
  required: ['url', 'secret'],
};
const rules: JsonSchema = {
  type: 'object',
  properties: {
    events: { type: 'array', items: { type: 'string', enum: ['monitor.down', 'monitor.recovered'] } },
    holdSec: { type: 'integer', minimum: 0, maximum: 86400 },
    quietDuringMaintenance: { type: 'boolean', default: true },
    flap: {
      type: 'object',
      properties: {
        changes: { type: 'integer', default: 5, minimum: 2, maximum: 100 },
        windowMin: { type: 'integer', default: 10, minimum: 1, maximum: 1440 },
      },
    },
  },
};

describe('fieldsOf', () => {
  it('picks an input for each property: lists for one-or-many, text for number-or-name, masks secrets, bounds numbers', () => {
    const fields = fieldsOf(emailConfig, 'config', ['password']);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['config.to', 'list', true],
      ['config.from', 'text', false],
      ['config.port', 'number', false],
      ['config.secure', 'select', false],
      ['config.password', 'secret', false],
      ['config.tlsRejectUnauthorized', 'boolean', false],
    ]);
    expect(fields[2]).toMatchObject({ min: 1, max: 65535 });
    expect(fields[3]).toMatchObject({ options: ['tls', 'starttls', 'none'], default: 'starttls', label: 'Encryption' });
    const telegram = fieldsOf(telegramConfig, 'config', ['botToken']);
    expect(telegram.map((f) => [f.kind, f.label])).toEqual([
      ['secret', 'Bot token'],
      ['text', 'Chat ID'],
      ['text', 'API base URL'],
    ]);
    expect(telegram[2]?.inputType).toBe('url');
    expect(fieldsOf(webhookConfig, 'config', ['secret', 'headers']).map((f) => f.kind)).toEqual([
      'text',
      'secret',
      'map',
    ]);
    const ruleFields = fieldsOf(rules, 'rules');
    expect(ruleFields.map((f) => f.kind)).toEqual(['checkboxes', 'number', 'boolean', 'object']);
    expect(allFields(ruleFields).map((f) => f.name)).toContain('rules.flap.windowMin');
  });

  it('spells out a property it has no label for', () => {
    expect(labelOf('apiBaseUrl', {})).toBe('API base URL');
    expect(labelOf('anything', { title: 'Given' })).toBe('Given');
  });
});

describe('initialValues and toJson', () => {
  it('starts a new channel from the defaults and sends only what is filled in', () => {
    const fields = fieldsOf(emailConfig, 'config', ['password']);
    const values = initialValues(fields, undefined);
    expect(values).toMatchObject({
      'config.secure': 'starttls',
      'config.tlsRejectUnauthorized': true,
      'config.to': [],
      'config.password': '',
    });
    values['config.to'] = ['ops@example.com'];
    values['config.port'] = 2525;
    expect(toJson(fields, values)).toEqual({
      to: ['ops@example.com'],
      port: 2525,
      secure: 'starttls',
      tlsRejectUnauthorized: true,
    });

    const ruleFields = fieldsOf(rules, 'rules');
    const ruleValues = initialValues(ruleFields, undefined);
    expect(toJson(ruleFields, ruleValues)).toEqual({ quietDuringMaintenance: true });
    ruleValues['rules.flap'] = true;
    ruleValues['rules.events'] = ['monitor.down'];
    expect(toJson(ruleFields, ruleValues)).toEqual({
      events: ['monitor.down'],
      quietDuringMaintenance: true,
      flap: { changes: 5, windowMin: 10 },
    });
  });

  it('edits a stored channel: secrets start empty and are kept unless typed, a cleared field is removed with null', () => {
    const fields = fieldsOf(webhookConfig, 'config', ['secret', 'headers']);
    const stored = { url: 'https://hooks.example.com/a', secret: '[redacted]', headers: '[redacted]' };
    const values = initialValues(fields, stored);
    expect(values).toEqual({ 'config.url': 'https://hooks.example.com/a', 'config.secret': '', 'config.headers': [] });
    expect(toJson(fields, values, stored)).toEqual({ url: 'https://hooks.example.com/a' });
    values['config.headers'] = [
      { name: 'Authorization', value: 'Bearer x' },
      { name: ' ', value: 'ignored' },
    ];
    values['config.secret'] = 'whsec_new';
    expect(toJson(fields, values, stored)).toEqual({
      url: 'https://hooks.example.com/a',
      secret: 'whsec_new',
      headers: { Authorization: 'Bearer x' },
    });

    const telegram = fieldsOf(telegramConfig, 'config', ['botToken']);
    const chat = { botToken: '[redacted]', chatId: '-100123', apiBaseUrl: 'https://tg.example.com' };
    const tv = initialValues(telegram, chat);
    expect(tv['config.chatId']).toBe('-100123');
    tv['config.apiBaseUrl'] = '';
    expect(toJson(telegram, tv, chat)).toEqual({ chatId: '-100123', apiBaseUrl: null });
  });
});

describe('a generated secret and named event choices', () => {
  it('marks a secret the server generates when a new channel leaves it empty', () => {
    const fields = fieldsOf({ ...webhookConfig, required: ['url'] }, 'config', ['secret', 'headers'], ['secret']);
    expect(fields.map((f) => [f.name, f.required, f.generated])).toEqual([
      ['config.url', true, undefined],
      ['config.secret', false, true],
      ['config.headers', false, undefined],
    ]);
    const values = initialValues(fields, undefined);
    values['config.url'] = 'https://hooks.example.com/a';
    expect(toJson(fields, values)).toEqual({ url: 'https://hooks.example.com/a' });
  });

  const choices = [
    { value: 'monitor.down', label: 'Monitor goes down', description: 'After its retries.' },
    { value: 'monitor.recovered', label: 'Monitor recovers', description: 'Back up.' },
    { value: 'relay.gone', label: 'Not in the schema', description: 'Left out.' },
  ];
  const eventFields = () => withChoices(fieldsOf(rules, 'rules'), 'rules.events', choices, 'All events');

  it('names each event and makes "all events" an explicit choice that leaves them out', () => {
    const fields = eventFields();
    expect(fields[0]).toMatchObject({ kind: 'checkboxes', all: 'All events' });
    expect(fields[0]?.choices?.map((c) => c.label)).toEqual(['Monitor goes down', 'Monitor recovers']);
    const values = initialValues(fields, undefined);
    expect(values['rules.events']).toBe(ALL);
    expect(toJson(fields, values)).not.toHaveProperty('events');
    values['rules.events'] = ['monitor.down'];
    expect(toJson(fields, values)).toMatchObject({ events: ['monitor.down'] });
    // "Only these" with none ticked is what it says: no events, not all of them.
    values['rules.events'] = [];
    expect(toJson(fields, values)).toMatchObject({ events: [] });
  });

  it('reads a stored channel: no events is all of them, a list is only those', () => {
    const fields = eventFields();
    expect(initialValues(fields, {})['rules.events']).toBe(ALL);
    expect(initialValues(fields, { events: ['monitor.recovered'] })['rules.events']).toEqual(['monitor.recovered']);
    expect(initialValues(fields, { events: [] })['rules.events']).toEqual([]);
  });
});
