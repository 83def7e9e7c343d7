import type { AppServices } from "~/platform/context";
import type { Db } from "~/platform/db.server";
import { ipLimitSubject, pruneEvents, takeSlot } from "~/platform/rate-limit.server";
import { saveEnquiry, type StoredEnquiry } from "./enquiries.server";
import { verifyFormToken } from "./form-token.server";
import { FAILURE_MESSAGE, rateLimitedMessage, validateEnquiry, type Enquiry, type EnquiryField } from "./schema";
import { HONEYPOT_FIELD, type SpamReason } from "./spam";
import { contentSpamReason, honeypotFilled } from "./spam.server";

/** CONTACT_RATE_LIMIT counts submissions per client IP in this window. */
export const CONTACT_WINDOW_MS = 60 * 60 * 1000;

export type SubmitResult =
  | { ok: true; enquiry: StoredEnquiry }
  | { ok: false; status: 400 | 503; error: string; fields: EnquiryField[] }
  | { ok: false; status: 429; error: string; fields: EnquiryField[]; retryAfterSeconds: number };

export type Submission = {
  /** The enquiry's fields, plus the honeypot (`website`) and the time-trap token (`formToken`) when sent. */
  input: Record<string, unknown>;
  clientIp: string;
  /**
   * The HTML form always carries a token, so one missing there is spam; API
   * clients never saw a page and may leave it out, but one they send is checked.
   */
  tokenRequired: boolean;
  now?: Date;
};

/**
 * Validates and stores an enquiry: the one path shared by the form and the
 * API. Spam is stored too, with its reason, and answered exactly like an
 * accepted enquiry, so a sender cannot tell which rule caught them.
 */
export async function submitEnquiry(services: AppServices, submission: Submission): Promise<SubmitResult> {
  const { input, clientIp } = submission;
  const now = submission.now ?? new Date();
  const validation = validateEnquiry(input);
  if (!validation.success) {
    return { ok: false, status: 400, error: validation.error, fields: validation.fields };
  }
  try {
    // Stored submissions count, spam included; refused ones give their place back.
    const slot = await takeSlot(services.db, "contact-submission", ipLimitSubject(clientIp), {
      limit: services.contact.rateLimit,
      windowMs: CONTACT_WINDOW_MS,
      now,
    });
    if (!slot.ok) {
      console.warn(`Enquiry refused from ${clientIp}: CONTACT_RATE_LIMIT (${services.contact.rateLimit} an hour) reached`);
      return {
        ok: false,
        status: 429,
        error: rateLimitedMessage(services.company.phone),
        fields: [],
        retryAfterSeconds: slot.retryAfterSeconds,
      };
    }
    let enquiry: StoredEnquiry;
    try {
      const spamReason = await spamReasonOf(services, submission, validation.data, now);
      if (spamReason) console.log(`Enquiry from ${clientIp} caught as spam: ${spamReason}`);
      enquiry = await saveEnquiry(services.db, validation.data, { spamReason, mail: services.mail, company: services.company });
    } catch (error) {
      // The original error is the one worth reporting; a failed release only keeps the place taken.
      await slot.release().catch((releaseError: unknown) => console.error("Could not release a rate-limit place:", releaseError));
      throw error;
    }
    await pruneNowAndThen(services.db, now);
    return { ok: true, enquiry };
  } catch (error) {
    // Not acknowledged, so nothing is lost: the visitor keeps the form and can retry.
    console.error("Could not store an enquiry:", error);
    return { ok: false, status: 503, error: FAILURE_MESSAGE, fields: [] };
  }
}

/** Old limit events go now and then, not at every submission: each delete is one more write (an fsync on SQLite). */
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const nextPruneAt = new WeakMap<Db, number>();

async function pruneNowAndThen(db: Db, now: Date): Promise<void> {
  if ((nextPruneAt.get(db) ?? 0) > now.getTime()) return;
  nextPruneAt.set(db, now.getTime() + PRUNE_EVERY_MS);
  // The enquiry is stored: a failure here must not turn its answer into an error.
  await pruneEvents(db, now).catch((error: unknown) => console.error("Could not prune rate-limit events:", error));
}

async function spamReasonOf(
  services: AppServices,
  { input, tokenRequired }: Submission,
  enquiry: Enquiry,
  now: Date,
): Promise<SpamReason | undefined> {
  if (honeypotFilled(input[HONEYPOT_FIELD])) return "honeypot";
  const token = input.formToken;
  if (tokenRequired || (token !== undefined && token !== null && token !== "")) {
    const check = await verifyFormToken(services.db, token, now);
    if (check !== "ok") return check;
  }
  return contentSpamReason(enquiry);
}
