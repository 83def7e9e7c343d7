import type { Transporter } from "nodemailer";

/** How e-mail is sent and to whom (SMTP_URL, MAIL_FROM, CONTACT_NOTIFY_TO, …; read in config/env.server.ts). */
export type MailConfig = {
  /** SMTP_URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
  smtpUrl: string;
  /** MAIL_FROM, as given: "address" or "Name <address>". */
  from: string;
  /** CONTACT_NOTIFY_TO: who is told of each enquiry. */
  notifyTo: string[];
  /** SMTP_INSECURE: let smtp:// go without STARTTLS (off by default: STARTTLS is required). */
  insecure: boolean;
};

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
  /** The Message-ID this answers (In-Reply-To and References), so mail programs thread it. */
  inReplyTo?: string;
};

export interface Mailer {
  /** For the start-up log: never includes credentials. */
  readonly description: string;
  /** Resolves once the SMTP server has accepted the message; rejects with its reason otherwise. */
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

/** The mail server would not encrypt the conversation: say so in words an admin can act on. */
function refusedTls(error: unknown): Error {
  const detail = (error as { response?: unknown; message?: unknown }).response ?? (error as { message?: unknown }).message;
  return Object.assign(
    new Error(
      `the mail server did not encrypt the connection (STARTTLS), so nothing was sent in the clear (${String(detail)}); SMTP_INSECURE=true allows plain SMTP`,
    ),
    { code: "ETLS" },
  );
}

/** Seconds an SMTP conversation may stall before the attempt counts as failed (and is retried later). */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

/**
 * SMTP through nodemailer: smtps://host:465 is TLS from the start;
 * smtp://host:587 must upgrade with STARTTLS (requireTLS), or an attacker on
 * the path could strip the offer and read the password and every enquiry.
 * `insecure` (SMTP_INSECURE=true) lets plain SMTP through, for a relay on
 * the same machine or network that has no TLS. The server's certificate is
 * checked against the system's CAs (and NODE_EXTRA_CA_CERTS).
 */
export function createSmtpMailer(smtpUrl: string, { insecure = false }: { insecure?: boolean } = {}): Mailer {
  const url = new URL(smtpUrl);
  const requireTLS = url.protocol === "smtp:" && !insecure;
  // nodemailer is loaded with the first message, not at start (about 0.1 s).
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import("nodemailer").then(({ default: nodemailer }) => nodemailer.createTransport({ url: smtpUrl, requireTLS, ...TIMEOUTS })));
  const tls = url.protocol === "smtps:" ? "TLS" : requireTLS ? "STARTTLS required" : "STARTTLS not required (SMTP_INSECURE)";
  return {
    description: `SMTP ${url.protocol.replace(":", "")}://${url.hostname}${url.port ? `:${url.port}` : ""} (${tls})`,
    async send(email) {
      await (await connect())
        .sendMail({
          from: email.from,
          to: email.to,
          replyTo: email.replyTo,
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: email.messageId,
          inReplyTo: email.inReplyTo,
          references: email.inReplyTo,
          // The message is finished text: nodemailer must never read a file or fetch a URL named in it.
          disableFileAccess: true,
          disableUrlAccess: true,
        })
        .catch((error: unknown) => {
          throw (error as { code?: unknown } | null)?.code === "ETLS" && requireTLS ? refusedTls(error) : error;
        });
    },
    close() {
      // Nothing to close if nothing was sent (or nodemailer failed to load: send() said so).
      transport?.then(
        (open) => open.close(),
        () => undefined,
      );
    },
  };
}
