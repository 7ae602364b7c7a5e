import nodemailer from 'nodemailer';

/** One plain-text message to one address. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** A mail server that does not answer must not hold a send (and its request's work) for minutes. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * Mail through the SMTP server at `url` (SMTP_URL: `smtp://user:pass@host:587`, `smtps://…:465`),
 * with nodemailer, which speaks SMTP, STARTTLS and authentication as the server offers them. A
 * connection per message and none kept open: mails are rare (reset links), and nothing lingers to
 * hold up a shutdown.
 */
export function createMailer(options: { url: string; from: string }): Mailer {
  const url = new URL(options.url);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    ...TIMEOUTS,
  });
  return {
    async send(mail) {
      await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
