// Config fields shared by the database and message-broker types (postgres, mysql, redis, mongodb, mqtt, amqp, nats).
import { z } from 'zod';
import { expectedField } from './answer.js';
import { host, secret } from './fields.js';

/**
 * A name the service knows something by (a user, a database, a queue, a topic): not empty, at most `max` characters.
 * `typed`: a value that is not a string is refused as "expected a <what>" rather than in zod's words.
 */
export function serviceName(what: string, max: number, typed = false) {
  return z
    .string(typed ? { error: `expected a ${what}` } : undefined)
    .min(1, { error: `the ${what} must not be empty` })
    .max(max, { error: `expected at most ${max} characters` });
}

export function username(what: string, fallback?: string) {
  const field = serviceName('user name', 256, true);
  return (fallback === undefined ? field.optional() : field.default(fallback)).describe(
    `The ${what} user to log in as.`,
  );
}

export function password(what: string) {
  return secret(`${what} password`).optional().describe(`The ${what} user's password; stored as a secret.`);
}

type UserField = ReturnType<typeof username>;

/**
 * Where a database or broker answers and whom it logs in as: host, the given port field, the user and the password.
 * `fallback` is the default user; `key` names the user field (`user` for postgres and mysql); `userWhat` words the
 * user field when it differs from the password's.
 */
export function loginFields<Port extends z.ZodType, const Key extends string = 'username'>(
  what: string,
  portField: Port,
  options: { fallback?: string; key?: Key; userWhat?: string } = {},
) {
  const user = { [options.key ?? 'username']: username(options.userWhat ?? what, options.fallback) };
  return { host: host(), port: portField, ...(user as Record<Key, UserField>), password: password(what) };
}

export function databaseName(fallback: string) {
  return serviceName('database name', 256, true).default(fallback).describe('The database to connect to.');
}

/** TLS for a service that may speak it: off, on with the certificate checked against the host, or on with any certificate. */
export function tlsFields() {
  return {
    tls: z
      .boolean({ error: 'expected true or false' })
      .default(false)
      .describe('Connect over TLS, checking the certificate against the host.'),
    ignoreTls: z
      .boolean({ error: 'expected true or false' })
      .default(false)
      .describe('With tls, accept any certificate (self-signed, expired, another name).'),
  };
}

/** A query or command a check runs, whose answer `expected` is compared with. */
export function statement(what: string, max = 2048) {
  return z
    .string({ error: `expected the ${what} as a string` })
    .trim()
    .min(1, { error: `the ${what} must not be empty` })
    .max(max, { error: `expected at most ${max} characters` });
}

/** The query a database check may run, and what the first value of its first row must then be. */
export function queryFields() {
  return {
    query: statement('query')
      .optional()
      .describe(
        'A query to run, e.g. SELECT 1; its first value of the first row is the answer. Without one the check connects and logs in.',
      ),
    expected: expectedField('the first value of the first row'),
  };
}

type Refinement<Config> = [check: (config: Config) => boolean, params: { path: string[]; error: string }];

/** That `expected` comes with the `field` whose answer it judges (a query, a topic, a subject): `.refine(...expectedNeeds('query'))`. */
export function expectedNeeds<Field extends string>(
  field: Field,
): Refinement<{ expected?: string } & { [K in Field]?: unknown }> {
  return [
    (config) => config.expected === undefined || config[field] !== undefined,
    { path: ['expected'], error: `expected needs a ${field}` },
  ];
}

/** That a user name comes with its password: `.refine(...usernameNeedsPassword())`. */
export function usernameNeedsPassword(): Refinement<{ username?: string; password?: string }> {
  return [
    (config) => config.username === undefined || config.password !== undefined,
    { path: ['password'], error: 'a username needs a password' },
  ];
}

/** The config of a SQL database check: its login and database fields, then TLS and the query, strict. */
export function sqlConfig<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .object({ ...shape, ...tlsFields(), ...queryFields() })
    .strict()
    .refine((config) => needsQuery(config as { expected?: string; query?: string }), needsQueryParams);
}

// expectedNeeds('query'), split in two: a generic shape hides the fields from the refinement's type.
const [needsQuery, needsQueryParams] = expectedNeeds('query');
