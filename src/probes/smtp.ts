// SMTP servers: the 220 greeting, EHLO and STARTTLS (or TLS from the first byte, port 465), and the certificate.

import { clip, defineMailProbe, type LineSession, type MailDialect, MailFailure } from './mail.js';

const REPLY = /^(\d{3})(?:([ -])(.*))?$/;

/** True for the last line of a reply: "250 …" ends it, "250-…" continues it; a line that is no reply ends it too. */
function lastLine(line: string): boolean {
  const parts = REPLY.exec(line);
  return parts === null || parts[2] !== '-';
}

function codeOf(reply: string[]): string | undefined {
  return REPLY.exec(reply.at(-1) ?? '')?.[1];
}

export const SMTP_DIALECT: MailDialect = {
  name: 'SMTP',
  ports: { plain: 25, tls: 465 },
  greetingEnds: lastLine,
  refusal(greeting) {
    const code = codeOf(greeting);
    if (code === '220') return undefined;
    if (code === undefined)
      return `unexpected response: ${JSON.stringify(clip(greeting.join(' ')))} is not an SMTP greeting`;
    return `the server turned the connection away: ${clip(greeting.join(' '))}`;
  },
  async askForTls(session: LineSession) {
    // The client's name in EHLO: an address literal is what RFC 5321 §4.1.4 asks of a client without a name to give.
    session.write('EHLO [127.0.0.1]\r\n');
    const ehlo = await session.reply(lastLine);
    if (codeOf(ehlo) !== '250') throw new MailFailure(`EHLO refused: ${clip(ehlo.join(' '))}`);
    if (!ehlo.some((line) => /^250[ -]STARTTLS\b/i.test(line)))
      throw new MailFailure('the server does not offer STARTTLS (it is not in its EHLO reply)');
    session.write('STARTTLS\r\n');
    const answer = await session.reply(lastLine);
    if (codeOf(answer) !== '220') throw new MailFailure(`STARTTLS refused: ${clip(answer.join(' '))}`);
  },
  quit: 'QUIT\r\n',
};

export const smtp = defineMailProbe('smtp', 'SMTP server', SMTP_DIALECT);
