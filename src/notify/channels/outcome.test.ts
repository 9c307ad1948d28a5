// The classes of an attempt's outcome, as the test answer and the delivery log show them: each sender's facts in, one
// class out, and the class read back from what the log keeps.
import { describe, expect, it } from 'vitest';
import { describeNetworkError } from '../../net/network-error.js';
import { PUBLIC_TARGETS_ONLY } from '../../net/target-guard.js';
import type { SendOutcome } from './channel.js';
import { ANSWER_CHARS, failureOf, httpOutcome, unreached } from './outcome.js';

const NOW = Date.UTC(2026, 2, 1, 12);
const codeError = (code: string) => Object.assign(new Error(code), { code });
/** What the probes' HTTP client reports for an error with this code: its code and its plain-language words. */
const failed = (error: Error) => unreached((error as { code?: string }).code, describeNetworkError(error, 10_000));
/** The class the log shows for an outcome once recorded (dead or pending a retry). */
const logged = (outcome: SendOutcome) =>
  failureOf({
    status: outcome.kind === 'sent' ? 'sent' : outcome.kind === 'dead' ? 'dead' : 'pending',
    lastError: 'error' in outcome ? outcome.error : null,
    lastStatus: outcome.status,
  });

describe('an attempt that got no reply', () => {
  it('refused by the target policy: dead, naming the address and the policy, nothing else', () => {
    const refusal = PUBLIC_TARGETS_ONLY.refusal('127.0.0.1') as Error;
    const outcome = failed(refusal);
    expect(outcome).toEqual({
      kind: 'dead',
      status: null,
      error:
        'refused by policy: 127.0.0.1 is a loopback address; this organization may reach public addresses only (WARDEN_PROBE_PRIVATE_TARGETS, organization.probePrivateTargets)',
    });
    expect(logged(outcome)).toBe('refused');
  });

  it.each([
    ['ECONNREFUSED', 'connection refused', 'connection-refused'],
    ['ABORT_ERR', 'timed out', 'timed-out'],
    ['ETIMEDOUT', 'timed out', 'timed-out'],
    ['ENOTFOUND', 'host not found', 'host-not-found'],
    ['EAI_AGAIN', 'host not found', 'host-not-found'],
    ['ECONNRESET', 'connection failed: connection reset by the server', 'connection-failed'],
    ['EHOSTUNREACH', 'connection failed: host unreachable', 'connection-failed'],
  ])('%s: retried as "%s" (%s), in the same words whatever the port or host', (code, error, failure) => {
    const outcome = failed(codeError(code));
    expect(outcome).toEqual({ kind: 'retry', status: null, error });
    expect(logged(outcome)).toBe(failure);
  });

  it('never repeats a low-level message for the classes it names', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:6379'), { code: 'ECONNREFUSED' });
    expect(failed(refused)).toEqual({ kind: 'retry', status: null, error: 'connection refused' });
    const slow = Object.assign(new Error('connect ETIMEDOUT 10.1.2.3:22'), { code: 'ETIMEDOUT' });
    expect(failed(slow)).toEqual({ kind: 'retry', status: null, error: 'timed out' });
  });
});

describe('a reply from a receiver that passed the guard', () => {
  const reply = (status: number, body = '', retryAfter: string | null = null) =>
    httpOutcome({ status, body, retryAfter }, NOW);

  it('2xx is sent, with the answer', () => {
    expect(reply(204)).toEqual({ kind: 'sent', status: 204, answer: '' });
    expect(logged(reply(200, 'ok'))).toBeNull();
  });

  it('429 is retried after its Retry-After, in seconds or as a date', () => {
    expect(reply(429, 'slow', '3')).toEqual({
      kind: 'retry',
      status: 429,
      error: 'rate limited by the receiver',
      answer: 'slow',
      afterMs: 3000,
    });
    expect(reply(429, '', new Date(NOW + 5000).toUTCString())).toMatchObject({ afterMs: 5000 });
    expect(reply(429, '', 'soon')).not.toHaveProperty('afterMs');
  });

  it.each([408, 425, 500, 503])('%i is retried', (status) => {
    expect(reply(status, 'x')).toEqual({ kind: 'retry', status, error: `HTTP ${status}`, answer: 'x' });
  });

  it.each([301, 302, 307, 400, 404, 410])('%i is dead: no redirect is followed, a 4xx will not change', (status) => {
    expect(reply(status, 'x')).toEqual({ kind: 'dead', status, error: `HTTP ${status}`, answer: 'x' });
    expect(logged(reply(status))).toBe('status');
  });

  it('keeps the first characters of a long answer', () => {
    expect(reply(400, 'y'.repeat(10_000)).answer).toBe(`${'y'.repeat(ANSWER_CHARS)}…`);
  });
});

describe('the class of a logged attempt', () => {
  const entry = (lastError: string | null, lastStatus: number | null = null, status = 'dead') =>
    failureOf({ status, lastError, lastStatus });

  it('is null for what was sent, skipped or not tried yet', () => {
    expect(entry(null, null, 'pending')).toBeNull();
    expect(entry(null, 204, 'sent')).toBeNull();
    expect(entry('held under maintenance', null, 'skipped')).toBeNull();
  });

  it("reads the last attempt's class through the dispatcher's giving up", () => {
    expect(entry('gave up after 12 attempts: connection refused')).toBe('connection-refused');
    expect(entry('gave up after 3 attempts: HTTP 503', 503)).toBe('status');
  });

  it('is not-sent for what never got as far as a connection', () => {
    expect(entry('the channel is disabled')).toBe('not-sent');
    expect(
      entry('no SMTP server: give the channel a host, or set the system one (WARDEN_SMTP_URL and WARDEN_SMTP_FROM)'),
    ).toBe('not-sent');
    expect(entry('stopped', null, 'pending')).toBe('not-sent');
  });

  it('is status for an SMTP reply', () => {
    expect(entry('EENVELOPE: Recipient rejected: 550 No such user here', 550)).toBe('status');
  });
});
