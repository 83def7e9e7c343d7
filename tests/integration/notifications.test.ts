/**
 * Notification e-mail end to end: the built server, on each backend, sending
 * through a real SMTP server in this process. Enquiries go in over HTTP (the
 * JSON API and the HTML form); what the SMTP server receives is parsed as a
 * mail client would.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailHealth, notificationStates } from "~/enquiries/outbox.server";
import { FAILURE_MESSAGE, SUCCESS_MESSAGE } from "~/enquiries/schema";
import type { Database } from "~/platform/db/db.server";
import { backends } from "../support/backends";
import { acknowledgementOn, countEnquiries, findEnquiry, postJson, validEnquiry } from "../support/enquiries";
import { assertBuilt, startServer, type SpawnedServer } from "../support/server";
import { addressesOf, createSmtpServer, parseMessage, startSmtpServer, testCertificate, type ParsedMessage, type TestSmtpServer } from "../support/smtp";
import { waitFor } from "../support/wait";
import { useDatabase, useSite } from "../support/sites";

const MAIL_FROM = "Example Property <enquiries@mail.example.com>";
const NOTIFY_TO = ["office@example.com", "lettings@example.com"];
/**
 * The rate limit is not under test here: these files post more than five enquiries from one address.
 * The test SMTP servers offer STARTTLS with a certificate of their own, which the site is told to trust.
 */
const MAIL_ENV = {
  MAIL_FROM,
  CONTACT_NOTIFY_TO: NOTIFY_TO.join(", "),
  CONTACT_RATE_LIMIT: "1000",
  NODE_EXTRA_CA_CERTS: testCertificate().certFile,
};
const MAIL_OFF_LOG = "E-mail: off (no SMTP_URL): enquiries are stored and shown in /admin only";
/** React escapes the apostrophe in text content. */
const SUCCESS_HTML = SUCCESS_MESSAGE.replace("'", "&#x27;");
/** How long to keep listening for a second copy that must not come. */
const NO_DUPLICATE_WAIT_MS = 4_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

/** The outbox job of an enquiry's notification, as the database holds it. */
async function notificationJobId(database: Database, submissionId: string): Promise<string> {
  const row = await database.db
    .selectFrom("email_outbox")
    .select("id")
    .where("submission_id", "=", submissionId)
    .where("kind", "=", "notification")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Every message the SMTP server received with this Message-ID. */
async function messagesWithId(smtp: TestSmtpServer, messageId: string): Promise<ParsedMessage[]> {
  const parsed = await Promise.all(smtp.messages.map(parseMessage));
  return parsed.filter((message) => message.messageId === messageId);
}

/** Waits for the enquiry's notification to arrive, then makes sure no second copy follows. */
async function theOneNotification(smtp: TestSmtpServer, database: Database, submissionId: string, timeoutMs = 15_000) {
  const messageId = `<${await notificationJobId(database, submissionId)}@mail.example.com>`;
  await waitFor(`the notification ${messageId}`, async () => (await messagesWithId(smtp, messageId)).length > 0, timeoutMs);
  return { messageId, message: (await messagesWithId(smtp, messageId))[0]! };
}

/** The header block as it arrived, before any decoding. */
function rawHeaders(message: { raw: Buffer }): string {
  const text = message.raw.toString("latin1");
  return text.slice(0, text.indexOf("\r\n\r\n"));
}

/**
 * POST / as a browser without JavaScript: loads the page first (the form may
 * carry a signed time-trap token), waits as long as a person would take at
 * least, then sends the fields form-encoded.
 */
async function postFormLikeAPerson(url: string, fields: Record<string, string>): Promise<Response> {
  const page = await fetch(`${url}/`);
  const html = await page.text();
  const input = html.match(/<input\b[^>]*\bname="formToken"[^>]*>/)?.[0];
  const token = input?.match(/\bvalue="([^"]*)"/)?.[1];
  const cookie = page.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  // The time trap wants 3 s, counted from a render time rounded up to the next whole second.
  await sleep(4_100);
  return fetch(`${url}/?index`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(cookie ? { cookie } : {}) },
    body: new URLSearchParams({ ...fields, ...(token !== undefined ? { formToken: token.replace(/&amp;/g, "&") } : {}) }).toString(),
  });
}

beforeAll(() => assertBuilt());

describe.each(backends)("notification e-mail over HTTP on $name", (backend) => {
  describe("with the SMTP server up", () => {
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      smtp = await startSmtpServer(undefined, { tls: true });
    });
    afterAll(() => smtp?.stop());
    const site = useSite(backend, { signedIn: false, env: async () => ({ ...MAIL_ENV, SMTP_URL: smtp.url }) });

    it("says once at start-up where e-mail goes", () => {
      const line = `E-mail: SMTP smtp://127.0.0.1:${smtp.port} (STARTTLS required), notifying office@example.com, lettings@example.com`;
      expect(occurrences(site.server.stdout(), line)).toBe(1);
      expect(occurrences(site.server.stdout(), "E-mail:")).toBe(1);
      expect(site.server.stdout()).not.toContain("acknowledging");
    });

    it("sends one notification for an API enquiry, with the right headers and every field escaped", async () => {
      const enquiry = {
        name: `Zoë <script>alert("x")</script> & 'Co'`,
        email: "zoe@example.org",
        phone: "020 7946 0123",
        userType: "investor",
        message: `Portfolio of <b>six</b> flats & "two" houses.\nSecond line: it's urgent.`,
      };
      const response = await postJson(site.server.url, enquiry);
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };

      const { messageId, message } = await theOneNotification(smtp, site.reader, id);
      expect(message.messageId).toBe(messageId);
      expect(message.from).toEqual({ name: "Example Property", address: "enquiries@mail.example.com" });
      expect(addressesOf(message.to)).toEqual(NOTIFY_TO);
      expect(addressesOf(message.replyTo)).toEqual(["zoe@example.org"]);
      expect(message.subject).toBe(`New enquiry from ${enquiry.name} (Property Investor)`);
      expect(message.envelopeFrom).toBe("enquiries@mail.example.com");
      expect(message.secure, "sent over STARTTLS").toBe(true);
      expect([...message.envelopeTo].sort()).toEqual([...NOTIFY_TO].sort());

      const text = message.text ?? "";
      expect(text).toContain(`Name: ${enquiry.name}`);
      expect(text).toContain("Email: zoe@example.org");
      expect(text).toContain("Phone: 020 7946 0123");
      expect(text).toContain("I am a: Property Investor");
      expect(text).toMatch(/Received: \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}/);
      expect(text).toContain(enquiry.message);

      const html = message.html ?? "";
      expect(html).not.toContain("<script>");
      expect(html).not.toContain("<b>six</b>");
      expect(html).toContain("Zoë &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Co&#39;");
      expect(html).toContain("Portfolio of &lt;b&gt;six&lt;/b&gt; flats &amp; &quot;two&quot; houses.\nSecond line: it&#39;s urgent.");
      for (const value of ["zoe@example.org", "020 7946 0123", "Property Investor"]) expect(html).toContain(value);

      await sleep(NO_DUPLICATE_WAIT_MS);
      expect(await messagesWithId(smtp, messageId)).toHaveLength(1);
      expect((await notificationStates(site.db, [id]))[id]).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    });

    it("sends one notification for an enquiry through the HTML form", async () => {
      const fields = { ...validEnquiry, name: "Form Sender", phone: "", message: "Sent without JavaScript." };
      const response = await postFormLikeAPerson(site.server.url, fields);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(SUCCESS_HTML);
      const [stored] = await findEnquiry(site.reader, { message: fields.message });
      expect(stored).toMatchObject({ spam_reason: null });

      const { message } = await theOneNotification(smtp, site.reader, stored!.id);
      expect(message.subject).toBe("New enquiry from Form Sender (Landlord)");
      expect(addressesOf(message.replyTo)).toEqual([validEnquiry.email]);
      expect(message.text).toContain("Phone: not given");
      expect([...message.envelopeTo].sort()).toEqual([...NOTIFY_TO].sort());
    });

    it("e-mails about an enquiry sent within 3 seconds, saying possible spam in the subject, and keeps it in the inbox", async () => {
      // As a person with autofill who pastes the message: the form goes back at once.
      const page = await (await fetch(`${site.server.url}/`)).text();
      const formToken = /<input\b[^>]*\bname="formToken"[^>]*\bvalue="([^"]*)"/.exec(page)?.[1] ?? "";
      const fields = { ...validEnquiry, name: "Quick Typist", message: "Autofilled and pasted: two flats in Hove." };
      const response = await fetch(`${site.server.url}/?index`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ ...fields, formToken }).toString(),
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain(SUCCESS_HTML);
      const [stored] = await findEnquiry(site.reader, { message: fields.message });
      expect(stored).toMatchObject({ spam_reason: null, spam_signals: "too-fast" });

      const { message } = await theOneNotification(smtp, site.reader, stored!.id);
      expect(message.subject).toBe("[Possible spam] New enquiry from Quick Typist (Landlord)");
      expect(message.text).toContain("it may well be real");
    });

    it("lets no field add a header or a recipient", async () => {
      const injection = "\r\nBcc: evil@attacker.example\r\nX-Injected: yes";
      const attempts: Record<string, unknown>[] = [
        { ...validEnquiry, name: `Mallory${injection}` },
        { ...validEnquiry, phone: `0207${injection}` },
        { ...validEnquiry, email: `mallory@example.org${injection}` },
        { ...validEnquiry, email: "mallory@example.org,evil@attacker.example" },
        { ...validEnquiry, userType: `landlord${injection}` },
        { ...validEnquiry, message: `Hello${injection}\r\n\r\nBody after a blank line` },
        // Line breaks that are not CR/LF, and an encoded word that decodes to one.
        { ...validEnquiry, name: "Mallory\u2028Bcc: evil@attacker.example" },
        { ...validEnquiry, name: "Mallory\u0085Bcc: evil@attacker.example" },
        { ...validEnquiry, name: "Mallory =?UTF-8?Q?=0D=0ABcc:_evil@attacker.example?=" },
      ];
      const accepted: string[] = [];
      for (const body of attempts) {
        const response = await postJson(site.server.url, body);
        expect([201, 400]).toContain(response.status);
        if (response.status === 201) accepted.push(((await response.json()) as { id: string }).id);
      }
      // The message field takes line breaks, so at least that one is stored and sent.
      expect(accepted.length).toBeGreaterThanOrEqual(1);

      for (const id of accepted) {
        const { message } = await theOneNotification(smtp, site.reader, id);
        const raw = smtp.messages.find((received) => received.raw.toString("latin1").includes(message.messageId!))!;
        expect([...message.envelopeTo].sort()).toEqual([...NOTIFY_TO].sort());
        expect(message.header("bcc")).toEqual([]);
        expect(message.header("x-injected")).toEqual([]);
        expect(addressesOf(message.to)).toEqual(NOTIFY_TO);
        expect(addressesOf(message.replyTo)).toEqual([validEnquiry.email]);
        expect(message.cc ?? []).toEqual([]);
        expect(rawHeaders(raw)).not.toMatch(/^(bcc|x-injected):/im);
      }
      expect(smtp.messages.some((received) => received.envelopeTo.includes("evil@attacker.example"))).toBe(false);
    });

    it("answers 503 and stores nothing when the e-mail job cannot be written", async () => {
      const before = await countEnquiries(site.reader);
      await sql`alter table email_outbox rename to email_outbox_away`.execute(site.db);
      try {
        const response = await postJson(site.server.url, { ...validEnquiry, message: "Arrives while the outbox is broken." });
        expect(response.status).toBe(503);
        expect(await response.json()).toMatchObject({ error: FAILURE_MESSAGE });
      } finally {
        await sql`alter table email_outbox_away rename to email_outbox`.execute(site.db);
      }
      expect(await countEnquiries(site.reader)).toBe(before);
      expect(await findEnquiry(site.reader, { message: "Arrives while the outbox is broken." })).toEqual([]);
    });
  });

  describe("while the SMTP server is down", () => {
    let smtp: TestSmtpServer;
    let server: SpawnedServer | undefined;

    const data = useDatabase(backend);

    beforeAll(async () => {
      // Its port is chosen, but nothing listens there yet.
      smtp = await createSmtpServer(undefined, { tls: true });
    });
    afterAll(async () => {
      await server?.stop();
      await smtp?.stop();
    });

    it("stores and acknowledges the enquiry, shows the failure, and sends it exactly once after SMTP returns and the site restarts", async () => {
      const env = { ...data.database.env, ...MAIL_ENV, SMTP_URL: smtp.url };
      server = await startServer(env);
      const response = await postJson(server.url, { ...validEnquiry, message: "Sent while SMTP was down." });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      expect(await findEnquiry(data.reader, { id })).toHaveLength(1);

      await waitFor("the first attempt to fail", async () => (await notificationStates(data.db, [id]))[id]?.status === "failed");
      const failed = (await notificationStates(data.db, [id]))[id]!;
      expect(failed.attempts).toBeGreaterThanOrEqual(1);
      expect(failed.lastError).toMatch(/ECONNREFUSED|ECONNECTION/);
      expect(failed.lastError).not.toContain("smtp://");
      expect(failed.nextAttemptAt).not.toBeNull();
      expect(await mailHealth(data.db, true)).toMatchObject({ enabled: true, failing: 1 });
      expect(server.stdout() + server.stderr()).not.toContain(validEnquiry.email);

      // Restart the site on the same data while SMTP comes back.
      await server.stop();
      await smtp.start();
      server = await startServer(env);

      const { messageId } = await theOneNotification(smtp, data.reader, id, 40_000);
      await sleep(NO_DUPLICATE_WAIT_MS);
      expect(await messagesWithId(smtp, messageId)).toHaveLength(1);
      expect(smtp.messages).toHaveLength(1);
      expect((await notificationStates(data.db, [id]))[id]).toMatchObject({ status: "sent", lastError: null, nextAttemptAt: null });
      expect(await mailHealth(data.db, true)).toEqual({ enabled: true, failing: 0, lastError: null, failingReplies: 0, replyLastError: null });
    }, 120_000);
  });

  describe("a mail server that offers no STARTTLS", () => {
    let smtp: TestSmtpServer;
    let server: SpawnedServer | undefined;

    const data = useDatabase(backend);

    beforeAll(async () => {
      smtp = await startSmtpServer();
    });
    afterAll(async () => {
      await server?.stop();
      await smtp?.stop();
    });

    it("is never sent the password or an enquiry in the clear: the e-mail fails, says why, and waits for a retry", async () => {
      server = await startServer({ ...data.database.env, ...MAIL_ENV, SMTP_URL: smtp.url.replace("smtp://", "smtp://user:secret@") });
      const response = await postJson(server.url, { ...validEnquiry, message: "Over a path that strips STARTTLS." });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };
      await waitFor("the attempt to fail", async () => (await notificationStates(data.db, [id]))[id]?.status === "failed");
      expect((await notificationStates(data.db, [id]))[id]!.lastError).toMatch(/STARTTLS/i);
      expect(smtp.messages).toHaveLength(0);
      await server.stop();
      server = undefined;
    });

    it("delivers in plain text only with SMTP_INSECURE=true, and warns at start-up", async () => {
      server = await startServer({ ...data.database.env, ...MAIL_ENV, SMTP_URL: smtp.url, SMTP_INSECURE: "true" });
      expect(server.stdout()).toContain(`E-mail: SMTP smtp://127.0.0.1:${smtp.port} (STARTTLS not required (SMTP_INSECURE))`);
      expect(server.stdout()).toContain("WARNING: SMTP_INSECURE=true");
      const response = await postJson(server.url, { ...validEnquiry, message: "Over a trusted relay." });
      const { id } = (await response.json()) as { id: string };
      const { message } = await theOneNotification(smtp, data.reader, id, 40_000);
      expect(message.secure).toBe(false);
    });
  });

  describe("without SMTP_URL", () => {
    const site = useSite(backend, { signedIn: false, env: { CONTACT_RATE_LIMIT: "1000" } });

    it("says once that e-mail is off, stores enquiries and queues nothing", async () => {
      expect(occurrences(site.server.stdout(), MAIL_OFF_LOG)).toBe(1);
      expect(occurrences(site.server.stdout(), "E-mail:")).toBe(1);
      const response = await postJson(site.server.url, validEnquiry);
      expect(response.status).toBe(201);
      expect(await countEnquiries(site.reader)).toBe(1);
      const { count } = await site.db
        .selectFrom("email_outbox")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .executeTakeFirstOrThrow();
      expect(Number(count)).toBe(0);
    });
  });

  describe("with the acknowledgement turned on by an owner (decision 059)", () => {
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      smtp = await startSmtpServer(undefined, { tls: true });
    });
    afterAll(() => smtp?.stop());
    const site = useSite(backend, {
      signedIn: false,
      seed: (db) => acknowledgementOn(db),
      env: async () => ({ ...MAIL_ENV, SMTP_URL: smtp.url, COMPANY_NAME: "Acme Lettings Ltd", COMPANY_PHONE: "020 7946 0999" }),
    });

    it("also sends the visitor a receipt that does not repeat their message", async () => {
      expect(site.server.stdout()).toContain(
        `E-mail: SMTP smtp://127.0.0.1:${smtp.port} (STARTTLS required), notifying office@example.com, lettings@example.com`,
      );
      const message = "Please call me about a great deal on number 12 Quince Row.";
      const response = await postJson(site.server.url, { ...validEnquiry, email: "visitor@example.net", message });
      expect(response.status).toBe(201);
      const { id } = (await response.json()) as { id: string };

      await waitFor("both e-mails", () => smtp.messages.length === 2, 15_000);
      const parsed = await Promise.all(smtp.messages.map(parseMessage));
      const receipt = parsed.find((received) => received.envelopeTo.includes("visitor@example.net"))!;
      const notification = parsed.find((received) => received !== receipt)!;

      expect(receipt.envelopeTo).toEqual(["visitor@example.net"]);
      expect(addressesOf(receipt.to)).toEqual(["visitor@example.net"]);
      expect(addressesOf(receipt.replyTo)).toEqual(["office@example.com"]);
      expect(receipt.subject).toBe("We received your message – Acme Lettings Ltd");
      expect(receipt.text).toContain(`Hello ${validEnquiry.name.split(" ")[0]},`);
      expect(receipt.text).toContain("will get back to you within 24 hours.");
      expect(receipt.text).toContain("020 7946 0999");
      for (const body of [receipt.text ?? "", receipt.html ?? ""]) {
        expect(body).not.toContain("Quince Row");
        expect(body).not.toContain("great deal");
      }

      // The company's notification still goes to CONTACT_NOTIFY_TO alone.
      expect([...notification.envelopeTo].sort()).toEqual([...NOTIFY_TO].sort());
      expect(notification.text).toContain(message);
      // The SMTP server has the message a moment before the worker records that it was accepted.
      await waitFor("the notification recorded as sent", async () => (await notificationStates(site.db, [id]))[id]?.status === "sent");
    });
  });
});
