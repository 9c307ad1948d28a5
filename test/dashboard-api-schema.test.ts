// The stand-ins of web/src/api/pending-paths.ts go as soon as the document describes what they stand for.
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../web/scripts/generate-api-schema.js';
import { PENDING_OPERATIONS } from '../web/src/api/pending-paths.js';

type Operation = { parameters?: { name: string; in: string }[] };

describe('the dashboard API client types', () => {
  let document: Record<string, unknown>;
  beforeAll(async () => {
    document = await openApiDocument();
  });

  it('stand in (pending-paths.ts) only for operations the document does not describe yet', () => {
    const paths = document['paths'] as Record<string, Record<string, Operation>>;
    const documented = PENDING_OPERATIONS.filter((pending) => {
      const operation = paths[pending.path]?.[pending.method];
      if (!operation) return false;
      const query = new Set((operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
      return (pending.query ?? []).every((name) => query.has(name));
    });
    expect(
      documented.map((p) => `${p.method.toUpperCase()} ${p.path}`),
      'now in the OpenAPI document: delete these from web/src/api/pending-paths.ts',
    ).toEqual([]);
  });
});
