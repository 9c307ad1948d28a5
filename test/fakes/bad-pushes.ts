// Heartbeats that must be refused (400, nothing stored), each with the field the problem must name; shared by route and e2e tests.
import { JSON_MAX_DEPTH } from '../../src/domain/json-depth.js';
import { PUSH_LIMITS } from '../../src/services/push/limits.js';

/** A body nested one level deeper than allowed: `{"x":{"x":…1…}}`, well under the byte cap. */
export const TOO_DEEP_PUSH_BODY = `${'{"x":'.repeat(JSON_MAX_DEPTH + 1)}1${'}'.repeat(JSON_MAX_DEPTH + 1)}`;
/** A body one byte over the cap (answered 413, not 400). */
export const OVERSIZED_PUSH_BODY = JSON.stringify({ msg: 'ok', pad: ' '.repeat(PUSH_LIMITS.bodyBytes) });

/** [query string, field named] for GET /api/push/{token}. */
export const BAD_PUSH_QUERIES: [string, string][] = [
  ['status=sideways', 'query.status'],
  ['status=UP', 'query.status'],
  ['latency=abc', 'query.latency'],
  ['latency=1.5', 'query.latency'],
  ['latency=-3', 'query.latency'],
  ['latency=99999999', 'query.latency'],
  [`msg=${'x'.repeat(PUSH_LIMITS.msgChars + 1)}`, 'query.msg'],
];

/** [what, body text, field named] for POST /api/push/{token}. */
export const BAD_PUSH_BODIES: [string, string, string][] = [
  ['not JSON', '{"status": "up"', 'body'],
  ['an array', '[1, 2]', 'body'],
  ['a string', '"up"', 'body'],
  ['an unknown status', '{"status":"sideways"}', 'body.status'],
  ['a fractional latency', '{"latency":1.5}', 'body.latency'],
  ['a latency as a string', '{"latency":"12"}', 'body.latency'],
  ['negative players', '{"players":-1}', 'body.players'],
  ['too many max players', '{"maxPlayers":1000000000}', 'body.maxPlayers'],
  ['tps as a string', '{"tps":"20"}', 'body.tps'],
  ['negative tps', '{"tps":-1}', 'body.tps'],
  ['a msg that is not a string', '{"msg":42}', 'body.msg'],
  [
    'too many extra properties',
    JSON.stringify(Object.fromEntries(Array.from({ length: PUSH_LIMITS.extraProperties + 1 }, (_, i) => [`k${i}`, i]))),
    'body',
  ],
  [
    'an extra property name too long',
    JSON.stringify({ ['n'.repeat(PUSH_LIMITS.extraNameChars + 1)]: 1 }),
    `body.${'n'.repeat(PUSH_LIMITS.extraNameChars)}`,
  ],
  ['extra properties over 8 KiB', JSON.stringify({ blob: 'x'.repeat(PUSH_LIMITS.extraBytes) }), 'body'],
  ['a body nested deeper than 400 levels', TOO_DEEP_PUSH_BODY, 'body'],
  [
    'an extra property nested deeper than 400 levels',
    `{"status":"up","deep":${'['.repeat(JSON_MAX_DEPTH)}${']'.repeat(JSON_MAX_DEPTH)}}`,
    'body',
  ],
];
