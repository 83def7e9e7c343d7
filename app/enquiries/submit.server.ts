import type { Company } from "~/company/company";
import type { Clock } from "~/platform/clock.server";
import { DATABASE_BUSY_RETRY_AFTER_SECONDS } from "~/platform/database-busy.server";
import type { NotificationAddresses } from "~/platform/context";
import { isDatabaseUnavailable, type Db } from "~/platform/db.server";
import type { Log } from "~/platform/log.server";
import type { Transactions } from "~/platform/group-commit.server";
import type { Metrics } from "~/platform/metrics.server";
import { countEvents, ipLimitSubject, latestEvent, recordEvent, takeSlots } from "~/platform/rate-limit.server";
import { saveEnquiry, type StoredEnquiry } from "./enquiries.server";
import type { FormTokens } from "./form-token.server";
import type { OutboxSignal } from "./outbox.server";
import { FAILURE_MESSAGE, busyMessage, rateLimitedMessage, validateEnquiry, type Enquiry, type EnquiryField } from "./schema";
import { HONEYPOT_FIELD, joinSignals, type SpamSignal } from "./spam";
import { contentSignals, honeypotFilled, spamVerdict, type SpamVerdict } from "./spam.server";

/** What storing an enquiry needs of the app's services. */
export type EnquiryServices = {
  db: Db;
  /** Commits shared by the enquiries that arrive together (group-commit.server.ts). */
  transactions: Transactions;
  clock: Clock;
  formTokens: FormTokens;
  outbox: OutboxSignal;
  company: Company;
  mail: NotificationAddresses | undefined;
  contact: { rateLimit: number; siteLimit: number };
  log: Log;
  metrics: Pick<Metrics, "enquiry">;
};

/** CONTACT_RATE_LIMIT and CONTACT_SITE_LIMIT count submissions in this window. */
export const CONTACT_WINDOW_MS = 60 * 60 * 1000;
/** From this many enquiries within the hour, a connection counts as a repeat sender (a signal that only adds weight). */
export const REPEAT_SENDER_COUNT = 3;

export type SubmitResult =
  | { ok: true; enquiry: StoredEnquiry; verdict: SpamVerdict }
  | { ok: false; status: 400; error: string; fields: EnquiryField[] }
  | { ok: false; status: 429 | 503; error: string; fields: EnquiryField[]; retryAfterSeconds: number };

export type Submission = {
  /** The enquiry's fields, plus the honeypot (`website`) and the time-trap token (`formToken`) when sent. */
  input: Record<string, unknown>;
  clientIp: string;
  /**
   * The HTML form always carries a token, so one missing there is a signal;
   * API clients never saw a page and may leave it out, but one they send is checked.
   */
  tokenRequired: boolean;
  now?: Date;
};

/**
 * Validates and stores an enquiry: the one path shared by the form and the
 * API. What the spam rules notice decides where it goes (spam.server.ts):
 * the inbox, the inbox marked as possible spam, or Spam. Whichever, it is
 * answered exactly like an accepted enquiry, so a sender cannot tell which
 * rule caught them.
 */
export async function submitEnquiry(services: EnquiryServices, submission: Submission): Promise<SubmitResult> {
  const { input, clientIp } = submission;
  const now = submission.now ?? services.clock.now();
  const validation = validateEnquiry(input);
  if (!validation.success) {
    return { ok: false, status: 400, error: validation.error, fields: validation.fields };
  }
  try {
    // What the rules notice that needs no lock (the token's key may need the database) comes first;
    // then one transaction, its commit shared with the enquiries arriving meanwhile, holds the
    // places taken under the limits, the enquiry and its e-mails: all of them or none.
    const signals = await spamSignals(services, submission, validation.data, now);
    const outcome = await services.transactions.run(async (trx): Promise<Stored | Refused> => {
      // Stored submissions count, spam included; refused ones give their place back. The
      // connection's limit and the whole site's (a botnet sends from many addresses) are taken together.
      const slots = await takeSlots(
        trx,
        [
          { bucket: "contact-submission", subject: ipLimitSubject(clientIp), limit: services.contact.rateLimit },
          { bucket: "contact-site", subject: "site", limit: services.contact.siteLimit },
        ],
        { windowMs: CONTACT_WINDOW_MS, now },
      );
      if (!slots.ok) {
        // Kept for the dashboard's banner: a limit that turns people away must be seen.
        if (slots.refused !== 0) await recordEvent(trx, "contact-site-refused", "site", now);
        return { refused: slots.refused === 0 ? "ip" : "site", retryAfterSeconds: slots.retryAfterSeconds };
      }
      const verdict = spamVerdict(slots.used[0]! >= REPEAT_SENDER_COUNT ? [...signals, "repeat-sender"] : signals);
      const enquiry = await saveEnquiry(trx, validation.data, { verdict, mail: services.mail, company: services.company, now });
      return { enquiry, verdict };
    });
    if ("refused" in outcome && outcome.refused === "ip") {
      services.log.warn({ ip: clientIp }, `Enquiry refused: CONTACT_RATE_LIMIT (${services.contact.rateLimit} an hour) reached`);
      return { ok: false, status: 429, error: rateLimitedMessage(services.company.phone), fields: [], retryAfterSeconds: outcome.retryAfterSeconds };
    }
    if ("refused" in outcome) {
      services.log.warn({ ip: clientIp }, `Enquiry refused: CONTACT_SITE_LIMIT (${services.contact.siteLimit} an hour) reached`);
      return { ok: false, status: 429, error: busyMessage(services.company.phone), fields: [], retryAfterSeconds: outcome.retryAfterSeconds };
    }
    const { enquiry, verdict } = outcome;
    // Committed: the outbox may send its e-mails.
    if (enquiry.emailsQueued > 0) services.outbox.signal();
    if (verdict.kind !== "clean") {
      services.log.info(
        { ip: clientIp },
        `Enquiry ${verdict.kind === "spam" ? "filed under Spam" : "marked as possible spam"}: ${joinSignals(verdict.signals)}`,
      );
    }
    services.metrics.enquiry(verdict.kind === "spam" ? "spam" : "accepted");
    return { ok: true, enquiry: { id: enquiry.id, createdAt: enquiry.createdAt }, verdict };
  } catch (error) {
    // Not acknowledged, so nothing is lost: the visitor keeps the form and can retry.
    // A database that is merely busy or restarting is one line; anything else is a fault, in full.
    if (isDatabaseUnavailable(error)) services.log.warn(`Could not store an enquiry: database unavailable (${(error as Error).message})`);
    else services.log.error({ err: error }, "Could not store an enquiry");
    return { ok: false, status: 503, error: FAILURE_MESSAGE, fields: [], retryAfterSeconds: DATABASE_BUSY_RETRY_AFTER_SECONDS };
  }
}

type Stored = { enquiry: Awaited<ReturnType<typeof saveEnquiry>>; verdict: SpamVerdict };
type Refused = { refused: "ip" | "site"; retryAfterSeconds: number };

/** How far back the dashboard reports enquiries CONTACT_SITE_LIMIT turned away (events are kept this long). */
const SITE_REFUSALS_SHOWN_MS = 24 * 60 * 60 * 1000;

/** Enquiries the site-wide limit turned away in the last 24 hours, and when the last was; undefined when none. */
export async function siteLimitRefusals(db: Db, now: Date): Promise<{ count: number; last: Date } | undefined> {
  const count = await countEvents(db, "contact-site-refused", "site", SITE_REFUSALS_SHOWN_MS, now);
  const last = count > 0 ? await latestEvent(db, "contact-site-refused", "site") : undefined;
  return last ? { count, last } : undefined;
}

/** What the rules notice before the enquiry's transaction: the honeypot, the time trap, the content (how much this connection has sent is counted in it). */
async function spamSignals(services: EnquiryServices, { input, tokenRequired }: Submission, enquiry: Enquiry, now: Date): Promise<SpamSignal[]> {
  const signals: SpamSignal[] = [];
  if (honeypotFilled(input[HONEYPOT_FIELD])) signals.push("honeypot");
  const token = input.formToken;
  if (tokenRequired || (token !== undefined && token !== null && token !== "")) {
    const check = await services.formTokens.verify(token, now, services.clock.uncertaintyMs);
    if (check !== "ok") signals.push(check);
  }
  signals.push(...contentSignals(enquiry));
  return signals;
}
