// Warden in process for the page subscriber tests, one per dialect, shared by the tests in order: a seeded organization
// with pages that take subscriptions (one on a custom domain, one closed, one protected), a real SMTP server, a write
// key, and the requests the tests make (as a client address, as JSON, through the organization API).
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, expect } from 'vitest';
import { composeWarden, type WardenParts } from '../src/compose.js';
import { createLogger } from '../src/logger.js';
import { createApiKey } from '../src/services/api-keys/create.js';
import type { Receiver } from './fakes/notify-receivers.js';
import { type FakeSmtpServer, startSmtpFake } from './fakes/smtp-server.js';
import { seed, testContext } from './seed.js';
import type { DialectCase, OpenedStore } from './store-dialects.js';

export const BASE = 'http://warden.test';
const YAML = `
organization: { key: acme, name: Acme }
pages:
  - { slug: main, title: Acme status, subscriptions: true, customDomain: status.acme.test }
  - { slug: busy, title: Busy, subscriptions: true }
  - { slug: closed, title: Closed }
  - { slug: private, title: Private, password: "correct horse", subscriptions: true }
`;

export function pageSubscribersWarden(dialect: DialectCase) {
  let smtp: FakeSmtpServer;
  let opened: OpenedStore;
  let parts: WardenParts;
  let writeKey: string;
  let organizationId: string;
  const receivers: Receiver[] = [];
  // Real time (webhook signatures are checked against it), moved on by the expiry test.
  const clock = { now: () => Date.now() + s.offset };

  beforeAll(async () => {
    smtp = await startSmtpFake();
    opened = await dialect.open();
    organizationId = (await seed(opened.store, YAML, clock.now())).report.organization.id;
    writeKey = (
      await createApiKey({ ...testContext(opened.store, clock), organizationId }, { name: 'w', scope: 'write' })
    ).secret;
    parts = composeWarden({
      store: opened.store,
      clock,
      logger: createLogger('silent'),
      baseUrl: () => BASE,
      security: { trustProxy: true },
      smtp: {
        host: '127.0.0.1',
        port: smtp.port,
        secure: 'none',
        tlsRejectUnauthorized: true,
        from: { address: 'status@acme.test', name: 'Acme status' },
      },
    });
    await parts.pages.start();
  });
  afterAll(async () => {
    await parts?.dispatcher.stop();
    await parts?.pages.stop();
    await parts?.ingest.close();
    parts?.outbox.close();
    for (const receiver of receivers) await receiver.close();
    await opened?.cleanup();
    await smtp?.close();
  });

  const request = (path: string, init: RequestInit & { client?: string } = {}) => {
    const { client = '192.0.2.1', ...rest } = init;
    const headers = new Headers(rest.headers);
    headers.set('x-forwarded-for', client);
    return Promise.resolve(parts.app.request(`${BASE}${path.replace(BASE, '')}`, { ...rest, headers }));
  };
  const subscribeJson = (slug: string, body: unknown, client?: string) =>
    request(`/s/${slug}/subscribe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(client ? { client } : {}),
    });
  const api = (method: string, path: string, body?: unknown) =>
    Promise.resolve(
      parts.app.request(`${BASE}${path}`, {
        method,
        headers: { authorization: `Bearer ${writeKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    );
  const postIncident = (title: string) =>
    api('POST', '/api/v1/pages/main/incidents', { title, message: `${title}: we are looking into it.` });
  const mailTo = async (address: string, count = 1): Promise<ParsedMail[]> => {
    await expect.poll(() => smtp.messages.filter((m) => m.to.includes(address)).length, { timeout: 5000 }).toBe(count);
    return Promise.all(smtp.messages.filter((m) => m.to.includes(address)).map((m) => m.parse()));
  };
  const linkIn = (mail: ParsedMail, path: string) => {
    const found = new RegExp(`${BASE}/s/[a-z]+/${path}\\?token=[^\\s"<>]+`).exec(mail.text ?? '')?.[0];
    if (!found) throw new Error(`no ${path} link in the mail`);
    return found;
  };
  const s = {
    get smtp() {
      return smtp;
    },
    get opened() {
      return opened;
    },
    get parts() {
      return parts;
    },
    get organizationId() {
      return organizationId;
    },
    /** Added to the clock's time (the expiry and limit tests move it on). */
    offset: 0,
    clock,
    receivers,
    request,
    subscribeJson,
    api,
    postIncident,
    mailTo,
    linkIn,
  };
  return s;
}
