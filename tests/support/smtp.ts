import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import PostalMime, { type Email } from "postal-mime";
import { SMTPServer } from "smtp-server";
import { freePort } from "./server";

/** One message as the SMTP server received it. */
export type ReceivedMessage = {
  /** MAIL FROM. */
  envelopeFrom: string | undefined;
  /** RCPT TO: who the message is really delivered to, whatever the headers say. */
  envelopeTo: string[];
  /** Whether the conversation was encrypted (STARTTLS) when the message came. */
  secure: boolean;
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
  /**
   * Holds the server's reply to the next messages: `arrived` resolves when one
   * has been transmitted, and it is accepted (250, and kept in `messages`)
   * only at release(), if its sender is still connected. A sender killed in
   * between never got a 250, so, as with a real server, the message is not
   * delivered.
   */
  holdReplies(): { arrived: Promise<{ sessionId: string }>; release(): void };
  /** Whether the client of that SMTP session has gone (disconnected, or its process killed). */
  sessionClosed(sessionId: string): boolean;
};

/** A certificate for 127.0.0.1 and localhost, signed by itself: its file is the CA a client must trust (NODE_EXTRA_CA_CERTS). */
export type TestCertificate = { key: string; cert: string; certFile: string };

let certificate: TestCertificate | undefined;

/** Made once per test process with openssl (on every machine CI runs on). */
export function testCertificate(): TestCertificate {
  if (certificate) return certificate;
  const dir = mkdtempSync(path.join(tmpdir(), "smtp-tls-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1,DNS:localhost",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "ignore" },
  );
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  certificate = { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8"), certFile };
  return certificate;
}

/**
 * A real SMTP server on 127.0.0.1, in this process: any or no login
 * accepted, every message kept; STARTTLS offered with `tls` (a certificate of
 * testCertificate()), else plain text only. Call start() to listen; the port
 * is chosen now (given, or free) so a site can be pointed at it while it is
 * still down.
 */
export async function createSmtpServer(port?: number, options: { tls?: boolean } = {}): Promise<TestSmtpServer> {
  const chosenPort = port ?? (await freePort());
  const messages: ReceivedMessage[] = [];
  let server: SMTPServer | undefined;
  let held: { gate: Promise<void>; arrive(sessionId: string): void } | undefined;
  const closedSessions = new Set<string>();

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      // A new instance each time: smtp-server is not meant to listen again after close().
      const instance = new SMTPServer({
        secure: false,
        ...(options.tls ? { key: testCertificate().key, cert: testCertificate().cert } : { disabledCommands: ["STARTTLS"] }),
        authOptional: true,
        logger: false,
        closeTimeout: 1_000,
        onAuth(_auth, _session, callback) {
          callback(null, { user: "test" });
        },
        onClose(session) {
          closedSessions.add(session.id);
        },
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on("data", (chunk: Buffer) => chunks.push(chunk));
          stream.on("end", async () => {
            const hold = held;
            if (hold) {
              hold.arrive(session.id);
              await hold.gate;
              if (closedSessions.has(session.id)) return;
            }
            messages.push({
              envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
              envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
              secure: session.secure,
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
    sessionClosed: (sessionId) => closedSessions.has(sessionId),
    holdReplies() {
      let arrive!: (sessionId: string) => void;
      let release!: () => void;
      const arrived = new Promise<{ sessionId: string }>((resolve) => (arrive = (sessionId) => resolve({ sessionId })));
      const gate = new Promise<void>((resolve) => (release = resolve));
      held = { gate, arrive };
      return {
        arrived,
        release() {
          if (held?.gate === gate) held = undefined;
          release();
        },
      };
    },
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
export async function startSmtpServer(port?: number, options: { tls?: boolean } = {}): Promise<TestSmtpServer> {
  const smtp = await createSmtpServer(port, options);
  await smtp.start();
  return smtp;
}

export type ParsedMessage = Email &
  Omit<ReceivedMessage, "raw"> & {
    /** Values of a header, by lower-case name, as they arrived (before decoding). */
    header(name: string): string[];
  };

export async function parseMessage(message: ReceivedMessage): Promise<ParsedMessage> {
  const email = await PostalMime.parse(message.raw);
  return {
    ...email,
    envelopeFrom: message.envelopeFrom,
    envelopeTo: message.envelopeTo,
    secure: message.secure,
    header: (name) => email.headers.filter((header) => header.key === name.toLowerCase()).map((header) => header.value),
  };
}

/** The mailbox addresses of a parsed address list (groups flattened). */
export function addressesOf(list: Email["to"] | Email["replyTo"]): string[] {
  return (list ?? []).flatMap((address) => (address.group ? address.group.map((member) => member.address) : [address.address]));
}
