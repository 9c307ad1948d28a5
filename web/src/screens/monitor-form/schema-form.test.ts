// The monitor form reads its fields from the API's JSON Schemas and turns its values back into the API's JSON.
import { describe, expect, it } from 'vitest';
import { configOf, fieldsOf, initialValue, type JsonSchema, jsonValue, labelOf } from './schema-form';

const http: JsonSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', format: 'uri' },
    method: { default: 'GET', type: 'string', enum: ['GET', 'HEAD', 'POST'] },
    expectedStatus: { default: '200-299', anyOf: [{ type: 'integer' }, { type: 'string' }] },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    maxRedirects: { default: 5, type: 'integer', minimum: 0, maximum: 10, description: 'Redirects followed.' },
    ignoreTls: { default: false, type: 'boolean' },
    password: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['url'],
};

describe('the monitor form’s schema fields', () => {
  const fields = fieldsOf(http, ['headers', 'password']);
  const field = (name: string) => fields.find((f) => f.name === name)!;

  it('gives each property an input of its kind, labelled, with its help, default, bounds and whether it is required', () => {
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ['url', 'text'],
      ['method', 'enum'],
      ['expectedStatus', 'text'],
      ['headers', 'map'],
      ['maxRedirects', 'integer'],
      ['ignoreTls', 'boolean'],
      ['password', 'secret'],
      ['tags', 'list'],
    ]);
    expect(field('url')).toMatchObject({ label: 'URL', required: true });
    expect(field('maxRedirects')).toMatchObject({
      label: 'Max redirects',
      required: false,
      description: 'Redirects followed.',
      default: 5,
      minimum: 0,
      maximum: 10,
    });
    expect(field('method').options).toEqual(['GET', 'HEAD', 'POST']);
    expect(field('headers').secret).toBe(true);
    expect([
      labelOf('panelUrl'),
      labelOf('timeoutMs'),
      labelOf('intervalSec'),
      labelOf('apiBaseUrl'),
      labelOf('guildId'),
      labelOf('rdapUrl'),
    ]).toEqual(['Panel URL', 'Timeout (ms)', 'Interval (s)', 'API base URL', 'Guild ID', 'RDAP URL']);
  });

  it('starts choices at their default and shows stored values when editing', () => {
    expect(initialValue(field('method'), undefined)).toBe('GET');
    expect(initialValue(field('ignoreTls'), undefined)).toBe(false);
    expect(initialValue(field('maxRedirects'), undefined)).toBe('');
    expect(initialValue(field('maxRedirects'), 2)).toBe('2');
    expect(initialValue(field('expectedStatus'), [200, '300-302'])).toBe('200, 300-302');
    expect(initialValue(field('headers'), { authorization: 'Bearer x', 'x-trace': '1' })).toBe(
      'authorization: Bearer x\nx-trace: 1',
    );
    expect(initialValue(field('headers'), '[redacted]')).toBe('[redacted]');
  });

  it('sends what was filled in, as the API types it: empty fields left out on create, removed (null) on edit', () => {
    const values = {
      url: ' http://127.0.0.1:8080/health ',
      method: 'HEAD',
      maxRedirects: '3',
      headers: 'x-key: a: b\n\n',
      password: ' pa ss ',
      ignoreTls: false,
      tags: [],
    };
    expect(configOf(fields, values, false)).toEqual({
      url: 'http://127.0.0.1:8080/health',
      method: 'HEAD',
      maxRedirects: 3,
      headers: { 'x-key': 'a: b' },
      password: ' pa ss ',
    });
    expect(
      configOf(fields, { ...values, maxRedirects: '', headers: '[redacted]', password: '[redacted]' }, true),
    ).toEqual({
      url: 'http://127.0.0.1:8080/health',
      method: 'HEAD',
      expectedStatus: null,
      headers: '[redacted]',
      maxRedirects: null,
      ignoreTls: false,
      password: '[redacted]',
      tags: [],
    });
    expect(jsonValue(field('ignoreTls'), true, false)).toBe(true);
    expect(jsonValue(field('maxRedirects'), 'abc', false)).toBe('abc');
  });
});
