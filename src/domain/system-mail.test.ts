// Who may mail through the system SMTP server, and whose recipients confirm first (WARDEN_SMTP_TENANTS), and the
// recipients' tokens.
import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';
import {
  newRecipientToken,
  recipientIdOf,
  recipientState,
  recipientTokenMatches,
  systemMailPolicy,
} from './system-mail.js';

describe('the system SMTP policy', () => {
  const api = { managedBy: 'api' as const };
  const file = { managedBy: 'config' as const };

  it('auto trusts warden.yaml, and the API while one organization exists; asks the others to confirm', () => {
    expect(systemMailPolicy('auto', file, 5)).toBe('trusted');
    expect(systemMailPolicy('auto', api, 1)).toBe('trusted');
    expect(systemMailPolicy('auto', api, 2)).toBe('confirm');
  });

  it('confirm asks everyone, trust nobody, deny refuses what the API made', () => {
    expect(systemMailPolicy('confirm', file, 1)).toBe('confirm');
    expect(systemMailPolicy('confirm', api, 1)).toBe('confirm');
    expect(systemMailPolicy('trust', api, 9)).toBe('trusted');
    expect(systemMailPolicy('deny', api, 1)).toBe('refused');
    expect(systemMailPolicy('deny', file, 9)).toBe('trusted');
  });
});

describe('a recipient', () => {
  const base = {
    id: 'rcp_x',
    organizationId: 'org_a',
    address: 'a@b.test',
    confirmTokenHash: null,
    unsubscribeToken: 't',
    confirmedAt: null,
    unsubscribedAt: null,
    askedAt: null,
    expiresAt: null,
    createdAt: 0,
  };

  it('is unasked, pending while its link works, confirmed, or unsubscribed for good', () => {
    expect(recipientState(undefined, 10)).toBe('unasked');
    expect(recipientState({ ...base, askedAt: 0, expiresAt: 11 }, 10)).toBe('pending');
    expect(recipientState({ ...base, askedAt: 0, expiresAt: 10 }, 10)).toBe('unasked');
    expect(recipientState({ ...base, confirmedAt: 5 }, 10)).toBe('confirmed');
    expect(recipientState({ ...base, confirmedAt: 5, unsubscribedAt: 6 }, 10)).toBe('unsubscribed');
  });

  it('is named by its tokens, compared in constant time', () => {
    const id = newId('rcp');
    const token = newRecipientToken(id);
    expect(recipientIdOf(token)).toBe(id);
    expect(recipientIdOf(`${id}.short`)).toBeNull();
    expect(recipientIdOf(`sub_${id.slice(4)}.${token.split('.')[1]}`)).toBeNull();
    expect(recipientTokenMatches(token, token)).toBe(true);
    expect(recipientTokenMatches(`${token}x`, token)).toBe(false);
  });
});
