// A problem answer becomes inline messages under the fields it names and one message for the rest.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client';
import { formErrors } from './form-errors';

const validation = (errors: { path: string; message: string }[]) =>
  new ApiError(400, {
    type: 'https://warden.dev/problems/validation',
    title: 'Invalid request',
    status: 400,
    detail: 'The request is invalid.',
    errors,
  });

describe('formErrors', () => {
  it('puts each issue under the field its body path names, nested fields dotted', () => {
    const result = formErrors(
      validation([
        { path: 'body.email', message: 'expected an email address' },
        { path: 'body.organization.key', message: 'expected a key' },
      ]),
      ['email', 'password', 'organization.key'],
    );
    expect(result).toEqual({
      fields: { email: 'expected an email address', 'organization.key': 'expected a key' },
      message: null,
    });
  });

  it('puts an issue about part of a field (a list item, a map entry) under that field', () => {
    const result = formErrors(
      validation([
        { path: 'body.tags[1]', message: 'expected a tag' },
        { path: 'body.config.headers.x-key', message: 'too long' },
      ]),
      ['tags', 'config.headers', 'config.host'],
    );
    expect(result).toEqual({ fields: { tags: 'expected a tag', 'config.headers': 'too long' }, message: null });
  });

  it('says a message repeated for the same field once', () => {
    const twice = { path: 'body.config.secret', message: 'expected a secret' };
    expect(formErrors(validation([twice, twice]), ['config.secret'])).toEqual({
      fields: { 'config.secret': 'expected a secret' },
      message: null,
    });
  });

  it('says in the form-level message what no field of the form can show', () => {
    const result = formErrors(
      validation([
        { path: 'body.email', message: 'taken' },
        { path: 'query.limit', message: 'too large' },
      ]),
      ['email'],
    );
    expect(result).toEqual({ fields: { email: 'taken' }, message: 'query.limit: too large' });
  });

  it('shows the detail of a problem without field issues, and any other error’s message', () => {
    const refused = new ApiError(401, {
      type: 'https://warden.dev/problems/invalid-credentials',
      title: 'Unauthorized',
      status: 401,
      detail: 'Wrong email or password.',
    });
    expect(formErrors(refused, ['email'])).toEqual({ fields: {}, message: 'Wrong email or password.' });
    expect(refused.code).toBe('invalid-credentials');
    expect(formErrors(new ApiError(0, { detail: 'Failed to fetch' }), []).message).toBe('Failed to fetch');
    expect(formErrors(new Error('boom'), []).message).toBe('boom');
  });
});
