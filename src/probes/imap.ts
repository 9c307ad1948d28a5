// IMAP servers: the "* OK" greeting, STARTTLS (or TLS from the first byte, port 993), and the certificate.
import { clip, defineMailProbe, type LineSession, type MailDialect, MailFailure } from './mail.js';

export const IMAP_DIALECT: MailDialect = {
  name: 'IMAP',
  ports: { plain: 143, tls: 993 },
  // The greeting is one untagged line (RFC 9051 §7.1).
  greetingEnds: () => true,
  refusal([greeting = '']) {
    if (/^\* (OK|PREAUTH)\b/i.test(greeting)) return undefined;
    if (/^\* BYE\b/i.test(greeting)) return `the server turned the connection away: ${clip(greeting)}`;
    return `unexpected response: ${JSON.stringify(clip(greeting))} is not an IMAP greeting`;
  },
  async askForTls(session: LineSession) {
    session.write('a1 STARTTLS\r\n');
    // Untagged lines may come first; the tagged one answers.
    const reply = await session.reply((line) => line.startsWith('a1 '));
    const answer = reply.at(-1) ?? '';
    if (!/^a1 OK\b/i.test(answer)) throw new MailFailure(`STARTTLS refused: ${clip(answer)}`);
  },
  quit: 'a2 LOGOUT\r\n',
};

export const imap = defineMailProbe('imap', 'IMAP server', IMAP_DIALECT);
