// The array literal the ingest's statements send each column as (array-literal.ts): read back by PostgreSQL through
// the store's own connection, every value arrives as it was, whatever it holds.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, postgresAvailable } from '../../../../test/store-dialects.js';
import type { DialectConnection } from '../connection.js';
import { arrayLiteral } from './array-literal.js';
import { connectPostgres } from './connect.js';

describe('the array literal', () => {
  it('quotes every string, escapes its quotes and backslashes, and writes numbers, booleans and nulls bare', () => {
    expect(arrayLiteral(['a', 'b"c', 'd\\e', null, undefined])).toBe('{"a","b\\"c","d\\\\e",NULL,NULL}');
    expect(arrayLiteral([1, -2, 2 ** 52, true, false, 10n])).toBe('{1,-2,4503599627370496,true,false,10}');
    expect(arrayLiteral([])).toBe('{}');
  });

  it('leaves what it does not write to the client: nested arrays, dates, buffers, objects', () => {
    for (const odd of [[['a']], [new Date(0)], [Buffer.from('x')], [{ a: 1 }]])
      expect(arrayLiteral(odd)).toBeUndefined();
  });
});

describe.skipIf(!postgresAvailable)('array parameters on postgres', () => {
  let connection: DialectConnection;
  const schema = `arr_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    connection = await connectPostgres(POSTGRES_URL, schema);
  });
  afterAll(async () => {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(connection.db);
    await connection.db.destroy();
  });

  const roundTrip = async <T>(values: readonly unknown[], type: string) =>
    (await sql<{ v: T[] }>`select ${values}::${sql.raw(type)}[] as v`.execute(connection.db)).rows[0]?.v;

  it('reads back every string as it was sent, the awkward ones included', async () => {
    const strings = [
      '',
      'NULL',
      'null',
      ' lead and trail ',
      'a,b',
      '{braces}',
      '"quoted"',
      'back\\slash',
      '\\"',
      'é ✓ 🎮',
      'line\nbreak',
      'tab\there',
    ];
    expect(await roundTrip([...strings, null], 'text')).toEqual([...strings, null]);
  });

  it('sends NUL as U+FFFD inside an array, as in any other text', async () => {
    expect(await roundTrip(['a\u0000b', null], 'text')).toEqual(['a\uFFFDb', null]);
  });

  it('reads back numbers, booleans and nulls in their columns’ types', async () => {
    // A bigint array comes back as text (the client parses only a lone bigint as a number).
    expect(await roundTrip([1_796_076_586_673, -1, 0, null], 'bigint')).toEqual(['1796076586673', '-1', '0', null]);
    expect(await roundTrip([3, null, 2_147_483_647], 'integer')).toEqual([3, null, 2_147_483_647]);
    expect(await roundTrip([true, false, null], 'boolean')).toEqual([true, false, null]);
    expect(await roundTrip([], 'text')).toEqual([]);
  });
});
