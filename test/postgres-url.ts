/** The PostgreSQL database the tests use when it is reachable (each test in a schema of its own). */
export const POSTGRES_URL = process.env.WARDEN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
