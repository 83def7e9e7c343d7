/**
 * The Team tab and the invitation's page over HTTP, on the built server, on
 * each backend (issue 21, decision 050): every form as a browser without
 * JavaScript sends it (a plain POST, the page as the answer), with e-mail off
 * (the owner is shown the link, and why) and through a real SMTP server;
 * revoking, changing a role, the last owner's refusal, removing a member and
 * ending their sessions (their next request finds none); joining with a good,
 * run-out, used, withdrawn or made-up link, never a 5xx; and the limit on
 * links that name no invitation, shown on the owner's dashboard.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIMITS_TEXT } from "~/admin/texts";
import { JOIN_TEXT, TEAM_TEXT_ADMIN } from "~/admin/team-texts";
import { memberActor } from "~/audit/actor";
import { INVITATION_TEXT, acceptInvitation, inviteMember } from "~/auth/invitations.server";
import { joinLimit } from "~/auth/join.server";
import { TEAM_TEXT } from "~/auth/team.server";
import { TEST_ADMIN } from "../support/admin-http";
import { backends } from "../support/backends";
import { visibleText } from "../support/html";
import { rawRequest, type RawResponse } from "../support/http";
import { assertBuilt, logLines } from "../support/server";
import { parseMessage, startSmtpServer, testCertificate, type TestSmtpServer } from "../support/smtp";
import { useSite, type Site } from "../support/sites";
import { waitFor } from "../support/wait";

const PASSWORD = "a long password for the new member";
const COOKIE = "__Host-admin_session";
const LINK = /https?:\/\/[^"\s<]+\/admin\/join\?token=([A-Za-z0-9_-]{43})/;

/** What a person reads on the page: its text, entities decoded as a browser shows them (and a label's colon after it). */
function shown(response: RawResponse): string {
  return visibleText(response.text)
    .replace(/ :/g, ":")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The session cookie a response sets, as "name=value" for a Cookie header. */
function sessionOf(response: RawResponse): string | undefined {
  const cookies = (response.headers["set-cookie"] ?? []) as string[];
  return cookies.find((cookie) => new RegExp(`^${COOKIE}=[^;]+`).test(cookie))?.split(";")[0];
}

/** A browser's form POST without a session (the invitation's page) from the site itself. */
function postJoin(site: Site, token: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(site.server.port, {
    method: "POST",
    path: `/admin/join?token=${encodeURIComponent(token)}`,
    headers: { origin: site.server.url, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The owner invites through the Team tab with e-mail off; the link shown on the page. */
async function inviteOverHttp(site: Site, email: string, role: string): Promise<{ response: RawResponse; token: string }> {
  const response = await site.postForm("/admin/team", { intent: "invite", email, role });
  expect(response.status, shown(response).slice(0, 300)).toBe(200);
  const token = LINK.exec(response.text)?.[1];
  expect(token, "the invitation link on the page").toBeDefined();
  return { response, token: token! };
}

/** A member of the role, by invitation and its page over HTTP; their id and session cookie. */
async function joinOverHttp(site: Site, email: string, role: string): Promise<{ id: string; cookie: string }> {
  const { token } = await inviteOverHttp(site, email, role);
  const joined = await postJoin(site, token, { name: `Member ${role}`, password: PASSWORD });
  expect(joined.status, shown(joined).slice(0, 300)).toBe(302);
  const row = await site.db.selectFrom("admin_users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return { id: row.id, cookie: sessionOf(joined)! };
}

async function ownerId(site: Site): Promise<string> {
  return (await site.db.selectFrom("admin_users").select("id").where("email", "=", TEST_ADMIN.email).executeTakeFirstOrThrow()).id;
}

/** Whether a session cookie still signs in: the Team tab's GET for an owner, a tab of theirs for anyone (the sign-in form when not). */
async function signedIn(site: Site, cookie: string, path = "/admin"): Promise<boolean> {
  const response = await site.get(path, { cookie });
  expect(response.status).toBeLessThan(500);
  return response.status === 200 && !shown(response).includes("Admin Login");
}

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
      expect(LINK.exec(response.text)![0]).toBe(`${site.server.url}/admin/join?token=${token}`);

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
      expect((await postJoin(site, token, { name: "Rex", password: PASSWORD })).status).toBe(410);
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

  describe("the invitation's page", () => {
    const site = useSite(backend, { env: { COMPANY_NAME: "Smith & Jones Lettings" } });

    it("shows the company and the role; joining signs the new member in as signing in does and opens their first tab", async () => {
      const { token } = await inviteOverHttp(site, "jo.joiner@example.com", "enquiries");
      const page = await site.get(`/admin/join?token=${token}`);
      expect(page.status).toBe(200);
      expect(page.headers["cache-control"]).toMatch(/no-store/);
      expect(shown(page)).toContain(JOIN_TEXT.title("Smith & Jones Lettings"));
      expect(shown(page)).toContain("You are invited as Enquiries: Contact Submissions, its CSV export and the data requests.");
      expect(page.text).toMatch(/minLength="12"/);

      const joined = await postJoin(site, token, { name: "  Jo   Joiner ", password: PASSWORD });
      expect(joined.status).toBe(302);
      expect(joined.headers.location).toBe("/admin/enquiries");
      const cookies = joined.headers["set-cookie"] as string[];
      const session = cookies.find((cookie) => cookie.startsWith(`${COOKIE}=`))!;
      expect(session).toMatch(/; HttpOnly/i);
      expect(session).toMatch(/; Secure/i);
      expect(session).toMatch(/; SameSite=Lax/i);
      expect(
        cookies.some((cookie) => /device/i.test(cookie.split("=")[0]!)),
        "the browser is one the member has signed in from",
      ).toBe(true);

      const tab = await site.get("/admin/enquiries", { cookie: sessionOf(joined)! });
      expect(tab.status).toBe(200);
      expect(shown(tab)).toContain("Welcome, jo.joiner@example.com");
      const member = await site.db.selectFrom("admin_users").select(["name", "role"]).where("email", "=", "jo.joiner@example.com").executeTakeFirstOrThrow();
      expect(member).toEqual({ name: "Jo Joiner", role: "enquiries" });

      // Used: a clear message, and the sign-in page is offered.
      const used = await site.get(`/admin/join?token=${token}`);
      expect(used.status).toBe(410);
      expect(shown(used)).toContain(INVITATION_TEXT.usedLink);
      expect(shown(used)).toContain(JOIN_TEXT.signIn);
      const again = await postJoin(site, token, { name: "Jo", password: PASSWORD });
      expect(again.status).toBe(410);
      expect(sessionOf(again)).toBeUndefined();
    });

    it("an owner or Editor lands on Renovation Projects; the browser's earlier session ends", async () => {
      const { token } = await inviteOverHttp(site, "otto.owner@example.com", "owner");
      const { cookie: earlier } = await joinOverHttp(site, "eve.earlier@example.com", "editor");
      const joined = await postJoin(site, token, { name: "Otto", password: PASSWORD }, { cookie: earlier });
      expect(joined.status).toBe(302);
      expect(joined.headers.location).toBe("/admin/projects");
      expect(await signedIn(site, earlier, "/admin/projects")).toBe(false);
      expect(await signedIn(site, sessionOf(joined)!, "/admin/team")).toBe(true);
    });

    it("refuses a name or password that will not do, with the password rules, keeping the invitation open", async () => {
      const { token } = await inviteOverHttp(site, "pat.password@example.com", "editor");
      const short = await postJoin(site, token, { name: "Pat", password: "short" });
      expect(short.status).toBe(400);
      expect(shown(short)).toContain("The password must be at least 12 characters long.");
      expect(short.text).toContain('value="Pat"');
      expect(short.text).not.toContain('value="short"');
      const noName = await postJoin(site, token, { name: "   ", password: PASSWORD });
      expect(noName.status).toBe(400);
      expect(shown(noName)).toContain(INVITATION_TEXT.nameMissing);
      expect(await site.db.selectFrom("admin_users").select("id").where("email", "=", "pat.password@example.com").executeTakeFirst()).toBeUndefined();
      expect((await site.get(`/admin/join?token=${token}`)).status).toBe(200);
    });

    it("says a link has run out after 72 hours", async () => {
      const owner = memberActor({ adminId: await ownerId(site), email: TEST_ADMIN.email, role: "owner" }, "127.0.0.1");
      const invited = await inviteMember(site.db, { email: "old.link@example.com", role: "editor" }, owner, {
        mail: undefined,
        companyName: "Smith & Jones Lettings",
        siteUrl: site.server.url,
        now: new Date(Date.now() - 73 * 60 * 60 * 1000),
      });
      if (!invited.ok || invited.delivery.kind !== "link") throw new Error("not invited");
      const token = new URL(invited.delivery.link).searchParams.get("token")!;
      const page = await site.get(`/admin/join?token=${token}`);
      expect(page.status).toBe(410);
      expect(shown(page)).toContain(INVITATION_TEXT.expiredLink);
      const post = await postJoin(site, token, { name: "Old", password: PASSWORD });
      expect(post.status).toBe(410);
      expect(shown(post)).toContain(INVITATION_TEXT.expiredLink);
    });

    it("answers a made-up, cut-off or odd link with a clear message, never a 5xx, and refuses another site's post", async () => {
      for (const token of ["", "x", "A".repeat(43), "A".repeat(42), "../../etc/passwd", "%00", "a".repeat(5000)]) {
        const page = await site.get(`/admin/join?token=${encodeURIComponent(token)}`);
        expect(page.status, token).toBe(404);
        expect(shown(page)).toContain(INVITATION_TEXT.unknownLink);
      }
      const noQuery = await site.get("/admin/join");
      expect(noQuery.status).toBe(404);
      const post = await postJoin(site, "B".repeat(43), { name: "Mallory", password: PASSWORD });
      expect(post.status).toBe(404);
      expect(sessionOf(post)).toBeUndefined();
      const { token } = await inviteOverHttp(site, "csrf.target@example.com", "owner");
      const crossSite = await postJoin(site, token, { name: "Mallory", password: PASSWORD }, { origin: "https://evil.example" });
      expect(crossSite.status).toBe(403);
      expect(await site.db.selectFrom("admin_users").select("id").where("email", "=", "csrf.target@example.com").executeTakeFirst()).toBeUndefined();
    });
  });

  describe("the limit on links that name no invitation", () => {
    const site = useSite(backend, { env: { LOGIN_RATE_LIMIT: "1" } });
    const limit = joinLimit(1);

    it("refuses a connection that tried too many, before any lookup, with Retry-After; the owner's dashboard says so", async () => {
      const { token } = await inviteOverHttp(site, "late.comer@example.com", "editor");
      // A link that works gives its place back: it counts for nothing.
      for (let i = 0; i < 3; i++) expect((await site.get(`/admin/join?token=${token}`)).status).toBe(200);
      for (let i = 0; i < limit; i++) expect((await site.get(`/admin/join?token=${"C".repeat(42)}${i % 10}`)).status).toBe(404);

      const refused = await site.get(`/admin/join?token=${"D".repeat(43)}`);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(shown(refused)).toMatch(/Too many invitation links that do not work were tried from your connection\. Please wait \d+ minutes? and try again\./);
      // The good link too, from this connection, until a place frees up; and the form.
      expect((await site.get(`/admin/join?token=${token}`)).status).toBe(429);
      const post = await postJoin(site, token, { name: "Late", password: PASSWORD });
      expect(post.status).toBe(429);
      expect(post.headers["retry-after"]).toMatch(/^\d+$/);
      expect(await site.db.selectFrom("admin_users").select("id").where("email", "=", "late.comer@example.com").executeTakeFirst()).toBeUndefined();

      // The request's one log line says why.
      const reqId = String(refused.headers["x-request-id"]);
      await waitFor("the refusal's log line", () => logLines(site.server.stdout()).some((line) => line.reqId === reqId));
      const own = logLines(site.server.stdout()).filter((line) => line.reqId === reqId);
      expect(own).toHaveLength(1);
      expect(own[0]).toMatchObject({ msg: "request", status: 429, reason: "too many invitation links that name no invitation from this address" });

      const dashboard = shown(await site.get("/admin/team", { cookie: site.cookie }));
      expect(dashboard).toMatch(/Invitation pages turned away in the last 24 hours: 3, because one connection had tried \d+ invitation links/);
      expect(dashboard).toContain(LIMITS_TEXT.joins(3, limit, "").split(";")[0]!);
    });

    it("shows the banner to owners only", async () => {
      // This connection is still refused: the Editor joins through the domain, as from elsewhere.
      const owner = memberActor({ adminId: await ownerId(site), email: TEST_ADMIN.email, role: "owner" }, "127.0.0.1");
      const invited = await inviteMember(site.db, { email: "quiet.editor@example.com", role: "editor" }, owner, {
        mail: undefined,
        companyName: "Test",
        siteUrl: site.server.url,
      });
      if (!invited.ok || invited.delivery.kind !== "link") throw new Error("not invited");
      const token = new URL(invited.delivery.link).searchParams.get("token")!;
      const accepted = await acceptInvitation(site.db, { token, name: "Quiet", password: PASSWORD, ip: "192.0.2.7" });
      if (!accepted.ok) throw new Error("not accepted");
      const page = shown(await site.get("/admin/projects", { cookie: `${COOKIE}=${accepted.token}` }));
      expect(page).toContain("Welcome, quiet.editor@example.com");
      expect(page).not.toContain("Invitation pages turned away");
      expect(shown(await site.get("/admin/projects", { cookie: site.cookie }))).toContain("Invitation pages turned away");
    });
  });

  describe("with a mail server", () => {
    let smtp: TestSmtpServer;
    beforeAll(async () => {
      smtp = await startSmtpServer(undefined, { tls: true });
    });
    afterAll(() => smtp?.stop());
    const site = useSite(backend, {
      env: async () => ({
        SMTP_URL: smtp.url,
        MAIL_FROM: "Example Lettings <office@mail.example.com>",
        CONTACT_NOTIFY_TO: "office@example.com",
        NODE_EXTRA_CA_CERTS: testCertificate().certFile,
        PUBLIC_URL: "https://lettings.example.com",
      }),
    });

    it("sends the invitation by e-mail and says so; the link is in the e-mail, not on the page, and starts with PUBLIC_URL", async () => {
      const before = await site.get("/admin/team", { cookie: site.cookie });
      expect(shown(before)).toContain(TEAM_TEXT_ADMIN.invite.hint);
      const response = await site.postForm("/admin/team", { intent: "invite", email: "mia.mailed@example.com", role: "editor" });
      expect(response.status).toBe(200);
      expect(shown(response)).toContain(INVITATION_TEXT.sent("mia.mailed@example.com"));
      expect(response.text).not.toMatch(LINK);

      await waitFor("the invitation e-mail", () => smtp.messages.some((message) => message.envelopeTo.includes("mia.mailed@example.com")));
      const message = await parseMessage(smtp.messages.find((received) => received.envelopeTo.includes("mia.mailed@example.com"))!);
      const link = LINK.exec(message.text ?? "");
      expect(link?.[0]).toMatch(/^https:\/\/lettings\.example\.com\/admin\/join\?token=/);

      await waitFor("the tab to say it was sent", async () => shown(await site.get("/admin/team", { cookie: site.cookie })).includes("Sent "));
      const page = await site.get(`/admin/join?token=${link![1]}`);
      expect(page.status).toBe(200);
      const joined = await postJoin(site, link![1]!, { name: "Mia", password: PASSWORD });
      expect(joined.status).toBe(302);
    });
  });
});
