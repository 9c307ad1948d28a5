import { z } from 'zod';
import '@hono/zod-openapi';
const o = z.object({ a: z.string().default('x'), b: z.number().optional() }).strict();
console.log(o.partial().parse({}), o.omit({ b: true }).safeParse({ c: 1 }).success);
console.log(z.string().default('x').optional().parse(undefined));
const named = (o as any).openapi('O');
console.log(typeof named.parse, named === o);
const tsf = z.union([z.number().int(), z.iso.datetime({offset:true})]).transform(v => typeof v === 'number' ? v : Date.parse(v));
console.log(tsf.parse('2026-01-01T00:00:00Z'));
