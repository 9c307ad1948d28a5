// SCRAM (RFC 5802, and RFC 7677 for SHA-256), the client's side: the first message, the proof from the server's
// nonce, salt and iteration count, and the server's signature checked, so a server that does not know the password
// cannot pass for one that does. Salting a password is deliberately slow (thousands of HMAC rounds): it runs on
// libuv's thread pool, and what it gives is kept per password, salt and count (a server keeps a user's salt), so a
// monitor checking every 30 s pays it once.
import { createHash, createHmac, pbkdf2, randomBytes, timingSafeEqual } from 'node:crypto';

export type ScramHash = 'sha1' | 'sha256';

export interface ScramStart {
  /** The client-first-message: gs2 header (no channel binding) and the bare part. */
  clientFirst: string;
  /** What the proof needs from this first step. */
  state: { hash: ScramHash; clientFirstBare: string; clientNonce: string };
}

/** The user name as SCRAM writes it: "=" and "," escaped. */
function saslName(username: string): string {
  return username.replaceAll('=', '=3D').replaceAll(',', '=2C');
}

/** The first step; `clientNonce` is random unless a test gives one. */
export function scramStart(
  hash: ScramHash,
  username: string,
  clientNonce = randomBytes(24).toString('base64'),
): ScramStart {
  const clientFirstBare = `n=${saslName(username)},r=${clientNonce}`;
  return { clientFirst: `n,,${clientFirstBare}`, state: { hash, clientFirstBare, clientNonce } };
}

export interface ScramFinal {
  clientFinal: string;
  /** The signature the server's final message must carry, in base64. */
  serverSignature: string;
  /** True when the server's final message carries the signature only a holder of the password could make. */
  verifies(serverFinal: string): boolean;
}

/**
 * Fewer rounds than this is a server (or an impostor) asking for a weak key: refused, as MongoDB's drivers do (RFC
 * 7677's floor). PostgreSQL lets its administrator choose fewer (scram_iterations), and libpq takes them.
 */
export const MIN_ITERATIONS = 4096;
/**
 * More than this is refused: salting runs on libuv's thread pool, which name lookups share, and a hostile server that
 * sends a new salt each time defeats the cache. At this count one salting is about 20 ms; servers ask for 4,096
 * (PostgreSQL) to 15,000 (MongoDB's SCRAM-SHA-256).
 */
const MAX_ITERATIONS = 100_000;

/**
 * The client-final-message for the server-first-message `serverFirst`, the password already prepared as the
 * mechanism wants it (SASLprep, or MongoDB's digest for SCRAM-SHA-1). Throws with a plain reason on a malformed
 * or unsafe server message.
 */
export async function scramFinal(
  state: ScramStart['state'],
  password: string,
  serverFirst: string,
  minIterations = MIN_ITERATIONS,
): Promise<ScramFinal> {
  const fields = new Map(serverFirst.split(',').map((part) => [part.slice(0, 1), part.slice(2)] as const));
  const nonce = fields.get('r') ?? '';
  const salt = Buffer.from(fields.get('s') ?? '', 'base64');
  const iterations = Number(fields.get('i'));
  if (fields.has('e')) throw new Error(`the server refused the login: ${fields.get('e')}`);
  if (!nonce.startsWith(state.clientNonce) || nonce.length === state.clientNonce.length)
    throw new Error("the server's nonce does not extend ours");
  if (salt.length === 0) throw new Error('the server sent no salt');
  if (!Number.isInteger(iterations) || iterations < minIterations || iterations > MAX_ITERATIONS)
    throw new Error(
      `the server asked for ${fields.get('i')} iterations (${minIterations} to ${MAX_ITERATIONS} accepted)`,
    );
  const salted = await saltedPassword(state.hash, password, salt, iterations);
  const withoutProof = `c=biws,r=${nonce}`;
  const authMessage = `${state.clientFirstBare},${serverFirst},${withoutProof}`;
  const hmac = (key: Buffer, text: string) => createHmac(state.hash, key).update(text).digest();
  const clientKey = hmac(salted, 'Client Key');
  const storedKey = createHash(state.hash).update(clientKey).digest();
  const signature = hmac(storedKey, authMessage);
  const proof = Buffer.from(clientKey.map((byte, i) => byte ^ (signature[i] as number)));
  const serverSignature = hmac(hmac(salted, 'Server Key'), authMessage);
  return {
    clientFinal: `${withoutProof},p=${proof.toString('base64')}`,
    serverSignature: serverSignature.toString('base64'),
    verifies(serverFinal) {
      const said = /(?:^|,)v=([^,]*)/.exec(serverFinal)?.[1];
      if (said === undefined) return false;
      const given = Buffer.from(said, 'base64');
      return given.length === serverSignature.length && timingSafeEqual(given, serverSignature);
    },
  };
}

/** Salted passwords by a digest of what they were made from: never the password itself as a key. */
const salted = new Map<string, Buffer>();
/** Enough for every user of every server a large installation watches; the oldest goes first beyond it. */
const SALTED_KEPT = 1000;
let saltings = 0;
/** How many passwords this process has salted: a test's way to see the kept ones used. */
export const saltingsSoFar = () => saltings;

function saltedPassword(hash: ScramHash, password: string, salt: Buffer, iterations: number): Promise<Buffer> {
  const key = createHash('sha256')
    .update(`${hash}\0${iterations}\0${salt.toString('base64')}\0`)
    .update(password)
    .digest('base64');
  const known = salted.get(key);
  if (known) return Promise.resolve(known);
  saltings++;
  return new Promise((resolve, reject) =>
    pbkdf2(password, salt, iterations, hash === 'sha1' ? 20 : 32, hash, (error, derived) => {
      if (error) return reject(error);
      if (salted.size >= SALTED_KEPT) salted.delete(salted.keys().next().value as string);
      salted.set(key, derived);
      resolve(derived);
    }),
  );
}
