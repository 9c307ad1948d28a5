// Boards: one message on a chat service that shows a page (or some of its components) and is edited in place whenever
// what it shows changes — DiscordGSM's idea, fed by the page's own snapshot. Pure types and the webhook URL's rules.
import { z } from 'zod';
import { stableKey } from './fields.js';
import type { Ownership } from './ownership.js';

export const BOARD_KINDS = ['discord'] as const;
export type BoardKind = (typeof BOARD_KINDS)[number];

export interface Board extends Ownership {
  id: string;
  organizationId: string;
  pageId: string;
  key: string;
  kind: BoardKind;
  webhookUrl: string;
  /** The components it shows; null: every component of the page. */
  componentIds: string[] | null;
  enabled: boolean;
}

export type BoardSpec = Pick<Board, 'key' | 'kind' | 'webhookUrl' | 'componentIds' | 'enabled'>;

/** Where a board's message stands: what was posted, and the edit waiting to go. */
export interface BoardDelivery {
  messageId: string | null;
  shownHash: string | null;
  shownAt: number | null;
  pendingHash: string | null;
  dueAt: number | null;
  attempts: number;
  lastError: string | null;
  /** The receiver refused for good: nothing is sent until the board is changed. */
  stopped: boolean;
}

/** A pending edit a process claimed: the board, its delivery state and the payload to send. */
export interface ClaimedEdit {
  board: Board;
  delivery: BoardDelivery;
  payload: unknown;
  pendingHash: string;
}

export const BOARD_LIMITS = {
  perPage: 10,
  /** Edits of one message at most this often (Discord allows a webhook about 5 requests per 2 s, shared). */
  minEditIntervalMs: 5_000,
  /** A change waits this long for others (several servers going down at once) before the edit goes. */
  settleMs: 1_500,
  /** A claim on a pending edit lasts this long; a process that died with it lets another take it after. */
  claimMs: 30_000,
  /** Backoff after a failed attempt: doubling from this, up to the max. */
  retryBaseMs: 5_000,
  retryMaxMs: 600_000,
} as const;

/**
 * Discord's webhook URL: https://discord.com/api/webhooks/{id}/{token} (also discordapp.com, ptb., canary., an API
 * version). Any host with that path is taken — a Discord-compatible receiver, or a test's — since the target guard
 * decides where Warden may send, as for every channel.
 */
const DISCORD_WEBHOOK = /^(https?:\/\/[^/?#\s]+)\/api(?:\/v\d+)?\/webhooks\/(\d{1,25})\/([\w-]{10,200})\/?$/;

export function parseDiscordWebhook(url: string): { id: string; token: string; base: string } | undefined {
  const match = DISCORD_WEBHOOK.exec(url);
  if (!match) return undefined;
  const [, , id, token] = match as unknown as [string, string, string, string];
  return { id, token, base: url.replace(/\/$/, '') };
}

export const DISCORD_WEBHOOK_MESSAGE =
  'expected a Discord webhook URL, https://discord.com/api/webhooks/{id}/{token} (Channel settings → Integrations → Webhooks)';

/** A board's webhook URL. */
export const boardWebhookUrl = () =>
  z
    .string()
    .max(500)
    .refine((url) => parseDiscordWebhook(url) !== undefined, { error: DISCORD_WEBHOOK_MESSAGE })
    .describe('The Discord webhook of the channel the board lives in (a secret: shown redacted).');

export const boardFields = {
  key: stableKey(),
  kind: z.enum(BOARD_KINDS).default('discord').describe('Where the board lives: discord.'),
  webhookUrl: boardWebhookUrl(),
  components: z
    .array(z.string().min(1).max(200))
    .max(25)
    .optional()
    .describe('Keys or names of the components it shows (at most 25, Discord’s field limit); all when absent.'),
  enabled: z.boolean().default(true),
};

/** The webhook URL as views and logs show it: the token replaced. */
export function redactedWebhook(url: string): string {
  const discord = parseDiscordWebhook(url);
  if (discord) return discord.base.replace(discord.token, '…');
  try {
    const parsed = new URL(url);
    return `${parsed.origin}/…`;
  } catch {
    return '…';
  }
}
