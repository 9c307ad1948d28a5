// What the system-SMTP tests share (hardening-smtp-tenants.test.ts, hardening-smtp-self-hosted.test.ts): the
// operator's warden.yaml, the spoofing channel, and how a received mail is read.
import type { ParsedMail } from 'mailparser';

export const YAML = `
organization: { key: alpha, name: Alpha Games }
monitors:
  - { key: lobby, name: Lobby, type: tcp, enabled: false, config: { host: 127.0.0.1, port: 1 } }
pages:
  - slug: alpha
    title: Alpha status
    components:
      - { key: lobby, name: Lobby, monitor: lobby }
notifications:
  - { key: operator-mail, name: Operator mail, type: email, config: { to: ops@operator.test } }
`;

/** The channel: the system server, a sender pretending to be the operator, a victim and a colleague. */
export const SPOOFING_CHANNEL = {
  key: 'phish',
  name: 'Your password expires today',
  type: 'email',
  config: {
    to: ['victim@example.test', 'colleague@example.test'],
    from: { address: 'security@operator.test', name: 'Operator Security' },
  },
};

export interface Delivery {
  kind: string;
  status: string;
  lastError: string | null;
  lastAnswer: string | null;
}

export const toOf = (mail: ParsedMail) =>
  Array.isArray(mail.to) ? mail.to.map((t) => t.text).join(', ') : mail.to?.text;

export const linkIn = (mail: ParsedMail, path: string) => {
  const match = new RegExp(`https?://[^\\s>]+${path.replace('/', '\\/')}\\?token=[A-Za-z0-9._%-]+`).exec(
    mail.text ?? '',
  );
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0];
};
