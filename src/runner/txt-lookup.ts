// TXT lookups for custom-domain verification, through the system's resolvers or the servers given ("ip" or "ip:port").
import { Resolver } from 'node:dns/promises';
import { CUSTOM_DOMAIN_LIMITS, type TxtAnswer, type TxtLookup } from '../domain/custom-domain.js';

/** Codes that mean "no such record" (NXDOMAIN, NODATA): an answer, not a failure. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA']);

export function createTxtLookup(
  options: { servers?: readonly string[] | undefined; timeoutMs?: number } = {},
): TxtLookup {
  const timeoutMs = options.timeoutMs ?? CUSTOM_DOMAIN_LIMITS.lookupTimeoutMs;
  return async (name): Promise<TxtAnswer> => {
    // Two tries (c-ares lengthens the second) fit the budget; the timer cancels whatever is left.
    const resolver = new Resolver({ timeout: Math.max(50, Math.floor(timeoutMs / 3)), tries: 2 });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      resolver.cancel();
    }, timeoutMs);
    try {
      if (options.servers && options.servers.length > 0) resolver.setServers([...options.servers]);
      const records = await resolver.resolveTxt(name);
      return { records: records.map((chunks) => chunks.join('')) };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NO_RECORD.has(code)) return { records: [] };
      if (timedOut || code === 'ETIMEOUT' || code === 'ECANCELLED')
        return { error: `no answer within ${timeoutMs} ms` };
      return { error: code || (error as Error).message };
    } finally {
      clearTimeout(timer);
    }
  };
}
