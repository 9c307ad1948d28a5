// The ?page= of the Incidents and Maintenance screens keeps a slug and drops anything else.
import { describe, expect, it } from 'vitest';
import { pageSearch } from './page-search';

describe('pageSearch', () => {
  it('keeps a slug, and drops empty, overlong or non-string values and other parameters', () => {
    expect(pageSearch({ page: 'main', other: 'x' })).toEqual({ page: 'main' });
    expect(pageSearch({ page: ' ' })).toEqual({});
    expect(pageSearch({ page: 'x'.repeat(201) })).toEqual({});
    expect(pageSearch({ page: 3 })).toEqual({});
  });
});
