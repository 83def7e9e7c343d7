/**
 * The acknowledgement e-mail to the visitor (issue 22, decision 059), on both
 * databases: off until an owner turns it on; never for spam, possible spam or
 * an enquiry held in a flood; never repeating the visitor's words; at most
 * one a day per address (folded), counted in the database so that enquiries
 * arriving together, on any instance, get one between them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { saveEnquiry, type SaveEnquiryOptions } from "~/enquiries/enquiries.server";
import type { Enquiry } from "~/enquiries/schema";
import type { OutgoingEmail } from "~/platform/mail/mailer.server";
import { backends } from "../support/backends";
import { acknowledgementOn } from "../support/enquiries";
import { useDatabase } from "../support/sites";

const MAIL: SaveEnquiryOptions = {
  mail: { from: "Example Lettings <office@mail.example.com>", notifyTo: ["office@example.com"] },
  company: PLACEHOLDER_COMPANY,
};

const NOW = new Date("2026-11-26T10:00:00.000Z");

const enquiryFrom = (email: string, name = "Ada Lovelace"): Enquiry => ({
  name,
  email,
  phone: undefined,
  userType: "landlord",
  message: "Buy cheap pills at https://spam.example now",
});

describe.each(backends)("the acknowledgement e-mail on $name", (backend) => {
  const data = useDatabase(backend);
  let off: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await off?.();
    off = undefined;
    await data.db.deleteFrom("rate_limit_events").execute();
  });

  async function kindsOf(id: string): Promise<string[]> {
    const jobs = await data.db.selectFrom("email_outbox").select("kind").where("submission_id", "=", id).orderBy("kind").execute();
    return jobs.map((job) => job.kind);
  }

  async function acknowledgementOf(id: string): Promise<OutgoingEmail> {
    const job = await data.db
      .selectFrom("email_outbox")
      .select("message")
      .where("submission_id", "=", id)
      .where("kind", "=", "acknowledgement")
      .executeTakeFirstOrThrow();
    return JSON.parse(job.message) as OutgoingEmail;
  }

  it("is off until an owner turns it on", async () => {
    const { id } = await saveEnquiry(data.db, enquiryFrom("off.by.default@example.com"), { ...MAIL, now: NOW });
    expect(await kindsOf(id)).toEqual(["notification"]);
  });

  it("once on, goes to a clean enquiry in the owner's words, never repeating the visitor's", async () => {
    off = await acknowledgementOn(data.db);
    const { id } = await saveEnquiry(data.db, enquiryFrom("clean@example.com"), { ...MAIL, now: NOW });
    expect(await kindsOf(id)).toEqual(["acknowledgement", "notification"]);
    const message = await acknowledgementOf(id);
    expect(message).toMatchObject({ to: ["clean@example.com"], replyTo: "office@example.com", from: "Example Lettings <office@mail.example.com>" });
    expect(message.text).toMatch(/^Hello Ada,/);
    expect(message.text).not.toContain("spam.example");

    const linked = await saveEnquiry(data.db, enquiryFrom("linked@example.com", "Visit www.spam.example today"), { ...MAIL, now: NOW });
    const linkedMessage = await acknowledgementOf(linked.id);
    expect(linkedMessage.text).toMatch(/^Hello there,/);
    expect(`${linkedMessage.text}${linkedMessage.html}${linkedMessage.subject}`).not.toContain("spam.example");
  });

  it("never goes to spam, possible spam or an enquiry held in a flood", async () => {
    off = await acknowledgementOn(data.db);
    const spam = await saveEnquiry(data.db, enquiryFrom("spam@example.com"), { ...MAIL, now: NOW, verdict: { kind: "spam", signals: ["links"] } });
    const possible = await saveEnquiry(data.db, enquiryFrom("possible@example.com"), {
      ...MAIL,
      now: NOW,
      verdict: { kind: "possible-spam", signals: ["links"] },
    });
    const held = await saveEnquiry(data.db, enquiryFrom("held@example.com"), { ...MAIL, now: NOW, flood: { siteLimit: 10, reviewUrl: undefined } });
    expect(await kindsOf(spam.id)).toEqual([]);
    expect(await kindsOf(possible.id)).toEqual(["notification"]);
    expect(await kindsOf(held.id)).toEqual([]);
  });

  it("goes at most once a day to an address, however it is written, and again the next day", async () => {
    off = await acknowledgementOn(data.db);
    const first = await saveEnquiry(data.db, enquiryFrom("repeat@example.com"), { ...MAIL, now: NOW });
    const again = await saveEnquiry(data.db, enquiryFrom("REPEAT@Example.com"), { ...MAIL, now: new Date(NOW.getTime() + 23 * 3_600_000) });
    const other = await saveEnquiry(data.db, enquiryFrom("someone.else@example.com"), { ...MAIL, now: NOW });
    const nextDay = await saveEnquiry(data.db, enquiryFrom("repeat@example.com"), { ...MAIL, now: new Date(NOW.getTime() + 25 * 3_600_000) });
    expect(await kindsOf(first.id)).toEqual(["acknowledgement", "notification"]);
    expect(await kindsOf(again.id)).toEqual(["notification"]);
    expect(await kindsOf(other.id)).toEqual(["acknowledgement", "notification"]);
    expect(await kindsOf(nextDay.id)).toEqual(["acknowledgement", "notification"]);
    // The limit keeps a hash of the address, never the address.
    const subjects = await data.db.selectFrom("rate_limit_events").select("subject").where("bucket", "=", "acknowledgement").execute();
    expect(subjects.map((row) => row.subject).join(" ")).not.toMatch(/@/);
  });

  it("sends one between enquiries from one address stored at the same moment", async () => {
    off = await acknowledgementOn(data.db);
    const stored = await Promise.all(Array.from({ length: 6 }, () => saveEnquiry(data.db, enquiryFrom("burst@example.com"), { ...MAIL, now: NOW })));
    const kinds = await Promise.all(stored.map(({ id }) => kindsOf(id)));
    expect(kinds.filter((list) => list.includes("acknowledgement"))).toHaveLength(1);
  });
});
