// A channel's message template (docs/notifications.md, "Message templates"): Mustache, logic-less, over the fields of
// fields.ts only. Checked when the channel is saved (an error names the line), rendered as plain text (no HTML
// escaping: each channel escapes the text for its own format, as it does Warden's own words), and capped.
import mustache from 'mustache';
import { z } from 'zod';
import type { NotificationEvent } from '../channels/channel.js';
import { clip } from '../events/format.js';
import { FIELD_NAMES, templateView } from './fields.js';

/** The longest rendered title (one line) and body; channels with smaller limits cut further. */
export const TEMPLATE_OUTPUT = { title: 250, body: 4000 } as const;
/** The longest template source. */
export const TEMPLATE_SOURCE = { title: 1000, body: 8000 } as const;

export interface MessageTemplate {
  title?: string | undefined;
  body?: string | undefined;
}

export interface RenderedMessage {
  title?: string;
  body?: string;
}

export class TemplateError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

type Token = [string, string, number, number, Token[]?, number?];

/** Parses and checks a template; throws a TemplateError naming the line of the first problem. */
export function checkTemplate(source: string): void {
  let tokens: Token[];
  try {
    tokens = new mustache.Writer().parse(source) as unknown as Token[];
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TemplateError(lineAt(source, errorIndex(source, message)), message.replace(/ at \d+$/, ''));
  }
  checkTokens(source, tokens, []);
}

function checkTokens(source: string, tokens: Token[], sections: string[]): void {
  for (const [type, name, start, , children] of tokens) {
    if (type === 'text' || type === '!') continue;
    const line = lineAt(source, start);
    if (type === '>') throw new TemplateError(line, `partials ({{>${name}}}) are not allowed`);
    if (type === '=') throw new TemplateError(line, 'changing the delimiters is not allowed');
    if (!known(name, sections))
      throw new TemplateError(line, `unknown field "${name}" (docs/notifications.md lists the fields)`);
    if (type === '#' || type === '^') {
      const path = resolve(name, sections) ?? name;
      if (type === '#' && path === 'pages' && sections.includes('pages'))
        throw new TemplateError(line, 'a {{#pages}} section may not be inside another');
      checkTokens(source, children ?? [], type === '#' ? [...sections, path] : sections);
    }
  }
}

/** A name is known when it is a field seen from the innermost section outwards (as Mustache looks it up). */
function known(name: string, sections: string[]): boolean {
  if (name === '.') return sections.length > 0;
  return resolve(name, sections) !== null;
}

function resolve(name: string, sections: string[]): string | null {
  // Each section is a full path (monitor, pages): a name inside it is first its child (monitor.name), then outwards.
  for (let index = sections.length; index > 0; index -= 1) {
    const path = `${sections[index - 1]}.${name}`;
    if (FIELD_NAMES.has(path)) return path;
  }
  return FIELD_NAMES.has(name) ? name : null;
}

/** Where Mustache's error points: the opening tag of an unclosed section (Mustache says the end), else its index. */
function errorIndex(source: string, message: string): number {
  const unclosed = /^Unclosed section "([^"]*)"/.exec(message)?.[1];
  if (unclosed !== undefined) {
    const opening = source.lastIndexOf(`{{#${unclosed}`) + 1 || source.lastIndexOf(`{{^${unclosed}`) + 1;
    if (opening > 0) return opening - 1;
  }
  return Number(/at (\d+)$/.exec(message)?.[1] ?? 0);
}

function lineAt(source: string, index: number): number {
  return source.slice(0, index).split('\n').length;
}

/** Renders a checked template over the event, without HTML escaping; `cap` characters at most. */
export function renderTemplate(source: string, event: NotificationEvent, cap: number): string {
  const writer = new mustache.Writer();
  const text = writer.render(source, templateView(event), {}, { escape: (value: unknown) => String(value) });
  return clip(text, cap);
}

/** The template's message for the event: its title on one line, its body trimmed; a part left unset is absent. */
export function renderMessage(template: MessageTemplate, event: NotificationEvent): RenderedMessage {
  return renderMessageCut(template, event).message;
}

/** The message, and whether each part was cut to TEMPLATE_OUTPUT (the template preview says so). */
export function renderMessageCut(
  template: MessageTemplate,
  event: NotificationEvent,
): { message: RenderedMessage; clipped: { title: boolean; body: boolean } } {
  const message: RenderedMessage = {};
  const clipped = { title: false, body: false };
  if (template.title) {
    const line = renderTemplate(template.title, event, TEMPLATE_OUTPUT.title * 2)
      .replace(/\s+/g, ' ')
      .trim();
    message.title = clip(line, TEMPLATE_OUTPUT.title);
    clipped.title = message.title !== line;
  }
  if (template.body) {
    // One character over the cap tells a cut body from one that just fits; cut again, it is what renderTemplate makes.
    const over = renderTemplate(template.body, event, TEMPLATE_OUTPUT.body + 1);
    message.body = clip(over, TEMPLATE_OUTPUT.body).trim();
    clipped.body = Array.from(over).length > TEMPLATE_OUTPUT.body;
  }
  return { message, clipped };
}

function templateSource(part: 'title' | 'body') {
  const max = TEMPLATE_SOURCE[part];
  return z
    .string({ error: `expected the ${part} template as a string` })
    .max(max, { error: `the ${part} template is longer than ${max} characters` })
    .superRefine((source, ctx) => {
      try {
        checkTemplate(source);
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        ctx.addIssue({ code: 'custom', message: `${part} template, ${error.message}` });
      }
    })
    .optional();
}

/** `config.template` of every channel type. */
export const messageTemplateSchema = z
  .object({
    title: templateSource('title').describe(
      `A Mustache template for the title (one line, at most ${TEMPLATE_OUTPUT.title} characters rendered).`,
    ),
    body: templateSource('body').describe(
      `A Mustache template for the text (at most ${TEMPLATE_OUTPUT.body} characters rendered).`,
    ),
  })
  .strict()
  .describe(
    'The message as this channel shows it, instead of Warden’s own words: Mustache over the fields docs/notifications.md lists ("Message templates").',
  );
