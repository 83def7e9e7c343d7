/**
 * The invitation's page over HTTP (/admin/join?token=…), on the built server,
 * on each backend (issue 21, decision 050): joining with a good link signs
 * the new member in as signing in does; a run-out, used, withdrawn or
 * made-up link says so, never a 5xx; the name and password are held to the
 * sign-in's rules; and the limit on links that name no invitation refuses
 * before any lookup and shows on the owners' dashboard.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { JOIN_TEXT } from "~/admin/team-texts";
import { LIMITS_TEXT } from "~/admin/texts";
import { INVITATION_TEXT, acceptInvitation } from "~/auth/invitations.server";
import { joinLimit } from "~/auth/join.server";
import { backends } from "../support/backends";
import { assertBuilt, logLines } from "../support/server";
import { useSite } from "../support/sites";
import { MEMBER_PASSWORD, SESSION_COOKIE, inviteOverHttp, inviteThroughDomain, joinOverHttp, postJoin, sessionOf, shown, signedIn } from "../support/team-http";
import { waitFor } from "../support/wait";

beforeAll(() => assertBuilt());

describe.each(backends)("the invitation's page over HTTP on $name", (backend) => {
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

      const joined = await postJoin(site, token, { name: "  Jo   Joiner ", password: MEMBER_PASSWORD });
      expect(joined.status).toBe(302);
      expect(joined.headers.location).toBe("/admin/enquiries");
      const cookies = joined.headers["set-cookie"] as string[];
      const session = cookies.find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))!;
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
      const again = await postJoin(site, token, { name: "Jo", password: MEMBER_PASSWORD });
      expect(again.status).toBe(410);
      expect(sessionOf(again)).toBeUndefined();
    });

    it("an owner or Editor lands on Renovation Projects; the browser's earlier session ends", async () => {
      const { token } = await inviteOverHttp(site, "otto.owner@example.com", "owner");
      const { cookie: earlier } = await joinOverHttp(site, "eve.earlier@example.com", "editor");
      const joined = await postJoin(site, token, { name: "Otto", password: MEMBER_PASSWORD }, { cookie: earlier });
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
      const noName = await postJoin(site, token, { name: "   ", password: MEMBER_PASSWORD });
      expect(noName.status).toBe(400);
      expect(shown(noName)).toContain(INVITATION_TEXT.nameMissing);
      expect(await site.db.selectFrom("admin_users").select("id").where("email", "=", "pat.password@example.com").executeTakeFirst()).toBeUndefined();
      expect((await site.get(`/admin/join?token=${token}`)).status).toBe(200);
    });

    it("says a link has run out after 72 hours", async () => {
      const token = await inviteThroughDomain(site, "old.link@example.com", "editor", new Date(Date.now() - 73 * 60 * 60 * 1000));
      const page = await site.get(`/admin/join?token=${token}`);
      expect(page.status).toBe(410);
      expect(shown(page)).toContain(INVITATION_TEXT.expiredLink);
      const post = await postJoin(site, token, { name: "Old", password: MEMBER_PASSWORD });
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
      const post = await postJoin(site, "B".repeat(43), { name: "Mallory", password: MEMBER_PASSWORD });
      expect(post.status).toBe(404);
      expect(sessionOf(post)).toBeUndefined();
      const { token } = await inviteOverHttp(site, "csrf.target@example.com", "owner");
      const crossSite = await postJoin(site, token, { name: "Mallory", password: MEMBER_PASSWORD }, { origin: "https://evil.example" });
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
      const post = await postJoin(site, token, { name: "Late", password: MEMBER_PASSWORD });
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
      const token = await inviteThroughDomain(site, "quiet.editor@example.com", "editor");
      const accepted = await acceptInvitation(site.db, { token, name: "Quiet", password: MEMBER_PASSWORD, ip: "192.0.2.7" });
      if (!accepted.ok) throw new Error("not accepted");
      const page = shown(await site.get("/admin/projects", { cookie: `${SESSION_COOKIE}=${accepted.token}` }));
      expect(page).toContain("Welcome, quiet.editor@example.com");
      expect(page).not.toContain("Invitation pages turned away");
      expect(shown(await site.get("/admin/projects", { cookie: site.cookie }))).toContain("Invitation pages turned away");
    });
  });
});
