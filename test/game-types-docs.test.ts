// docs/join.md's "What each game type reports" says what test/game-types.test.ts shows each type doing, and gives names
// to exactly the types whose probes take the `playerNames` option.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { probeRegistry } from '../src/probes/registry.js';
import { GAME_TYPE_CASES, type JoinKind, REPORTED_FACTS } from './game-type-cases.js';

const JOIN_CELLS: Record<JoinKind, RegExp> = {
  steam: /^Steam link/,
  link: /^cfx\.re link/,
  copy: /^copy the address/,
  none: /^none/,
};

const cells = (row: string) =>
  row
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());

/** The table's rows by monitor type (the first `code` of the row), each cell by its column. */
function reportsTable(): Map<string, Record<string, string>> {
  const text = readFileSync(new URL('../docs/join.md', import.meta.url), 'utf8');
  const section = text.split('\n## What each game type reports\n')[1]?.split('\n## ')[0] ?? '';
  const [head = '', , ...rows] = section.split('\n').filter((line) => line.startsWith('|'));
  const columns = cells(head);
  return new Map(
    rows.map((row) => {
      const values = cells(row);
      const type = /`([^`]+)`/.exec(values[0] ?? '')?.[1] ?? '';
      return [type, Object.fromEntries(columns.map((column, n) => [column, values[n] ?? '']))];
    }),
  );
}

const typeOf = (name: string) => name.split(' ')[0] as string;
const takesPlayerNames = (type: string) => {
  const config = (probeRegistry as Record<string, { config: z.ZodType }>)[type]?.config;
  return config instanceof z.ZodObject && 'playerNames' in config.shape;
};

describe("docs/join.md's table of what each game type reports", () => {
  const table = reportsTable();

  it('has a row for each game type the suite runs, and no other', () => {
    expect([...table.keys()].sort()).toEqual(GAME_TYPE_CASES.map((game) => typeOf(game.name)).sort());
  });

  for (const game of GAME_TYPE_CASES)
    it(`says what ${game.name} reports and how players join it`, () => {
      const row = table.get(typeOf(game.name)) ?? {};
      const said = Object.fromEntries(REPORTED_FACTS.map((fact) => [fact, /^yes\b/.test(row[fact] ?? '')]));
      expect(said).toEqual(game.reports);
      for (const fact of REPORTED_FACTS) expect(row[fact], fact).toMatch(/^(yes|no)\b/);
      expect(row.join).toMatch(JOIN_CELLS[game.join]);
    });

  it('lists names for exactly the types whose probes take the playerNames option', () => {
    for (const [type, row] of table) expect(row.names?.startsWith('yes'), type).toBe(takesPlayerNames(type));
    const listing = Object.keys(probeRegistry).filter(takesPlayerNames);
    expect(listing.filter((type) => !table.has(type))).toEqual([]);
  });
});
