import { describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '../domain/errors.js';
import { closingHeaders, problemOf } from './problem.js';

describe('problemOf', () => {
  it('answers a client that hung up mid-body with 400 and closes, without calling it our error', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    const answer = problemOf(aborted);
    expect(answer).toMatchObject({
      unexpected: false,
      headers: { connection: 'close' },
      problem: { status: 400, type: 'https://warden.dev/problems/client-closed' },
    });
  });
  it('answers a database that cannot store with 503 and Retry-After, not an error of ours, without naming its cause', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });
    const answer = problemOf(new StorageUnavailableError('unreachable', cause));
    expect(answer).toMatchObject({
      unexpected: false,
      headers: { 'retry-after': '5' },
      problem: { status: 503, type: 'https://warden.dev/problems/storage-unavailable', title: 'Storage unavailable' },
    });
    expect(JSON.stringify(answer.problem)).not.toMatch(/ECONNREFUSED|10\.0\.0\.7/);
  });
  it('still calls an unknown failure a 500 for the log', () => {
    expect(problemOf(new Error('boom'))).toMatchObject({ unexpected: true, problem: { status: 500 } });
  });
  it('closes the connection after a 413, whose unread body is still on it', () => {
    expect(closingHeaders(413)).toEqual({ connection: 'close' });
    expect(closingHeaders(400)).toEqual({});
  });
});
