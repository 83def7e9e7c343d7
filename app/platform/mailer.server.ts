import type { Transporter } from "nodemailer";

/** A message as the outbox stores it and the mailer sends it. Every text is already escaped for its part. */
export type OutgoingEmail = {
  from: string;
  to: string[];
  /** Only an address that passed the contact form's strict check. */
  replyTo?: string;
  subject: string;
  text: string;
  html: string;
  /** `<outbox-id@…>`: the same id on a retry, so a receiver can tell a duplicate. */
  messageId?: string;
};

export interface Mailer {
  /** For the start-up log: never includes credentials. */
  readonly description: string;
  /** Resolves once the SMTP server has accepted the message; rejects with its reason otherwise. */
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** Seconds an SMTP conversation may stall before the attempt counts as failed (and is retried later). */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/** SMTP through nodemailer: smtp://host:587 upgrades with STARTTLS when offered, smtps://host:465 is TLS from the start. */
export function createSmtpMailer(smtpUrl: string): Mailer {
  const url = new URL(smtpUrl);
  // nodemailer is loaded with the first message, not at start (about 0.1 s).
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS })));
  return {
    description: `SMTP ${url.protocol.replace(":", "")}://${url.hostname}${url.port ? `:${url.port}` : ""}`,
    async send(email) {
      await (await connect()).sendMail({
        from: email.from,
        to: email.to,
        replyTo: email.replyTo,
        subject: email.subject,
        text: email.text,
        html: email.html,
        messageId: email.messageId,
        // The message is finished text: nodemailer must never read a file or fetch a URL named in it.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    },
    close() {
      // Nothing to close if nothing was sent (or nodemailer failed to load: send() said so).
      transport?.then((open) => open.close(), () => undefined);
    },
  };
}
