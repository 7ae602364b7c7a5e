import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

// A real SMTP server (smtp-server) on a loopback port for the suite: the app's mail library holds
// a whole SMTP conversation with it, and the test reads what arrived.

export interface ReceivedMail {
  to: string[];
  /** The message as sent: headers and body (quoted-printable may wrap long lines). */
  data: string;
}

export interface SmtpInbox {
  /** `smtp://127.0.0.1:<port>`, from the suite's first `beforeAll` on. */
  readonly url: string;
  /** The next mail to `address` (already received or arriving within `timeoutMs`), taken from the inbox. */
  mailTo(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Whether any mail to `address` has arrived (and not been taken). */
  has(address: string): boolean;
}

/** Call before the server that mails to it (useTestServer with `() => ({ env: { SMTP_URL: inbox.url } })`). */
export function useSmtpInbox(): SmtpInbox {
  const inbox: ReceivedMail[] = [];
  let server: SMTPServer | undefined;
  let port = 0;
  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data: Buffer.concat(chunks).toString('utf8') });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  return {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    async mailTo(address, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = inbox.findIndex((mail) => mail.to.includes(address));
        if (found >= 0) return inbox.splice(found, 1)[0] as ReceivedMail;
        if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    has(address) {
      return inbox.some((mail) => mail.to.includes(address));
    },
  };
}

/** The reset link in a mail (quoted-printable soft line breaks and `=3D` undone first). */
export function resetLinkIn(mail: ReceivedMail): string {
  const text = mail.data.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const link = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]{43}/.exec(text)?.[0];
  if (!link) throw new Error(`no reset link in: ${text}`);
  return link;
}
