/**
 * Invitations to the team at module level, on each backend (issue 21): the
 * link handed to the owner when e-mail is off, and the one e-mailed through
 * the outbox to a real SMTP server (tests/support/smtp.ts), across a mail
 * server's outage and a restart; single use, 72 hours, revocable, kept only
 * as a hash.
 */
import { createHash, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { memberActor, type MemberActor } from "~/audit/actor";
import { findAdminByEmail, insertMember } from "~/auth/admins.server";
import {
  INVITATION_TEXT,
  INVITATION_TTL_MS,
  acceptInvitation,
  checkInvitation,
  forgetDeadInvitationLinks,
  inviteMember,
  listInvitations,
  revokeInvitation,
  type InviteOptions,
} from "~/auth/invitations.server";
import { verifyPassword } from "~/auth/password.server";
import type { Role } from "~/auth/roles";
import { findSession } from "~/auth/sessions.server";
import { startOutboxWorker, type OutboxWorker } from "~/enquiries/outbox-worker.server";
import { createOutboxSignal } from "~/enquiries/outbox.server";
import { migrateToLatest, type Database } from "~/platform/db/db.server";
import { plainLog } from "~/platform/observe/log.server";
import { createSmtpMailer } from "~/platform/mail/mailer.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { backends, type TestDatabase } from "../support/backends";
import { createSmtpServer, parseMessage, type TestSmtpServer } from "../support/smtp";
import { waitFor } from "../support/wait";

const SITE = "https://www.example-lettings.co.uk";
const PASSWORD = "a long enough password for the team";
const MAIL_OFF: InviteOptions = { mail: undefined, companyName: "Example Lettings Ltd", siteUrl: SITE };

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(backends)("invitations on $name", (backend) => {
  let testDb: TestDatabase;
  let database: Database;
  let owner: MemberActor;

  beforeAll(async () => {
    testDb = await backend.createDatabase();
    database = testDb.open();
    await migrateToLatest(database);
  });
  afterAll(() => testDb.cleanup());

  beforeEach(async () => {
    for (const table of ["email_outbox", "admin_invitations", "audit_log", "admin_sessions", "admin_users"] as const)
      await database.db.deleteFrom(table).execute();
    owner = await member("owner@example.com", "owner");
  });

  async function member(email: string, role: Role): Promise<MemberActor> {
    const id = randomUUID();
    await inTransaction(database.db, (trx) => insertMember(trx, { id, email, passwordHash: "$argon2id$unused", role, name: null, now: new Date() }));
    return memberActor({ adminId: id, email, role }, "192.0.2.1");
  }

  /** Every text value of the tables an invitation touches, to look for what must not be there. */
  async function storedText(): Promise<string> {
    const tables = await Promise.all(
      (["admin_invitations", "email_outbox", "audit_log", "admin_users"] as const).map((table) => database.db.selectFrom(table).selectAll().execute()),
    );
    return JSON.stringify(tables);
  }

  /** Invites with e-mail off and returns the link the owner is given. */
  async function invitedLink(email: string, role: Role, now?: Date): Promise<string> {
    const invited = await inviteMember(database.db, { email, role }, owner, { ...MAIL_OFF, now });
    if (!invited.ok || invited.delivery.kind !== "link") throw new Error(`not invited: ${JSON.stringify(invited)}`);
    return invited.delivery.link;
  }

  it("without a mail server gives the owner the link and says why; the link signs the invitee in, with the role, once", async () => {
    const invited = await inviteMember(database.db, { email: " New.Person@Example.com ", role: "editor" }, owner, MAIL_OFF);
    expect(invited).toMatchObject({ ok: true, invitation: { email: "new.person@example.com", role: "editor" }, delivery: { kind: "link" } });
    if (!invited.ok || invited.delivery.kind !== "link") return;
    expect(invited.delivery.message).toBe(INVITATION_TEXT.mailOff("new.person@example.com"));
    expect(invited.delivery.message).toContain("no SMTP_URL is set");
    expect(invited.delivery.link).toMatch(/^https:\/\/www\.example-lettings\.co\.uk\/admin\/join\?token=[\w-]{43}$/);
    const token = tokenOf(invited.delivery.link);

    // Kept only as its hash; nothing was queued (e-mail is off).
    const row = await database.db.selectFrom("admin_invitations").selectAll().executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(token));
    expect(await storedText()).not.toContain(token);
    expect(await database.db.selectFrom("email_outbox").selectAll().execute()).toEqual([]);

    expect(await checkInvitation(database.db, token)).toMatchObject({ ok: true, email: "new.person@example.com", role: "editor" });
    const accepted = await acceptInvitation(database.db, { token, name: "  New   Person ", password: PASSWORD, ip: "198.51.100.7" });
    expect(accepted).toMatchObject({ ok: true, email: "new.person@example.com", role: "editor" });
    if (!accepted.ok) return;
    const session = await findSession(database.db, accepted.token);
    expect(session).toMatchObject({ adminId: accepted.adminId, email: "new.person@example.com", role: "editor" });
    const stored = await database.db
      .selectFrom("admin_users")
      .select(["name", "role", "password_hash"])
      .where("id", "=", accepted.adminId)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: "New Person", role: "editor" });
    expect(await verifyPassword(PASSWORD, stored.password_hash)).toBe(true);

    // Single use.
    const again = await acceptInvitation(database.db, { token, name: "Someone Else", password: PASSWORD, ip: "203.0.113.1" });
    expect(again).toEqual({ ok: false, reason: "used", message: INVITATION_TEXT.usedLink });
    expect(await checkInvitation(database.db, token)).toMatchObject({ ok: false, reason: "used" });
    expect(await listInvitations(database.db), "accepted: no longer open").toEqual([]);

    const entries = await database.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "actor_label", "ip", "target_id", "details"])
      .orderBy("id")
      .execute();
    expect(entries).toEqual([
      {
        action: "member-invited",
        actor_id: owner.id,
        actor_label: "owner@example.com",
        ip: "192.0.2.1",
        target_id: row.id,
        details: JSON.stringify({ role: "editor" }),
      },
      {
        action: "invitation-accepted",
        actor_id: accepted.adminId,
        actor_label: "new.person@example.com",
        ip: "198.51.100.7",
        target_id: accepted.adminId,
        details: JSON.stringify({ role: "editor" }),
      },
    ]);
    expect(await storedText(), "no password, no token anywhere").not.toMatch(new RegExp(`${PASSWORD}|${token}`));
  });

  it("refuses bad input with a clear message and changes nothing", async () => {
    await member("editor@example.com", "editor");
    expect(await inviteMember(database.db, { email: "not an address", role: "editor" }, owner, MAIL_OFF)).toMatchObject({
      ok: false,
      message: INVITATION_TEXT.invalidEmail,
    });
    expect(await inviteMember(database.db, { email: "someone@example.com", role: "admin" }, owner, MAIL_OFF)).toMatchObject({
      ok: false,
      message: INVITATION_TEXT.invalidRole,
    });
    expect(await inviteMember(database.db, { email: "Editor@Example.com", role: "owner" }, owner, MAIL_OFF)).toEqual({
      ok: false,
      reason: "member-exists",
      message: "editor@example.com is on the team already.",
    });
    const editor = memberActor({ adminId: randomUUID(), email: "editor@example.com", role: "editor" }, "192.0.2.2");
    expect(await inviteMember(database.db, { email: "someone@example.com", role: "editor" }, editor, MAIL_OFF)).toMatchObject({
      ok: false,
      reason: "not-allowed",
    });
    expect(await database.db.selectFrom("admin_invitations").selectAll().execute()).toEqual([]);
    expect(await database.db.selectFrom("audit_log").selectAll().execute()).toEqual([]);

    // A wrong name or password at acceptance leaves the invitation open.
    const token = tokenOf(await invitedLink("someone@example.com", "enquiries"));
    expect(await acceptInvitation(database.db, { token, name: "  ", password: "short", ip: "198.51.100.7" })).toEqual({
      ok: false,
      reason: "invalid",
      errors: { name: INVITATION_TEXT.nameMissing, password: "The password must be at least 12 characters long." },
    });
    expect(await acceptInvitation(database.db, { token, name: "Line\nbreak", password: PASSWORD, ip: "198.51.100.7" })).toMatchObject({
      errors: { name: INVITATION_TEXT.nameInvalid },
    });
    expect(await acceptInvitation(database.db, { token: "not-a-token", name: "Someone", password: PASSWORD, ip: "198.51.100.7" })).toMatchObject({
      reason: "unknown",
      message: INVITATION_TEXT.unknownLink,
    });
    expect((await acceptInvitation(database.db, { token, name: "Someone", password: PASSWORD, ip: "198.51.100.7" })).ok).toBe(true);
  });

  it("works for 72 hours and not a moment longer", async () => {
    const sent = new Date("2026-11-26T09:00:00.000Z");
    const early = tokenOf(await invitedLink("early@example.com", "editor", sent));
    const late = tokenOf(await invitedLink("late@example.com", "editor", sent));
    const deadline = new Date(sent.getTime() + INVITATION_TTL_MS);
    expect(await checkInvitation(database.db, late, deadline)).toEqual({ ok: false, reason: "expired", message: INVITATION_TEXT.expiredLink });
    expect(await acceptInvitation(database.db, { token: late, name: "Late", password: PASSWORD, ip: "198.51.100.7", now: deadline })).toMatchObject({
      reason: "expired",
    });
    const justBefore = new Date(deadline.getTime() - 1);
    expect((await acceptInvitation(database.db, { token: early, name: "Early", password: PASSWORD, ip: "198.51.100.7", now: justBefore })).ok).toBe(true);
    expect((await listInvitations(database.db, deadline)).map(({ email, expired }) => ({ email, expired }))).toEqual([
      { email: "late@example.com", expired: true },
    ]);
  });

  it("can be revoked by an owner, and inviting the address again replaces the earlier link", async () => {
    const first = tokenOf(await invitedLink("someone@example.com", "editor"));
    const second = tokenOf(await invitedLink("someone@example.com", "enquiries"));
    expect(await checkInvitation(database.db, first)).toEqual({ ok: false, reason: "revoked", message: INVITATION_TEXT.revokedLink });
    const [open] = await listInvitations(database.db);
    expect(open).toMatchObject({ email: "someone@example.com", role: "enquiries", invitedBy: "owner@example.com", expired: false, emailDelivery: null });

    const editor = await member("editor@example.com", "editor");
    expect(await revokeInvitation(database.db, open!.id, editor)).toMatchObject({ ok: false, reason: "not-allowed" });
    expect(await revokeInvitation(database.db, open!.id, owner)).toEqual({ ok: true });
    expect(await revokeInvitation(database.db, open!.id, owner)).toEqual({ ok: false, reason: "not-pending", message: INVITATION_TEXT.notPending });
    expect(await acceptInvitation(database.db, { token: second, name: "Someone", password: PASSWORD, ip: "198.51.100.7" })).toMatchObject({
      reason: "revoked",
    });
    expect(await findAdminByEmail(database.db, "someone@example.com")).toBeUndefined();
    const actions = await database.db.selectFrom("audit_log").select("action").orderBy("id").execute();
    expect(actions.map((row) => row.action)).toEqual(["member-invited", "member-invited", "invitation-revoked"]);
  });

  it("works once when opened twice at the same moment", async () => {
    const token = tokenOf(await invitedLink("twice@example.com", "editor"));
    const results = await Promise.all([1, 2].map((n) => acceptInvitation(database.db, { token, name: `Tab ${n}`, password: PASSWORD, ip: "198.51.100.7" })));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ reason: "used" });
    expect(await database.db.selectFrom("admin_users").select("email").where("email", "=", "twice@example.com").execute()).toHaveLength(1);
  });

  describe("by e-mail, through the outbox", () => {
    let smtp: TestSmtpServer;
    const workers: OutboxWorker[] = [];
    const outbox = createOutboxSignal();
    let clock: Date;
    const logged: string[] = [];

    beforeEach(async () => {
      smtp = await createSmtpServer();
      clock = new Date(Date.now() + 60_000);
      logged.length = 0;
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
      await smtp.stop();
    });

    /** A worker of an instance on `db`, sending to the test's SMTP server. */
    function startWorker(db = database.db): OutboxWorker {
      const worker = startOutboxWorker({
        db,
        mailer: createSmtpMailer(smtp.url, { insecure: true }),
        outbox,
        log: plainLog((line) => void logged.push(line)),
        pollMs: 3_600_000,
        now: () => clock,
      });
      workers.push(worker);
      return worker;
    }

    const withMail = (): InviteOptions => ({
      mail: { from: "Example Lettings <site@example-lettings.co.uk>" },
      companyName: "Example Lettings Ltd",
      siteUrl: SITE,
      outbox,
      now: clock,
    });

    const job = async () => database.db.selectFrom("email_outbox").selectAll().where("kind", "=", "invitation").executeTakeFirst();

    it("sends the link to the invitee; the stored e-mail never holds it once sent, and the link from the e-mail works", async () => {
      await smtp.start();
      startWorker();
      const invited = await inviteMember(database.db, { email: "new@example.com", role: "enquiries" }, owner, withMail());
      expect(invited).toMatchObject({ ok: true, delivery: { kind: "queued", message: INVITATION_TEXT.sent("new@example.com") } });
      await waitFor("the invitation e-mail", () => smtp.messages.length === 1);

      const received = await parseMessage(smtp.messages[0]!);
      expect(received.envelopeTo).toEqual(["new@example.com"]);
      expect(received.subject).toBe("You are invited to the Example Lettings Ltd back office");
      expect(received.text).toContain("owner@example.com has invited you to join the Example Lettings Ltd back office as Enquiries");
      const link = /https:\/\/www\.example-lettings\.co\.uk\/admin\/join\?token=[\w-]{43}/.exec(received.text ?? "")?.[0];
      expect(link).toBeDefined();
      expect(received.html).toContain(`href="${link}"`);

      await waitFor("the job to be marked sent", async () => (await job())?.status === "sent");
      expect(await job()).toMatchObject({ status: "sent", link: null });
      const token = tokenOf(link!);
      expect(await storedText(), "the link is the invitee's alone").not.toContain(token);
      expect((await listInvitations(database.db))[0]?.emailDelivery).toMatchObject({ status: "sent", attempts: 1 });

      const accepted = await acceptInvitation(database.db, { token, name: "New Member", password: PASSWORD, ip: "198.51.100.7" });
      expect(accepted).toMatchObject({ ok: true, role: "enquiries" });
    });

    it("survives a mail server outage and a restart: the e-mail goes once the server is back, from the instance started since", async () => {
      const first = startWorker();
      const invited = await inviteMember(database.db, { email: "patient@example.com", role: "editor" }, owner, withMail());
      expect(invited.ok).toBe(true);
      first.wake();
      await waitFor("the failed attempt", async () => (await job())?.status === "failed");
      expect(smtp.messages).toHaveLength(0);

      // The instance stops; another starts, on a connection of its own; the mail server is back.
      await first.stop();
      const restarted = testDb.open();
      await smtp.start();
      clock = new Date(clock.getTime() + 10 * 60_000);
      startWorker(restarted.db).wake();
      await waitFor("the invitation e-mail after the restart", () => smtp.messages.length === 1);
      const received = await parseMessage(smtp.messages[0]!);
      expect(received.envelopeTo).toEqual(["patient@example.com"]);
      const token = tokenOf(/https:\/\/\S+token=[\w-]{43}/.exec(received.text ?? "")![0]);
      expect((await checkInvitation(database.db, token)).ok).toBe(true);
      await waitFor("the job to be marked sent", async () => (await job())?.status === "sent");
      expect((await job())?.attempts).toBe(2);
    });

    it("sends nothing for an invitation revoked before its e-mail went", async () => {
      const worker = startWorker();
      const invited = await inviteMember(database.db, { email: "changed.mind@example.com", role: "editor" }, owner, withMail());
      worker.wake();
      await waitFor("the failed attempt", async () => (await job())?.status === "failed");
      if (!invited.ok) throw new Error("not invited");
      expect(await revokeInvitation(database.db, invited.invitation.id, owner)).toEqual({ ok: true });
      expect(await job(), "its e-mail goes with it").toBeUndefined();
      await smtp.start();
      clock = new Date(clock.getTime() + 10 * 60_000);
      worker.wake();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(smtp.messages).toHaveLength(0);
    });

    it("forgets the link of an e-mail never sent once its invitation has run out", async () => {
      const sent = new Date("2026-11-20T09:00:00.000Z");
      await inviteMember(database.db, { email: "gone@example.com", role: "editor" }, owner, { ...withMail(), now: sent });
      expect((await job())?.link).toMatch(/token=/);
      expect(await forgetDeadInvitationLinks(database.db, new Date(sent.getTime() + INVITATION_TTL_MS - 1))).toBe(0);
      expect(await forgetDeadInvitationLinks(database.db, new Date(sent.getTime() + INVITATION_TTL_MS))).toBe(1);
      expect(await job()).toBeUndefined();
    });
  });
});
