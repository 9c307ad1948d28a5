// The server's side of one SCRAM conversation (RFC 5802, RFC 7677) for the fakes that log clients in with it
// (mongodb-server.ts, postgres-server.ts): the server-first-message for a client's first, and the client's proof
// checked against the salted password, answered with the server's signature.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export type ScramHash = 'sha1' | 'sha256';

export interface ScramConversation {
  /** The server-first-message (r=…,s=…,i=…) answering the client-first-message (its gs2 header included). */
  first(clientFirst: string): string;
  /** The server-final-message (v=…) when the client-final-message's proof is right; undefined when it is not. */
  final(clientFinal: string): string | undefined;
  /** A server-final-message whose signature was made without the password: what an impostor sends. */
  forged(clientFinal: string): string;
}

export function scramConversation(
  hash: ScramHash,
  salted: Buffer,
  salt: Buffer,
  iterations: number,
): ScramConversation {
  const hmac = (key: Buffer, text: string) => createHmac(hash, key).update(text).digest();
  const digest = (data: Buffer) => createHash(hash).update(data).digest();
  let clientFirstBare = '';
  let serverFirst = '';
  let nonce = '';
  const authMessage = (clientFinal: string) =>
    `${clientFirstBare},${serverFirst},${clientFinal.replace(/,p=[^,]*$/, '')}`;
  return {
    first(clientFirst) {
      clientFirstBare = clientFirst.replace(/^n,,/, '');
      nonce = `${/r=([^,]+)/.exec(clientFirstBare)?.[1] ?? ''}${randomBytes(18).toString('base64')}`;
      serverFirst = `r=${nonce},s=${salt.toString('base64')},i=${iterations}`;
      return serverFirst;
    },
    final(clientFinal) {
      const proof = Buffer.from(/,p=([^,]*)$/.exec(clientFinal)?.[1] ?? '', 'base64');
      const message = authMessage(clientFinal);
      const storedKey = digest(hmac(salted, 'Client Key'));
      const signature = hmac(storedKey, message);
      if (proof.length !== signature.length || !message.endsWith(`r=${nonce}`)) return undefined;
      const clientKey = Buffer.from(proof.map((byte, i) => byte ^ (signature[i] as number)));
      if (!timingSafeEqual(digest(clientKey), storedKey)) return undefined;
      return `v=${hmac(hmac(salted, 'Server Key'), message).toString('base64')}`;
    },
    forged(clientFinal) {
      return `v=${hmac(randomBytes(32), authMessage(clientFinal)).toString('base64')}`;
    },
  };
}
