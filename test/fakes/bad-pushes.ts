// Heartbeats that must be refused (400, nothing stored), each with the field the problem must name; shared by route and e2e tests.
import { PUSH_LIMITS } from '../../src/services/push/limits.js';

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
  ['too many extra properties', JSON.stringify(Object.fromEntries(Array.from({ length: PUSH_LIMITS.extraProperties + 1 }, (_, i) => [`k${i}`, i]))), 'body'],
  ['an extra property name too long', JSON.stringify({ ['n'.repeat(PUSH_LIMITS.extraNameChars + 1)]: 1 }), `body.${'n'.repeat(PUSH_LIMITS.extraNameChars)}`],
  ['extra properties over 8 KiB', JSON.stringify({ blob: 'x'.repeat(PUSH_LIMITS.extraBytes) }), 'body'],
  ['a body over 16 KiB', JSON.stringify({ msg: 'ok', pad: ' '.repeat(PUSH_LIMITS.bodyBytes) }), 'body'],
];
