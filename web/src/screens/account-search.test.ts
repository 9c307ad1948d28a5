// The query parameters the dashboard trusts: only local paths for ?next=, known sign-in errors, known monitor states.
import { describe, expect, it } from 'vitest';
import { loginSearch, safeNext, tokenSearch } from './account-search';
import { monitorSearch } from './monitors-search';

describe('the query parameters of the dashboard', () => {
  it('keeps a ?next= that stays inside the dashboard, and nothing that leaves it', () => {
    expect(loginSearch({ next: '/monitors?state=down' })).toEqual({ next: '/monitors?state=down' });
    for (const next of ['//evil.example/x', '/\\evil.example', 'https://evil.example', 'javascript:alert(1)', '', 42])
      expect(loginSearch({ next }), String(next)).toEqual({});
    expect(safeNext(undefined)).toBe(false);
  });

  it('keeps only the sign-in errors the provider flow sends', () => {
    expect(loginSearch({ error: 'no-account' })).toEqual({ error: 'no-account' });
    expect(loginSearch({ error: 'toString' })).toEqual({});
    expect(loginSearch({ error: '<script>' })).toEqual({});
  });

  it('keeps a token of link characters only', () => {
    expect(tokenSearch({ token: 'wdi_3q2-7Yx1aBc' })).toEqual({ token: 'wdi_3q2-7Yx1aBc' });
    expect(tokenSearch({ token: 'a b' })).toEqual({});
  });

  it('keeps the monitor filters that are set, and a state only when it is one', () => {
    expect(monitorSearch({ q: 'lobby', state: 'down', tag: '', page: 'main', other: 'x' })).toEqual({
      q: 'lobby',
      state: 'down',
      page: 'main',
    });
    expect(monitorSearch({ state: 'sideways' })).toEqual({});
  });
});
