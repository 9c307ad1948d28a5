// First run with the setup code (the one the start-up log and `warden setup-code` print): POST /api/v1/auth/setup with
// `code` creates the first owner once, before it expires, while it is the newest; wrong codes answer 400 naming
// body.code and count against the sign-in attempt limits.
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { browse, sessionSet } from '../../../../test/auth-browser.js';
import { dialects } from '../../../../test/store-dialects.js';
import {
  generateSetupCode,
  normalizeSetupCode,
  openSetupCode,
  SETUP_CODE_ALPHABET,
  setupCodeHash,
} from '../../../services/accounts/setup-code.js';

const OWNER = { email: 'owner@example.com', name: 'Olive Owner', password: 'correct horse battery staple' };

describe('setup codes', () => {
  it('are eight characters of an alphabet without look-alikes, grouped 4-4, and read back however typed', () => {
    const codes = Array.from({ length: 200 }, generateSetupCode);
    for (const code of codes) expect(code).toMatch(/^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/);
    expect(new Set(codes).size).toBe(200);
    for (const lookAlike of ['0', 'O', '1', 'I', 'L']) expect(SETUP_CODE_ALPHABET).not.toContain(lookAlike);
    expect(normalizeSetupCode(' abcd efgh ')).toBe('ABCDEFGH');
    expect(normalizeSetupCode('ABCD-EFG')).toBeNull();
    expect(normalizeSetupCode('ABCD-EFG0')).toBeNull();
  });
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`first-run setup with the setup code on ${dialect.name}`, () => {
    let h: ApiHarness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });
    const setup = (harness: ApiHarness, body: Record<string, unknown>) =>
      browse(harness, 'POST', '/api/v1/auth/setup', { body: { ...OWNER, ...body } });

    async function expectCodeRefused(res: Response): Promise<void> {
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const problem = await res.json();
      expect(problem.errors).toEqual([{ path: 'body.code', message: expect.stringContaining('warden setup-code') }]);
    }

    it('refuses a wrong code, a missing one, an expired one and a replaced one, naming the field', async () => {
      h = await openApiHarness(dialect);
      const first = await openSetupCode(h.context);
      expect(first?.code).toMatch(/^\w{4}-\w{4}$/);
      await expectCodeRefused(await setup(h, { code: 'ZZZZ-ZZZZ' === first?.code ? 'YYYY-YYYY' : 'ZZZZ-ZZZZ' }));
      await expectCodeRefused(await setup(h, { code: 'not a code' }));
      const missing = await setup(h, {});
      expect(missing.status).toBe(400);
      expect((await missing.json()).errors).toEqual([{ path: 'body.code', message: 'expected the setup code' }]);
      // Replaced by a newer one (a restart, or `warden setup-code`).
      const second = await openSetupCode(h.context);
      await expectCodeRefused(await setup(h, { code: first?.code }));
      // Expired: an hour later.
      h.clock.advance(3600_000 + 1);
      await expectCodeRefused(await setup(h, { code: second?.code }));
      expect((await (await browse(h, 'GET', '/api/v1/auth/config')).json()).setupRequired).toBe(true);
    });

    it('creates the owner with the newest code, typed in any case and grouping, signed in; the code works once', async () => {
      h = await openApiHarness(dialect);
      const opened = await openSetupCode(h.context);
      const typed = (opened?.code ?? '').toLowerCase().replace('-', ' ');
      const res = await setup(h, { code: typed });
      expect(res.status).toBe(201);
      expect((await res.json()).user).toMatchObject({ email: OWNER.email, name: OWNER.name });
      expect((await browse(h, 'GET', '/api/v1/auth/me', { session: sessionSet(res) })).status).toBe(200);
      // Used: the same code again makes no second owner.
      const again = await setup(h, { code: opened?.code, email: 'second@example.com' });
      expect(again.status).toBe(409);
      expect(await openSetupCode(h.context)).toBeNull();
    });

    it('stores only the code’s hash', async () => {
      h = await openApiHarness(dialect);
      const opened = await openSetupCode(h.context);
      const bare = (opened?.code ?? '').replace('-', '');
      const harness = h;
      // Neither the code as shown nor as typed is in the store; its hash is (and using it there spends it).
      for (const plain of [opened?.code ?? '', bare])
        expect(await harness.store.accountTokens.use(plain, 'setup', harness.clock.now())).toBeUndefined();
      expect(await harness.store.accountTokens.use(setupCodeHash(bare), 'setup', harness.clock.now())).toMatchObject({
        purpose: 'setup',
        userId: null,
      });
      expect((await setup(harness, { code: opened?.code })).status).toBe(400);
    });

    it('limits wrong guesses: past the sign-in attempt limit the answer is 429 with Retry-After, even for the right code', async () => {
      h = await openApiHarness(dialect, { security: { loginAttemptsPerMinute: 3 } });
      const opened = await openSetupCode(h.context);
      for (let i = 0; i < 3; i++)
        await expectCodeRefused(await setup(h, { code: 'WWWW-WWWW' === opened?.code ? 'XXXX-XXXX' : 'WWWW-WWWW' }));
      const limited = await setup(h, { code: opened?.code });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      // A minute later the right code works.
      h.clock.advance(61_000);
      expect((await setup(h, { code: opened?.code })).status).toBe(201);
    });
  });
}
