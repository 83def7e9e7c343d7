import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";
import { freePort } from "./server";

/** One message as the SMTP server received it. */
export type ReceivedMessage = {
  /** MAIL FROM. */
  envelopeFrom: string | undefined;
  /** RCPT TO: who the message is really delivered to, whatever the headers say. */
  envelopeTo: string[];
  raw: Buffer;
};

export type TestSmtpServer = {
  port: number;
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  /** Everything received since start, across restarts. */
  messages: ReceivedMessage[];
  /** Starts listening (again) on the same port: "SMTP is back". */
  start(): Promise<void>;
  /** Stops listening and drops connections: "SMTP is down". */
  stop(): Promise<void>;
};

/**
 * A real SMTP server on 127.0.0.1, in this process: plain text (no STARTTLS),
 * any or no login accepted, every message kept. Call start() to listen; the
 * port is chosen now (given, or free) so a site can be pointed at it while it
 * is still down.
 */
export async function createSmtpServer(port?: number): Promise<TestSmtpServer> {
  const chosenPort = port ?? (await freePort());
  const messages: ReceivedMessage[] = [];
  let server: SMTPServer | undefined;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      // A new instance each time: smtp-server is not meant to listen again after close().
      const instance = new SMTPServer({
        secure: false,
        disabledCommands: ["STARTTLS"],
        authOptional: true,
        logger: false,
        closeTimeout: 1_000,
        onAuth(_auth, _session, callback) {
          callback(null, { user: "test" });
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", () => {
            messages.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
              envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
              raw: Buffer.concat(chunks),
            });
            callback();
          });
        },
      });
      instance.once("error", reject);
      instance.listen(chosenPort, "127.0.0.1", () => {
        server = instance;
        resolve();
      });
    });

  return {
    port: chosenPort,
    url: `smtp://127.0.0.1:${chosenPort}`,
    messages,
    start: listen,
    stop: () =>
      new Promise<void>((resolve) => {
        const instance = server;
        server = undefined;
        if (!instance) return resolve();
        instance.close(() => resolve());
      }),
  };
}

/** Starts a test SMTP server on a free (or the given) port. */
export async function startSmtpServer(port?: number): Promise<TestSmtpServer> {
  const smtp = await createSmtpServer(port);
  await smtp.start();
  return smtp;
}

export type ParsedMessage = Email & Omit<ReceivedMessage, "raw"> & {
  /** Values of a header, by lower-case name, as they arrived (before decoding). */
  header(name: string): string[];
};

export async function parseMessage(message: ReceivedMessage): Promise<ParsedMessage> {
  const email = await PostalMime.parse(message.raw);
  return {
    ...email,
    envelopeFrom: message.envelopeFrom,
    envelopeTo: message.envelopeTo,
    header: (name) => email.headers.filter((header) => header.key === name.toLowerCase()).map((header) => header.value),
  };
}

/** The mailbox addresses of a parsed address list (groups flattened). */
export function addressesOf(list: Email["to"] | Email["replyTo"]): string[] {
  return (list ?? []).flatMap((address) => (address.group ? address.group.map((member) => member.address) : [address.address]));
}
