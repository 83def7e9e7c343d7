import type { Company } from "~/company/company";
import type { Clock } from "~/platform/fleet/clock.server";
import { DATABASE_BUSY_RETRY_AFTER_SECONDS } from "~/platform/db/database-busy.server";
import type { NotificationAddresses } from "~/platform/http/context";
import { databaseFailureText } from "~/platform/db/database-health.server";
import { isDatabaseUnavailable, type Db } from "~/platform/db/db.server";
import type { Log } from "~/platform/observe/log.server";
import type { Transactions } from "~/platform/db/group-commit.server";
import type { Metrics } from "~/platform/observe/metrics.server";
import { ipLimitSubject, takeSlotsIn, type RefusalMemory } from "~/platform/limits/rate-limit.server";
import type { Tally } from "~/platform/limits/tally.server";
import { insertEnquiry, type InsertedEnquiry, type StoredEnquiry } from "./enquiries.server";
import { HELD_VIEW_PATH } from "./inbox";
import type { EnquiryKind } from "~/platform/db/schema";
import type { FormTokens } from "./form-token.server";
import type { OutboxSignal } from "./outbox.server";
import { FAILURE_MESSAGE, busyMessage, rateLimitedMessage, validateEnquiry, type Enquiry, type EnquiryField } from "./schema";
import { HONEYPOT_FIELD, joinSignals, type SpamSignal } from "./spam";
import { validateValuation, type ValuationField } from "./valuation";
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
  contact: { rateLimit: number; siteLimit: number; hardLimit: number };
  /** Where refusals are counted for the dashboard, without a row each. */
  tally: Pick<Tally, "count">;
  /** Limits that refused lately: refused again from memory, with no query, until a place frees up. */
  refusals: RefusalMemory;
  /** PUBLIC_URL: the flood summary links to the held enquiries there. */
  publicUrl: string | undefined;
  log: Log;
  metrics: Pick<Metrics, "enquiry">;
};

/** CONTACT_RATE_LIMIT, CONTACT_SITE_LIMIT and CONTACT_HARD_LIMIT count submissions in this window. */
export const CONTACT_WINDOW_MS = 60 * 60 * 1000;
/** From this many enquiries within the hour, a connection counts as a repeat sender (a signal that only adds weight). */
export const REPEAT_SENDER_COUNT = 3;

export type SubmitResult =
  | { ok: true; enquiry: StoredEnquiry; verdict: SpamVerdict /** Over CONTACT_SITE_LIMIT: held apart, in a flood. */; held: boolean }
  | { ok: false; status: 400; error: string; fields: Array<EnquiryField | ValuationField> }
  | { ok: false; status: 429 | 503; error: string; fields: []; retryAfterSeconds: number };

export type Submission = {
  /** The enquiry's fields, plus the honeypot (`website`) and the time-trap token (`formToken`) when sent. */
  input: Record<string, unknown>;
  clientIp: string;
  /**
   * The HTML form always carries a token, so one missing there is a signal;
   * API clients never saw a page and may leave it out, but one they send is checked.
   */
  tokenRequired: boolean;
  /** The valuation page's form (valuation.ts) rather than the contact form's: the same path, its own fields. */
  kind?: EnquiryKind;
  now?: Date;
};

/** Which limit turned an enquiry away: one connection's (CONTACT_RATE_LIMIT) or everyone's (CONTACT_HARD_LIMIT). */
type Refusal = { limit: "address" | "ceiling"; retryAfterSeconds: number };

/**
 * Validates and stores an enquiry: the one path shared by the form and the
 * API. What the spam rules notice decides where it goes (spam.server.ts):
 * the inbox, the inbox marked as possible spam, or Spam. Whichever, it is
 * answered exactly like an accepted enquiry, so a sender cannot tell which
 * rule caught them.
 *
 * The limits (decision 037): a connection over CONTACT_RATE_LIMIT is refused;
 * over CONTACT_SITE_LIMIT from everyone together (a flood) an enquiry is
 * still stored, but held apart and told of in a summary e-mail; only over
 * CONTACT_HARD_LIMIT is everyone refused. The places, the enquiry and its
 * e-mails are one transaction; a refusal writes nothing, and while it lasts
 * is answered from memory.
 */
export async function submitEnquiry(services: EnquiryServices, submission: Submission): Promise<SubmitResult> {
  const { input, clientIp } = submission;
  const now = submission.now ?? services.clock.now();
  const validation = submission.kind === "valuation" ? validateValuation(input) : validateEnquiry(input);
  if (!validation.success) {
    return { ok: false, status: 400, error: validation.error, fields: validation.fields };
  }
  const address = ipLimitSubject(clientIp);
  const remembered = rememberedRefusal(services.refusals, address, now);
  if (remembered) return refuse(services, remembered, clientIp, now);
  try {
    const signals = await signalsBeforeLimits(services, submission, validation.data, now);
    // One transaction, its commit shared with the enquiries arriving meanwhile (group-commit.server.ts).
    const stored = await services.transactions.run((trx) => storeWithinLimits(trx, services, validation.data, signals, address, now));
    if ("refused" in stored) {
      services.refusals.remember(refusalKey(stored.refused, address), stored.freesAt);
      return refuse(services, stored.refused, clientIp, now);
    }
    if (stored.emails > 0) services.outbox.signal();
    const { verdict, held } = stored;
    if (verdict.kind !== "clean") {
      services.log.info(
        { ip: clientIp },
        `Enquiry ${verdict.kind === "spam" ? "filed under Spam" : "marked as possible spam"}: ${joinSignals(verdict.signals)}`,
      );
    }
    if (held?.inWindow === 1) {
      services.log.warn(
        `A flood: more than CONTACT_SITE_LIMIT (${services.contact.siteLimit}) enquiries within the hour; the rest are held apart, with one summary e-mail per 15 minutes`,
      );
    }
    services.metrics.enquiry(verdict.kind === "spam" ? "spam" : held ? "held" : "accepted");
    return { ok: true, enquiry: { id: stored.id, createdAt: stored.createdAt }, verdict, held: held !== undefined };
  } catch (error) {
    // Not acknowledged, so nothing is lost: the visitor keeps the form and can retry.
    // A database that is merely busy or restarting is one line; anything else is a fault, in full.
    if (isDatabaseUnavailable(error)) services.log.warn(`Could not store an enquiry: ${databaseFailureText(error)}`);
    else services.log.error({ err: error }, "Could not store an enquiry");
    return { ok: false, status: 503, error: FAILURE_MESSAGE, fields: [], retryAfterSeconds: DATABASE_BUSY_RETRY_AFTER_SECONDS };
  }
}

/**
 * In one transaction: a place under the connection's limit and one under the
 * hard ceiling (stored submissions count, spam included), then the enquiry
 * with its e-mails, or held with the flood's summary when the places taken
 * this hour are over CONTACT_SITE_LIMIT. The subjects stay locked until the
 * commit (rate-limit.server.ts), so the count that decides is the one stored.
 */
async function storeWithinLimits(
  trx: Db,
  services: EnquiryServices,
  enquiry: Enquiry,
  signals: SpamSignal[],
  address: string,
  now: Date,
): Promise<{ refused: Refusal; freesAt: Date } | (InsertedEnquiry & { verdict: SpamVerdict })> {
  const { rateLimit, siteLimit, hardLimit } = services.contact;
  const slots = await takeSlotsIn(
    trx,
    [
      { bucket: "contact-submission", subject: address, limit: rateLimit },
      { bucket: "contact-site", subject: "site", limit: hardLimit },
    ],
    { windowMs: CONTACT_WINDOW_MS, now },
  );
  if (!slots.ok) {
    const refused: Refusal = { limit: slots.refused === 0 ? "address" : "ceiling", retryAfterSeconds: slots.retryAfterSeconds };
    return { refused, freesAt: slots.freesAt };
  }
  const [sentThisHour = 0, sentToSiteThisHour = 0] = slots.used;
  const verdict = spamVerdict(sentThisHour >= REPEAT_SENDER_COUNT ? [...signals, "repeat-sender"] : signals);
  const flood = sentToSiteThisHour > siteLimit ? { siteLimit, reviewUrl: services.publicUrl && `${services.publicUrl}${HELD_VIEW_PATH}` } : undefined;
  const inserted = await insertEnquiry(trx, enquiry, { verdict, mail: services.mail, company: services.company, now, flood });
  return { ...inserted, verdict };
}

const refusalKey = (refusal: Refusal, address: string) => (refusal.limit === "address" ? `contact-submission ${address}` : "contact-site");

/** A refusal still standing from a moment ago, for this connection or for everyone. */
function rememberedRefusal(refusals: RefusalMemory, address: string, now: Date): Refusal | undefined {
  for (const limit of ["address", "ceiling"] as const) {
    const retryAfterSeconds = refusals.refusedFor(refusalKey({ limit, retryAfterSeconds: 0 }, address), now);
    if (retryAfterSeconds !== undefined) return { limit, retryAfterSeconds };
  }
  return undefined;
}

/** 429, counted for the dashboard in memory (written as one aggregate every few seconds), and one log line. */
function refuse(services: EnquiryServices, { limit, retryAfterSeconds }: Refusal, clientIp: string, now: Date): SubmitResult {
  const { phone } = services.company;
  if (limit === "address") {
    services.tally.count("contact-refused-address", now);
    services.log.warn({ ip: clientIp }, `Enquiry refused: CONTACT_RATE_LIMIT (${services.contact.rateLimit} an hour) reached`);
    return { ok: false, status: 429, error: rateLimitedMessage(phone), fields: [], retryAfterSeconds };
  }
  services.tally.count("contact-refused-ceiling", now);
  services.log.warn({ ip: clientIp }, `Enquiry refused: CONTACT_HARD_LIMIT (${services.contact.hardLimit} an hour) reached`);
  return { ok: false, status: 429, error: busyMessage(phone), fields: [], retryAfterSeconds };
}

/** What the rules notice before the limits are taken: the honeypot, the time trap, the content (how much the connection has sent is added with its place). */
async function signalsBeforeLimits(services: EnquiryServices, { input, tokenRequired }: Submission, enquiry: Enquiry, now: Date): Promise<SpamSignal[]> {
  const signals: SpamSignal[] = [];
  if (honeypotFilled(input[HONEYPOT_FIELD])) signals.push("honeypot");
  const token = input.formToken;
  if (tokenRequired || (token !== undefined && token !== null && token !== "")) {
    const check = await services.formTokens.verify(token, now, services.clock.uncertaintyMs);
    if (check !== "ok") signals.push(check);
  }
  // A valuation request's address is free text too: read with the message.
  const message = enquiry.valuation ? `${enquiry.valuation.address}\n${enquiry.message}` : enquiry.message;
  signals.push(...contentSignals({ name: enquiry.name, message }));
  return signals;
}
