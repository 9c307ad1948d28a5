import { OpenAPIHono, createRoute, z } from '@hono/zod-openapi';
import { monitorSchema } from '../src/config/file-schema.ts';
const app = new OpenAPIHono();
const route = createRoute({ method: 'post', path: '/m', request: { body: { content: { 'application/json': { schema: monitorSchema } } } }, responses: { 200: { description: 'ok', content: {'application/json': {schema: z.object({a: z.string()}).openapi('A')}} } } });
app.openapi(route, (c) => c.json({ a: 'x' }));
const doc = app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 't', version: '1' } });
console.log(JSON.stringify(doc, null, 1).slice(0, 6000));
