// What an MCP tool is: a name, a description with its bounds, zod schemas for its arguments and its result, and a thin run().
import type { z } from 'zod';
import type { PublicScope } from '../services/pages/list-public-pages.js';
import type { PagesContext } from '../services/runtime.js';

/** What tools and resources read: the verbs' context with the page cache, scoped to the request's host. */
export interface McpContext extends PagesContext {
  /** On a page's custom domain, MCP sees that page only, like the llms files. */
  scope: PublicScope;
}

export interface ToolOutput<T> {
  /** The text content: Markdown a model reads as is. */
  markdown: string;
  /** The structuredContent, matching the tool's output schema. */
  structured: T;
}

export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** Says what the tool returns and every argument's type, default and bounds. */
  description: string;
  input: I;
  output: O;
  /** Parses nothing and decides nothing: calls one service and renders. Throws the core's typed errors. */
  run(args: z.output<I>, context: McpContext): Promise<ToolOutput<z.output<O>>>;
}

/** Identity, for inference: `defineTool({ input: z.object(…), run(args) {…} })` types `args` from the schema. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: McpTool<I, O>): McpTool<I, O> {
  return tool;
}
