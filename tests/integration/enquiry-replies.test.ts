/**
 * Replies from the dashboard (issue 22, decision 059), on both databases:
 * over HTTP on the built server with a real SMTP server, a reply from a
 * template is stored and queued in one transaction, sent once across a
 * restart from MAIL_FROM with Reply-To the company's address, threaded under
 * the notification (In-Reply-To, References), and moves a New enquiry to
 * Contacted; an Enquiries member may reply, only an owner may change the
 * settings; the owner's reasons are the card's; without a mail server the
 * page offers the mailto link and says why; erasure takes the replies.
 */
import { describe, expect, it } from "vitest";
import { SETTINGS_TEXT } from "~/admin/EnquirySettingsPage";
import { REPLY_TEXT } from "~/admin/ReplyPage";
import { INBOX_TEXT } from "~/admin/texts";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { eraseDataHeld } from "~/enquiries/data-requests.server";
import { saveEnquiry, type SaveEnquiryOptions } from "~/enquiries/enquiries.server";
import { readEnquirySettings } from "~/enquiries/enquiry-settings.server";
import { REPLY_PROBLEMS, SETTINGS_PROBLEMS } from "~/enquiries/replies";
import { repliesOf, sendReply } from "~/enquiries/replies.server";
import type { Db } from "~/platform/db/db.server";
import { TEST_ACTOR } from "../support/actors";
import { memberActor } from "~/audit/actor";
import { TEST_ADMIN } from "../support/admin-http";
import { backends } from "../support/backends";
import { NO_MAIL } from "../support/enquiries";
import { htmlText, visibleText } from "../support/html";
import { rawRequest } from "../support/http";
import { addressesOf, parseMessage } from "../support/smtp";
import { useSite, useSiteWithMail, type Site } from "../support/sites";
import { MEMBER_PASSWORD, inviteThroughDomain, ownerId, postJoin, sessionOf } from "../support/team-http";
import { waitFor } from "../support/wait";

/** As the site with mail is set (useSiteWithMail). */
const MAIL: SaveEnquiryOptions = {
  mail: { from: "Example Lettings <office@mail.example.com>", notifyTo: ["office@example.com"] },
  company: PLACEHOLDER_COMPANY,
};

async function enquiry(db: Db, name: string, email: string, options: SaveEnquiryOptions = MAIL): Promise<string> {
  const { id } = await saveEnquiry(db, { name, email, phone: undefined, userType: "landlord", message: `A house to let, from ${name}.` }, options);
  return id;
}

/** The site's owner (ADMIN_EMAIL), who the replies made through the domain are by: a reply keeps its member. */
const owner = async (site: Site) => memberActor({ adminId: await ownerId(site), email: TEST_ADMIN.email, role: "owner" }, "127.0.0.1");

const replyPage = (site: Site, id: string, cookie = site.cookie, query = "") => site.get(`/admin/enquiries/reply?id=${id}${query}`, { cookie });

describe.each(backends)("replies from the dashboard on $name", (backend) => {
  describe("with a mail server", () => {
    const { site, smtp } = useSiteWithMail(backend);

    it("fills a template, queues the reply with its record, sends it threaded under the notification, and moves New to Contacted", async () => {
      await site.db.updateTable("admin_users").set({ name: "Sam Owner" }).where("email", "=", TEST_ADMIN.email).execute();
      const id = await enquiry(site.db, "Nora Newlead", "nora.newlead@example.com");
      await waitFor("the notification", () => smtp.messages.some((message) => message.envelopeTo.includes("office@example.com")));

      const page = await replyPage(site, id);
      expect(page.status).toBe(200);
      const shown = visibleText(page.text);
      expect(shown).toContain(REPLY_TEXT.title("Nora Newlead"));
      // The first template: the visitor's first name, the company's name and phone, the member's own name.
      expect(page.text).toContain(htmlText(`Hello Nora,`));
      expect(page.text).toContain(htmlText(`Sam Owner\n${PLACEHOLDER_COMPANY.name} · ${PLACEHOLDER_COMPANY.phone}`));
      expect(page.text).toContain(htmlText(`Re: Your enquiry to ${PLACEHOLDER_COMPANY.name}`));
      const valuation = await replyPage(site, id, site.cookie, "&template=valuation");
      expect(valuation.text).toContain(htmlText(`Re: A free rental valuation from ${PLACEHOLDER_COMPANY.name}`));

      const answer = await site.postForm(`/admin/enquiries/reply?id=${id}`, {
        id,
        subject: "Re: Your enquiry",
        body: "Hello Nora,\r\nI will call you at four.\r\nSam",
      });
      expect(answer.status).toBe(200);
      expect(visibleText(answer.text)).toContain(REPLY_TEXT.sent("nora.newlead@example.com"));

      const [reply] = await site.db.selectFrom("enquiry_replies").selectAll().where("submission_id", "=", id).execute();
      expect(reply).toMatchObject({ author_label: TEST_ADMIN.email, subject: "Re: Your enquiry", body: "Hello Nora,\nI will call you at four.\nSam" });
      const notification = await site.db
        .selectFrom("email_outbox")
        .select("id")
        .where("submission_id", "=", id)
        .where("kind", "=", "notification")
        .executeTakeFirstOrThrow();

      await waitFor("the reply", () => smtp.messages.some((message) => message.envelopeTo.includes("nora.newlead@example.com")));
      const message = await parseMessage(smtp.messages.find((received) => received.envelopeTo.includes("nora.newlead@example.com"))!);
      expect(message.subject).toBe("Re: Your enquiry");
      expect(message.from?.address).toBe("office@mail.example.com");
      expect(addressesOf(message.replyTo)).toEqual(["office@example.com"]);
      expect(message.inReplyTo).toBe(`<${notification.id}@mail.example.com>`);
      expect(message.header("references")).toEqual([`<${notification.id}@mail.example.com>`]);
      expect(message.messageId).toBe(`<${reply!.outbox_job_id}@mail.example.com>`);
      expect(message.text).toContain("I will call you at four.");

      const stored = await site.db.selectFrom("contact_submissions").select(["status", "status_changed_by"]).where("id", "=", id).executeTakeFirstOrThrow();
      expect(stored).toEqual({ status: "contacted", status_changed_by: TEST_ADMIN.email });
      const audited = await site.db.selectFrom("audit_log").select(["action", "details"]).where("target_id", "=", id).orderBy("id").execute();
      expect(audited.map((entry) => entry.action)).toEqual(["enquiry-replied", "enquiry-status-changed"]);

      // On the card, with its delivery state; and for the timeline, from the domain.
      await waitFor("the reply to show as sent", async () => (await repliesOf(site.db, [id])).get(id)?.[0]?.delivery === "sent");
      const card = visibleText((await site.get("/admin/enquiries", { cookie: site.cookie })).text);
      expect(card).toContain(INBOX_TEXT.replies(1));
      expect(card).toContain(`${TEST_ADMIN.email}, `);
      expect(card).toContain(REPLY_TEXT.delivery.sent);
      // The specification's mailto link stays beside it.
      expect(card).toContain(INBOX_TEXT.reply);
    });

    it("is sent once across a restart", async () => {
      const id = await enquiry(site.db, "Rita Restart", "rita.restart@example.com");
      const answer = await site.postForm(`/admin/enquiries/reply?id=${id}`, { id, subject: "Once only", body: "One e-mail, however often we restart." });
      expect(answer.status).toBe(200);
      await site.startAgain();
      await waitFor("the reply", () => smtp.messages.some((message) => message.envelopeTo.includes("rita.restart@example.com")));
      await site.startAgain();
      const job = await site.db
        .selectFrom("email_outbox")
        .select(["status", "attempts"])
        .where("submission_id", "=", id)
        .where("kind", "=", "reply")
        .executeTakeFirstOrThrow();
      expect({ status: job.status, attempts: Number(job.attempts) }).toEqual({ status: "sent", attempts: 1 });
      expect(smtp.messages.filter((message) => message.envelopeTo.includes("rita.restart@example.com"))).toHaveLength(1);
    });

    it("stores the reply and queues its e-mail in one transaction: rolled back, neither is kept", async () => {
      const id = await enquiry(site.db, "Tom Transaction", "tom.transaction@example.com");
      const actor = await owner(site);
      await expect(
        site.db.transaction().execute(async (trx) => {
          const sent = await sendReply(trx, id, { subject: "Never", body: "Never sent." }, { actor, mail: MAIL.mail! });
          expect(sent.ok).toBe(true);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await site.db.selectFrom("enquiry_replies").select("id").where("submission_id", "=", id).execute()).toEqual([]);
      expect(await site.db.selectFrom("email_outbox").select("id").where("submission_id", "=", id).where("kind", "=", "reply").execute()).toEqual([]);
      const { status } = await site.db.selectFrom("contact_submissions").select("status").where("id", "=", id).executeTakeFirstOrThrow();
      expect(status).toBe("new");
    });

    it("lets an Enquiries member reply; keeps a Contacted status; refuses bad input and spam, changing nothing", async () => {
      const token = await inviteThroughDomain(site, "erin.enquiries@example.com", "enquiries");
      const joined = await postJoin(site, token, { name: "Erin", password: MEMBER_PASSWORD });
      const member = { cookie: sessionOf(joined)! };
      const id = await enquiry(site.db, "Carl Contacted", "carl.contacted@example.com");
      await site.db.updateTable("contact_submissions").set({ status: "valuation-booked" }).where("id", "=", id).execute();
      expect((await replyPage(site, id, member.cookie)).status).toBe(200);
      const post = (fields: Record<string, string>, cookie = member.cookie) =>
        rawRequest(site.server.port, {
          method: "POST",
          path: `/admin/enquiries/reply?id=${id}`,
          headers: { cookie, origin: site.server.url, "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(fields).toString(),
        });
      const empty = await post({ id, subject: "Hello", body: "  \n " });
      expect(empty.status).toBe(400);
      expect(visibleText(empty.text)).toContain(REPLY_PROBLEMS.body);
      expect((await post({ id, subject: "", body: "Hello" })).status).toBe(400);
      expect((await post({ id: "not-an-id", subject: "Hello", body: "Hello" })).status).toBe(400);
      expect((await post({ id: "00000000-0000-4000-8000-000000000000", subject: "Hello", body: "Hello" })).status).toBe(404);
      expect(await site.db.selectFrom("enquiry_replies").select("id").where("submission_id", "=", id).execute()).toEqual([]);

      const ok = await post({ id, subject: "Your valuation", body: "See you on Friday." });
      expect(ok.status).toBe(200);
      const replies = await site.db.selectFrom("enquiry_replies").select(["author_label"]).where("submission_id", "=", id).execute();
      expect(replies).toEqual([{ author_label: "erin.enquiries@example.com" }]);
      // Only a New enquiry moves: a booked valuation stays booked; the reply is still the team's first response (decision 060).
      const after = await site.db.selectFrom("contact_submissions").select(["status", "first_response_at"]).where("id", "=", id).executeTakeFirstOrThrow();
      expect(after.status).toBe("valuation-booked");
      expect(after.first_response_at).not.toBeNull();

      const spam = await enquiry(site.db, "Sid Spam", "sid.spam@example.com", { ...MAIL, verdict: { kind: "spam", signals: ["links"] } });
      const refused = await site.postForm(`/admin/enquiries/reply?id=${spam}`, { id: spam, subject: "Hi", body: "Hi" });
      expect(refused.status).toBe(409);
      expect(await site.db.selectFrom("enquiry_replies").select("id").where("submission_id", "=", spam).execute()).toEqual([]);

      // The settings are an owner's alone.
      expect((await site.get("/admin/enquiries/settings", { cookie: member.cookie })).status).toBe(403);
      const before = await readEnquirySettings(site.db);
      const changed = await rawRequest(site.server.port, {
        method: "POST",
        path: "/admin/enquiries/settings",
        headers: { cookie: member.cookie, origin: site.server.url, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ reasons: "Only this", acknowledgementText: "Hi", acknowledgementOn: "on" }).toString(),
      });
      expect(changed.status).toBe(403);
      expect(await readEnquirySettings(site.db)).toEqual(before);
    });

    it("goes with the enquiry: erased with the address, and deleted with it", async () => {
      const erased = await enquiry(site.db, "Gina Gone", "gina.gone@example.com");
      await sendReply(site.db, erased, { subject: "Hello", body: "Hello Gina" }, { actor: await owner(site), mail: MAIL.mail! });
      await eraseDataHeld(site.db, "gina.gone@example.com", TEST_ACTOR);
      expect(await site.db.selectFrom("enquiry_replies").select("id").where("submission_id", "=", erased).execute()).toEqual([]);
      expect(await site.db.selectFrom("email_outbox").select("id").where("submission_id", "=", erased).execute()).toEqual([]);

      const deleted = await enquiry(site.db, "Dan Deleted", "dan.deleted@example.com");
      await sendReply(site.db, deleted, { subject: "Hello", body: "Hello Dan" }, { actor: await owner(site), mail: MAIL.mail! });
      expect((await site.postForm("/admin/enquiries", { intent: "delete", id: deleted, confirmed: "yes" })).status).toBe(200);
      expect(await site.db.selectFrom("enquiry_replies").select("id").where("submission_id", "=", deleted).execute()).toEqual([]);
    });
  });

  describe("without a mail server", () => {
    const site = useSite(backend);

    it("offers the mailto link and says why, on the card and the reply page; a reply posted anyway is refused", async () => {
      const id = await enquiry(site.db, "Molly Mailto", "molly.mailto@example.com", NO_MAIL);
      const card = visibleText((await site.get("/admin/enquiries", { cookie: site.cookie })).text);
      expect(card).toContain(INBOX_TEXT.replyNoMail);
      const page = await replyPage(site, id);
      expect(page.status).toBe(200);
      expect(visibleText(page.text)).toContain(REPLY_TEXT.noMail);
      expect(page.text).toContain('href="mailto:molly.mailto@example.com?subject=');
      const refused = await site.postForm(`/admin/enquiries/reply?id=${id}`, { id, subject: "Hi", body: "Hi" });
      expect(refused.status).toBe(409);
      expect(await site.db.selectFrom("enquiry_replies").select("id").execute()).toEqual([]);
    });

    it("keeps the owner's templates, reasons and acknowledgement; refuses what cannot be kept; the card offers the reasons", async () => {
      const settingsPage = await site.get("/admin/enquiries/settings", { cookie: site.cookie });
      expect(settingsPage.status).toBe(200);
      expect(visibleText(settingsPage.text)).toContain("{first name}");
      expect(settingsPage.text).toContain('value="Offer a valuation visit"');

      const before = await readEnquirySettings(site.db);
      const on = await site.postForm("/admin/enquiries/settings", { reasons: "Too far away", acknowledgementText: "", acknowledgementOn: "on" });
      expect(on.status).toBe(400);
      expect(visibleText(on.text)).toContain(htmlText(SETTINGS_PROBLEMS.acknowledgement));
      const half = await site.postForm("/admin/enquiries/settings", { "templateName-1": "Only a name", reasons: "Too far away" });
      expect(half.status).toBe(400);
      expect(visibleText(half.text)).toContain(htmlText(SETTINGS_PROBLEMS.template(1)));
      expect((await site.postForm("/admin/enquiries/settings", { reasons: " \n " })).status).toBe(400);
      expect(await readEnquirySettings(site.db)).toEqual(before);

      const saved = await site.postForm("/admin/enquiries/settings", {
        "templateName-1": "Short thanks",
        "templateSubject-1": "Thanks from {company}",
        "templateBody-1": "Hi {first name}, thanks. {my name}",
        reasons: "Too far away\r\nWants to sell instead\nToo far away",
        acknowledgementText: "Hello {first name}, thank you.",
        acknowledgementOn: "on",
      });
      expect(saved.status).toBe(200);
      expect(visibleText(saved.text)).toContain(SETTINGS_TEXT.saved);
      expect(await readEnquirySettings(site.db)).toEqual({
        templates: [{ id: "t1", name: "Short thanks", subject: "Thanks from {company}", body: "Hi {first name}, thanks. {my name}" }],
        reasons: ["Too far away", "Wants to sell instead"],
        acknowledgement: { on: true, text: "Hello {first name}, thank you." },
      });
      const audited = await site.db.selectFrom("audit_log").select("action").where("action", "=", "enquiry-settings-saved").execute();
      expect(audited).toHaveLength(1);

      // The card's Not proceeding offers the owner's reasons (without JavaScript, once asked for one); a typed reason still goes.
      const id = await enquiry(site.db, "Pat Proceeding", "pat.proceeding@example.com", NO_MAIL);
      const asked = await site.postForm("/admin/enquiries", { intent: "set-status", id, status: "not-proceeding" });
      expect(asked.status).toBe(400);
      expect(asked.text).toContain(">Wants to sell instead</option>");
      expect(asked.text).not.toContain(">Fees too high</option>");
      expect((await site.postForm("/admin/enquiries", { intent: "set-status", id, status: "not-proceeding", reason: "Fees too high" })).status).toBe(400);
      expect((await site.postForm("/admin/enquiries", { intent: "set-status", id, status: "not-proceeding", reason: "Wants to sell instead" })).status).toBe(
        200,
      );
      const typed = await site.postForm("/admin/enquiries", {
        intent: "set-status",
        id,
        status: "not-proceeding",
        reason: "other",
        otherReason: "Moved abroad",
      });
      expect(typed.status).toBe(200);
      const { status_reason } = await site.db.selectFrom("contact_submissions").select("status_reason").where("id", "=", id).executeTakeFirstOrThrow();
      expect(status_reason).toBe("Moved abroad");
    });
  });
});
