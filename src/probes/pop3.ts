// POP3 servers: the "+OK" greeting, STLS (or TLS from the first byte, port 995), and the certificate.
import { clip, defineMailProbe, type LineSession, type MailDialect, MailFailure } from './mail.js';

export const POP3_DIALECT: MailDialect = {
  name: 'POP3',
  ports: { plain: 110, tls: 995 },
  greetingEnds: () => true,
  refusal([greeting = '']) {
    if (/^\+OK\b/.test(greeting)) return undefined;
    if (/^-ERR\b/.test(greeting)) return `the server turned the connection away: ${clip(greeting)}`;
    return `unexpected response: ${JSON.stringify(clip(greeting))} is not a POP3 greeting`;
  },
  async askForTls(session: LineSession) {
    // STLS, RFC 2595 §4.
    session.write('STLS\r\n');
    const [answer = ''] = await session.reply(() => true);
    if (!/^\+OK\b/.test(answer)) throw new MailFailure(`STLS refused: ${clip(answer)}`);
  },
  quit: 'QUIT\r\n',
};

export const pop3 = defineMailProbe('pop3', 'POP3 server', POP3_DIALECT);
