// The headers of the fuzzer's requests: the credentials a route is called with (right, wrong, of another organization,
// none), and odd Host, Content-Type, Accept and other headers.
import fc from 'fast-check';
import type { Route } from './requests.js';
import type { Credentials } from './server.js';

const ODD_HOSTS = [
  '',
  'status.alpha.test',
  'status.beta.test',
  'STATUS.ALPHA.TEST.',
  'evil.test',
  '127.0.0.1',
  '[::1]',
  'localhost:1',
  'h'.repeat(300),
  'a..b',
];
const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/problem+json',
  'application/json;;;=',
  '*/*',
  'x',
];
const ACCEPTS = [
  '*/*',
  'text/html',
  'text/markdown',
  'application/json',
  'application/json, text/event-stream',
  'text/event-stream',
  'image/*',
  'x/y;q=abc',
];

/** Mostly the credential the route takes (an API key, a relay token, a page password), sometimes another, none or a broken one. */
export function authArbitrary(c: Credentials, route: Route): fc.Arbitrary<string | null> {
  const schemes = (route.operation.security ?? []).flatMap((s) => Object.keys(s));
  const own = schemes.includes('apiKey')
    ? [c.readA, c.writeA, c.readB, c.writeB]
    : schemes.includes('relayToken')
      ? [c.relayA, c.relayB]
      : [c.pagePasswordA, c.pagePasswordB];
  const any = [c.readA, c.writeA, c.readB, c.writeB, c.relayA, c.relayB, c.pushA, c.pagePasswordA, c.pagePasswordB];
  const odd = [
    'Bearer',
    'Bearer ',
    'Bearer wdn_nope',
    `Bearer ${c.writeA}x`,
    `bearer ${c.writeA}`,
    `Basic ${Buffer.from(`x:${c.pagePasswordA}`).toString('base64')}`,
    `Bearer ${'k'.repeat(9000)}`,
    'Digest x',
  ];
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 6, arbitrary: fc.constantFrom(...own.map((s) => `Bearer ${s}`)) },
    { weight: 2, arbitrary: fc.constantFrom(...any.map((s) => `Bearer ${s}`)) },
    { weight: 1, arbitrary: fc.constantFrom(...odd) },
  );
}

export function headersArbitrary(): fc.Arbitrary<{ values: Record<string, string>; mutation: string }> {
  const odd = fc.oneof(
    fc.constantFrom(...ODD_HOSTS).map((v) => ['host', v]),
    fc.constantFrom(...CONTENT_TYPES).map((v) => ['content-type', v]),
    fc.constantFrom(...ACCEPTS).map((v) => ['accept', v]),
    fc.constantFrom('1.2.3.4', 'x, y', '::1', ' , ,', 'a'.repeat(2000)).map((v) => ['x-forwarded-for', v]),
    fc.constantFrom('"x"', '*', 'W/"', '"'.repeat(500)).map((v) => ['if-none-match', v]),
    fc.constantFrom('https://evil.test', 'null', '*').map((v) => ['origin', v]),
    fc
      .constantFrom('warden_page=abc', 'warden_page_alpha-vault=1.2.3', `x=${'c'.repeat(4000)}`)
      .map((v) => ['cookie', v]),
    fc.constantFrom('gzip', 'br', 'x').map((v) => ['accept-encoding', v]),
    fc.constantFrom('2024-11-05', 'x').map((v) => ['mcp-protocol-version', v]),
    fc.constantFrom('id-1', 'x'.repeat(300)).map((v) => ['x-request-id', v]),
  );
  return fc.array(odd, { maxLength: 3 }).map((pairs) => ({
    values: Object.fromEntries(pairs),
    mutation: pairs.length === 0 ? '' : `headers ${pairs.map(([name]) => name).join(' ')}`,
  }));
}
