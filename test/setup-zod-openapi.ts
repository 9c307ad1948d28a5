// Loaded before every test file: zod must be extended with .openapi() before any schema is created, as the CLI's
// entry does first. A worker keeps its modules between files (isolate: false), so a file that loads a schema before
// the HTTP layer would otherwise leave it without .openapi() for the files after it.
import '@hono/zod-openapi';
