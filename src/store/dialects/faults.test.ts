import { describe, expect, it } from 'vitest';
import { postgresFault } from './postgres/faults.js';
import { sqliteFault } from './sqlite/faults.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('which driver errors are faults that pass', () => {
  it('SQLite: full, locked, unreadable; constraints and mistakes are not', () => {
    expect(sqliteFault(withCode('SQLITE_FULL'))).toBe('full');
    expect(sqliteFault(withCode('SQLITE_BUSY'))).toBe('busy');
    expect(sqliteFault(withCode('SQLITE_BUSY_SNAPSHOT'))).toBe('busy');
    expect(sqliteFault(withCode('SQLITE_IOERR_WRITE'))).toBe('unreachable');
    expect(sqliteFault(withCode('SQLITE_READONLY_DBMOVED'))).toBe('unreachable');
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_MISMATCH'])
      expect(sqliteFault(withCode(code))).toBeNull();
    expect(sqliteFault(new Error('no code'))).toBeNull();
    expect(sqliteFault(null)).toBeNull();
  });

  it('PostgreSQL: away, restarting, cut off, out of connections, disk full; constraints and mistakes are not', () => {
    expect(postgresFault(withCode('53100'))).toBe('full');
    for (const code of [
      '57P01',
      '57P02',
      '57P03',
      '53300',
      '08006',
      '08001',
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'ETIMEDOUT',
    ])
      expect(postgresFault(withCode(code)), code).toBe('unreachable');
    expect(postgresFault(new Error('Connection terminated unexpectedly'))).toBe('unreachable');
    expect(postgresFault(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      'unreachable',
    );
    expect(postgresFault(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe('unreachable');
    for (const code of ['23505', '42P01', '40001', '22P02', '57014'])
      expect(postgresFault(withCode(code)), code).toBeNull();
    expect(postgresFault(new Error('syntax error at or near "selec"'))).toBeNull();
  });
});
