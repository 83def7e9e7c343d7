/**
 * The Team tab over HTTP, on the built server, on each backend (issue 21,
 * decision 050): every form as a browser without JavaScript sends it (a
 * plain POST, the page as the answer), with e-mail off (the owner is shown
 * the link, and why) and through a real SMTP server; revoking, changing a
 * role, the last owner's refusal, removing a member and ending their
 * sessions (their next request finds none). The invitation's page is
 * join-http.test.ts's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { JOIN_TEXT, TEAM_TEXT_ADMIN } from "~/admin/team-texts";
import { INVITATION_TEXT } from "~/auth/invitations.server";
import { TEAM_TEXT } from "~/auth/team.server";
import { memberActor } from "~/audit/actor";
import { confirmTotpSetup, startTotpSetup } from "~/auth/totp.server";
import { totpCodeAt } from "../support/auth-domain";
import { TEST_ADMIN } from "../support/admin-http";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { parseMessage } from "../support/smtp";
import { useSite, useSiteWithMail } from "../support/sites";
import { INVITATION_LINK, MEMBER_PASSWORD, inviteOverHttp, joinOverHttp, ownerId, postJoin, shown, signedIn } from "../support/team-http";
import { waitFor } from "../support/wait";

beforeAll(() => assertBuilt());

describe.each(backends)("the Team tab over HTTP on $name", (backend) => {
  describe("with e-mail off", () => {
    const site = useSite(backend);

    it("lists each member with e-mail, name, role, last sign-in and two-step sign-in (Off), and says there is no pending invitation", async () => {
      const page = await site.get("/admin/team", { cookie: site.cookie });
      expect(page.status).toBe(200);
      const text = shown(page);
      expect(text).toContain(`${TEST_ADMIN.email} ${TEAM_TEXT_ADMIN.you}`);
      expect(text).toContain("Owner");
      expect(text).toContain(TEAM_TEXT_ADMIN.noName);
      // Signed in by the fixture a moment ago: a UK date and time, not "Never".
      expect(text).toMatch(/Last sign-in: \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
      expect(text).toContain("Two-step sign-in: Off");
      expect(text).toContain(TEAM_TEXT_ADMIN.pending.empty);
      expect(text).toContain(TEAM_TEXT_ADMIN.invite.hintMailOff);
      // The tab is in the dashboard's list, and selected.
      expect(page.text).toMatch(/id="tab-team"[^>]*aria-selected="true"|aria-selected="true"[^>]*id="tab-team"/);
    });

    it("invites: the owner is shown the link to pass on and why; the invitation is pending, its link opens the invitation's page", async () => {
      const { response, token } = await inviteOverHttp(site, "Nina.Newcomer@Example.com", "editor");
      expect(shown(response)).toContain(INVITATION_TEXT.mailOff("nina.newcomer@example.com"));
      expect(shown(response)).toContain(TEAM_TEXT_ADMIN.link.label("nina.newcomer@example.com"));
      // The link starts with the address the request came to (no PUBLIC_URL here).
      expect(INVITATION_LINK.exec(response.text)![0]).toBe(`${site.server.url}/admin/join?token=${token}`);

      const page = shown(await site.get("/admin/team", { cookie: site.cookie }));
      expect(page).toContain("nina.newcomer@example.com");
      expect(page).toContain(TEAM_TEXT_ADMIN.pending.handedOver);
      expect(page).toContain(`Invited by: ${TEST_ADMIN.email}`);
      // Shown once: the tab never shows the link again.
      expect(page).not.toContain(token);

      const join = await site.get(`/admin/join?token=${token}`);
      expect(join.status).toBe(200);
      expect(shown(join)).toContain(JOIN_TEXT.title("Example Property Management Ltd"));
      expect(shown(join)).toContain("You are invited as Editor:");
      expect(join.text).toContain('value="nina.newcomer@example.com"');
      const entry = await site.db.selectFrom("audit_log").select(["actor_label", "ip"]).where("action", "=", "member-invited").executeTakeFirstOrThrow();
      expect(entry).toEqual({ actor_label: TEST_ADMIN.email, ip: "127.0.0.1" });
    });

    it("refuses an address that is not one, or no role, keeping the form as sent and changing nothing", async () => {
      const before = await site.db.selectFrom("admin_invitations").select("id").execute();
      const badEmail = await site.postForm("/admin/team", { intent: "invite", email: "not an address", role: "editor" });
      expect(badEmail.status).toBe(400);
      expect(shown(badEmail)).toContain(INVITATION_TEXT.invalidEmail);
      expect(badEmail.text).toContain('value="not an address"');
      const noRole = await site.postForm("/admin/team", { intent: "invite", email: "someone@example.com" });
      expect(noRole.status).toBe(400);
      expect(shown(noRole)).toContain(INVITATION_TEXT.invalidRole);
      const member = await site.postForm("/admin/team", { intent: "invite", email: TEST_ADMIN.email, role: "editor" });
      expect(member.status).toBe(409);
      expect(shown(member)).toContain(INVITATION_TEXT.memberExists(TEST_ADMIN.email));
      const unknown = await site.postForm("/admin/team", { intent: "promote-everyone" });
      expect(unknown.status).toBe(400);
      expect(await site.db.selectFrom("admin_invitations").select("id").execute()).toEqual(before);
    });

    it("revokes a pending invitation, asking first on the page; its link then says it was withdrawn", async () => {
      const { token } = await inviteOverHttp(site, "rex.revoked@example.com", "enquiries");
      const { id } = await site.db.selectFrom("admin_invitations").select("id").where("email", "=", "rex.revoked@example.com").executeTakeFirstOrThrow();

      const asked = await site.postForm("/admin/team", { intent: "revoke-invitation", id });
      expect(asked.status).toBe(200);
      expect(shown(asked)).toContain(TEAM_TEXT_ADMIN.confirmRevoke("rex.revoked@example.com"));
      expect((await site.get(`/admin/join?token=${token}`)).status, "still open after the question").toBe(200);

      const revoked = await site.postForm("/admin/team", { intent: "revoke-invitation", id, confirmed: "yes" });
      expect(revoked.status).toBe(200);
      expect(shown(revoked)).toContain(INVITATION_TEXT.revoked);
      expect(shown(revoked)).not.toContain("rex.revoked@example.com");
      const again = await site.postForm("/admin/team", { intent: "revoke-invitation", id, confirmed: "yes" });
      expect(again.status).toBe(404);
      expect(shown(again)).toContain(INVITATION_TEXT.notPending);

      const page = await site.get(`/admin/join?token=${token}`);
      expect(page.status).toBe(410);
      expect(shown(page)).toContain(INVITATION_TEXT.revokedLink);
      expect((await postJoin(site, token, { name: "Rex", password: MEMBER_PASSWORD })).status).toBe(410);
      expect(await site.db.selectFrom("admin_users").select("id").where("email", "=", "rex.revoked@example.com").executeTakeFirst()).toBeUndefined();
    });

    it("changes a member's role; one that takes something away ends their sessions at their next request", async () => {
      const editor = await joinOverHttp(site, "ed.editor@example.com", "editor");
      expect(await signedIn(site, editor.cookie, "/admin/projects")).toBe(true);

      const promoted = await site.postForm("/admin/team", { intent: "change-role", id: editor.id, role: "owner" });
      expect(promoted.status).toBe(200);
      expect(shown(promoted)).toContain(TEAM_TEXT_ADMIN.roleChanged("Owner", 0));
      expect(await signedIn(site, editor.cookie, "/admin/team"), "a promotion keeps the session, with the new role").toBe(true);

      const demoted = await site.postForm("/admin/team", { intent: "change-role", id: editor.id, role: "enquiries" });
      expect(demoted.status).toBe(200);
      expect(shown(demoted)).toContain(TEAM_TEXT_ADMIN.roleChanged("Enquiries", 1));
      expect(await signedIn(site, editor.cookie, "/admin/enquiries")).toBe(false);
      const row = await site.db.selectFrom("admin_users").select("role").where("id", "=", editor.id).executeTakeFirstOrThrow();
      expect(row.role).toBe("enquiries");

      const same = await site.postForm("/admin/team", { intent: "change-role", id: editor.id, role: "enquiries" });
      expect(same.status).toBe(409);
      expect(shown(same)).toContain(TEAM_TEXT.unchanged("enquiries"));
      const nonsense = await site.postForm("/admin/team", { intent: "change-role", id: editor.id, role: "admin" });
      expect(nonsense.status).toBe(400);
    });

    it("refuses to demote or remove the last owner, with the domain's message, and changes nothing", async () => {
      // The owner made by the test before was demoted: the fixture's owner is the only one left.
      const id = await ownerId(site);
      const demote = await site.postForm("/admin/team", { intent: "change-role", id, role: "editor" });
      expect(demote.status).toBe(409);
      expect(shown(demote)).toContain(TEAM_TEXT.lastOwner);
      const remove = await site.postForm("/admin/team", { intent: "remove-member", id, confirmed: "yes" });
      expect(remove.status).toBe(409);
      expect(shown(remove)).toContain(TEAM_TEXT.lastOwner);
      const row = await site.db.selectFrom("admin_users").select("role").where("id", "=", id).executeTakeFirstOrThrow();
      expect(row.role).toBe("owner");
      expect(await signedIn(site, site.cookie, "/admin/team")).toBe(true);
    });

    it("removes a member, asking first: their sessions end at once, their audit entries stay", async () => {
      const member = await joinOverHttp(site, "rita.removed@example.com", "enquiries");
      expect(await signedIn(site, member.cookie, "/admin/enquiries")).toBe(true);

      const asked = await site.postForm("/admin/team", { intent: "remove-member", id: member.id });
      expect(asked.status).toBe(200);
      expect(shown(asked)).toContain(TEAM_TEXT_ADMIN.confirmRemove("rita.removed@example.com"));
      expect(await signedIn(site, member.cookie, "/admin/enquiries"), "nothing done before the confirmation").toBe(true);

      const removed = await site.postForm("/admin/team", { intent: "remove-member", id: member.id, confirmed: "yes" });
      expect(removed.status).toBe(200);
      expect(shown(removed)).toContain(TEAM_TEXT_ADMIN.removed(1));
      expect(await signedIn(site, member.cookie, "/admin/enquiries")).toBe(false);
      expect(await site.db.selectFrom("admin_sessions").select("id").where("admin_id", "=", member.id).execute()).toEqual([]);
      expect(await site.db.selectFrom("admin_users").select("id").where("id", "=", member.id).executeTakeFirst()).toBeUndefined();
      const entries = await site.db.selectFrom("audit_log").select("action").where("actor_id", "=", member.id).execute();
      expect(entries.map((entry) => entry.action)).toContain("invitation-accepted");

      const gone = await site.postForm("/admin/team", { intent: "remove-member", id: member.id, confirmed: "yes" });
      expect(gone.status).toBe(404);
      expect(shown(gone)).toContain(TEAM_TEXT.notFound);
    });

    it("signs a member out everywhere, asking first; the account stays", async () => {
      const member = await joinOverHttp(site, "sol.sessions@example.com", "editor");
      const asked = await site.postForm("/admin/team", { intent: "end-sessions", id: member.id });
      expect(shown(asked)).toContain(TEAM_TEXT_ADMIN.confirmEndSessions("sol.sessions@example.com"));
      expect(await signedIn(site, member.cookie, "/admin/projects")).toBe(true);
      const ended = await site.postForm("/admin/team", { intent: "end-sessions", id: member.id, confirmed: "yes" });
      expect(ended.status).toBe(200);
      expect(shown(ended)).toContain(TEAM_TEXT_ADMIN.sessionsEnded(1));
      expect(await signedIn(site, member.cookie, "/admin/projects")).toBe(false);
      expect(await site.db.selectFrom("admin_users").select("role").where("id", "=", member.id).executeTakeFirstOrThrow()).toEqual({ role: "editor" });
      expect((await site.postForm("/admin/team", { intent: "end-sessions", id: "not-an-id", confirmed: "yes" })).status).toBe(400);
    });
  });

  describe("with a member who has a second factor", () => {
    const site = useSite(backend);

    it("shows two-step sign-in On for a member with an authenticator app confirmed, Off for the others", async () => {
      const joined = await joinOverHttp(site, "secured@example.com", "editor");
      const now = new Date();
      const setup = await startTotpSetup(site.db, { adminId: joined.id, email: "secured@example.com", issuer: "Test" }, now);
      const member = memberActor({ adminId: joined.id, email: "secured@example.com", role: "editor" }, "127.0.0.1");
      expect((await confirmTotpSetup(site.db, { member, code: totpCodeAt(setup, now), now })).ok).toBe(true);
      const text = shown(await site.get("/admin/team", { cookie: site.cookie }));
      const rowOf = (email: string) => text.slice(text.indexOf(email), text.indexOf("Two-step sign-in:", text.indexOf(email)) + 22);
      expect(rowOf("secured@example.com")).toContain("Two-step sign-in: On");
      expect(rowOf(TEST_ADMIN.email)).toContain("Two-step sign-in: Off");
    });
  });

  describe("with a mail server", () => {
    const { site, smtp } = useSiteWithMail(backend, { PUBLIC_URL: "https://lettings.example.com" });

    it("sends the invitation by e-mail and says so; the link is in the e-mail, not on the page, and starts with PUBLIC_URL", async () => {
      const before = await site.get("/admin/team", { cookie: site.cookie });
      expect(shown(before)).toContain(TEAM_TEXT_ADMIN.invite.hint);
      const response = await site.postForm("/admin/team", { intent: "invite", email: "mia.mailed@example.com", role: "editor" });
      expect(response.status).toBe(200);
      expect(shown(response)).toContain(INVITATION_TEXT.sent("mia.mailed@example.com"));
      expect(response.text).not.toMatch(INVITATION_LINK);

      await waitFor("the invitation e-mail", () => smtp.messages.some((message) => message.envelopeTo.includes("mia.mailed@example.com")));
      const message = await parseMessage(smtp.messages.find((received) => received.envelopeTo.includes("mia.mailed@example.com"))!);
      const link = INVITATION_LINK.exec(message.text ?? "");
      expect(link?.[0]).toMatch(/^https:\/\/lettings\.example\.com\/admin\/join\?token=/);

      await waitFor("the tab to say it was sent", async () => shown(await site.get("/admin/team", { cookie: site.cookie })).includes("Sent "));
      const page = await site.get(`/admin/join?token=${link![1]}`);
      expect(page.status).toBe(200);
      const joined = await postJoin(site, link![1]!, { name: "Mia", password: MEMBER_PASSWORD });
      expect(joined.status).toBe(302);
    });
  });
});
