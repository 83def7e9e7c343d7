/**
 * Roles over HTTP, on the built server (issue 21): a member is refused (403,
 * one log line saying why) outside their role, before any body is read, and
 * let through inside it; a demoted or removed member's next request finds no
 * session. The walk of every admin route by every role comes with the admin
 * routes of issue 20; this covers today's routes by what each role may do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberActor, type MemberActor } from "~/audit/actor";
import { acceptInvitation, inviteMember } from "~/auth/invitations.server";
import type { Role } from "~/auth/roles";
import { findSession } from "~/auth/sessions.server";
import { changeRole, removeMember } from "~/auth/team.server";
import { backends } from "../support/backends";
import { postAdminForm, startSignedInServer, type SignedInServer } from "../support/admin-http";
import { rawRequest, type RawResponse } from "../support/http";
import { twoToneJpeg } from "../support/images";
import { logLines } from "../support/server";

const PASSWORD = "a long password for a member";

describe.each(backends)("roles over HTTP on $name", (backend) => {
  let site: SignedInServer;
  const cookies: Partial<Record<Role, string>> = {};
  const ids: Partial<Record<Role, string>> = {};
  /** The owner the server made at start (ADMIN_EMAIL). */
  let owner: MemberActor;

  /** A member of the role, by invitation (e-mail is off in the test server's database calls), with a session cookie. */
  async function join(role: Role): Promise<void> {
    const invited = await inviteMember(site.reader.db, { email: `${role}@example.com`, role }, owner, { mail: undefined, companyName: "Test", siteUrl: site.server.url });
    if (!invited.ok || invited.delivery.kind !== "link") throw new Error("not invited");
    const token = new URL(invited.delivery.link).searchParams.get("token")!;
    const accepted = await acceptInvitation(site.reader.db, { token, name: `The ${role}`, password: PASSWORD, ip: "127.0.0.1" });
    if (!accepted.ok) throw new Error("not accepted");
    cookies[role] = `__Host-admin_session=${accepted.token}`;
    ids[role] = accepted.adminId;
  }

  beforeAll(async () => {
    site = await startSignedInServer(backend);
    cookies.owner = site.cookie;
    const admin = await site.reader.db.selectFrom("admin_users").select(["id", "email"]).executeTakeFirstOrThrow();
    owner = memberActor({ adminId: admin.id, email: admin.email, role: "owner" }, "127.0.0.1");
    await join("editor");
    await join("enquiries");
  });
  afterAll(async () => {
    await site?.server.stop();
    await site?.database.cleanup();
  });

  const get = (role: Role, path: string) => rawRequest(site.server.port, { method: "GET", path, headers: { cookie: cookies[role]! } });
  const post = (role: Role, path: string, fields: Record<string, string>) => postAdminForm(site.server, cookies[role]!, path, fields);

  /** The server's log lines written while `send` ran (the request's own line is written when its response is done). */
  async function withLog(send: () => Promise<RawResponse>): Promise<{ response: RawResponse; lines: ReturnType<typeof logLines> }> {
    const before = logLines(site.server.stdout()).length;
    const response = await send();
    await new Promise((resolve) => setTimeout(resolve, 400));
    return { response, lines: logLines(site.server.stdout()).slice(before) };
  }

  it.each([
    ["editor", "GET", "/admin?tab=contacts", "Contact Submissions"],
    ["editor", "GET", "/admin/data-requests", "the data requests"],
    ["editor", "GET", "/admin/enquiries.csv", "the CSV export of Contact Submissions"],
    ["editor", "GET", "/api/admin/enquiries", "Contact Submissions"],
    ["editor", "POST", "/admin/data-requests", "the data requests"],
    ["enquiries", "GET", "/admin?tab=projects", "Renovation Projects"],
    ["enquiries", "GET", "/admin/website", "the Website tab"],
    ["enquiries", "GET", "/admin/website/preview", "the Website tab"],
    ["enquiries", "POST", "/admin/website", "the Website tab"],
  ] as const)("refuses the %s %s %s with 403 and one log line", async (role, method, path, what) => {
    const subject = role === "editor" ? "An Editor" : "An Enquiries member";
    const { response, lines } = await withLog(() => (method === "GET" ? get(role, path) : post(role, path, { intent: "erase", email: "someone@example.com", revision: "0" })));
    expect(response.status).toBe(403);
    const message = `${subject} may not use ${what}.`;
    if (path.startsWith("/api/")) expect(JSON.parse(response.text)).toEqual({ error: message });
    else expect(response.text).toContain(message.replace(/'/g, "&#x27;"));
    // The log is written a few lines at a time: other lines of the moment may come with it; this request's are one.
    const own = lines.filter((line) => line.reqId === response.headers["x-request-id"]);
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ msg: "request", status: 403 });
    expect(String(own[0]!.reason)).toMatch(/^role (Editor|Enquiries) may not use /);
    expect(lines.filter((line) => line !== own[0] && (line.level === "warn" || line.level === "error")), "nothing else said about it").toEqual([]);
  });

  it("refuses an upload outside the role before reading its body", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await twoToneJpeg(64, 48))], { type: "image/jpeg" }), "photo.jpg");
    const response = await fetch(`${site.server.url}/api/admin/images`, { method: "POST", headers: { cookie: cookies.enquiries!, origin: site.server.url }, body: form });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "An Enquiries member may not use Renovation Projects." });
    expect(await site.reader.db.selectFrom("images").selectAll().execute()).toEqual([]);
  });

  it("lets each role use its own tabs, and lands an Enquiries member on Contact Submissions", async () => {
    expect((await get("editor", "/admin")).status).toBe(200);
    expect((await get("editor", "/admin/website")).status).toBe(200);
    const inbox = await get("enquiries", "/admin");
    expect(inbox.status).toBe(200);
    expect(inbox.text).toContain("Contact Submissions");
    expect((await get("enquiries", "/admin/enquiries.csv")).status).toBe(200);
    expect((await get("enquiries", "/admin/data-requests")).status).toBe(200);
    for (const path of ["/admin?tab=contacts", "/admin/website", "/admin/data-requests"]) expect((await get("owner", path)).status, path).toBe(200);
  });

  it("lets an Editor save the site's ordinary sections but not its legal details", async () => {
    const page = await get("editor", "/admin/website?section=fees");
    const revision = /name="revision" value="(\d+)"/.exec(page.text)?.[1] ?? "0";
    const refused = await post("editor", "/admin/website", { intent: "save-section", section: "fees", revision, "fees.vatStatus": "included" });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("Only an owner can change the Fees, Legal details and Policies sections.");
    const entries = await site.reader.db.selectFrom("audit_log").select("action").where("actor_id", "=", ids.editor!).execute();
    expect(entries.map((row) => row.action)).not.toContain("website-saved");
  });

  it("ends a demoted member's session at their next request, and a removed member's", async () => {
    expect((await get("editor", "/admin")).status).toBe(200);
    expect((await changeRole(site.reader.db, ids.editor!, "enquiries", owner)).ok).toBe(true);
    const next = await get("editor", "/admin");
    expect(next.status, "the sign-in form").toBe(200);
    expect(next.text).toContain("Admin Login");
    expect((await get("editor", "/api/admin/enquiries")).status).toBe(401);

    expect((await removeMember(site.reader.db, ids.enquiries!, owner)).ok).toBe(true);
    expect(await findSession(site.reader.db, cookies.enquiries!.split("=")[1]!)).toBeUndefined();
    expect((await get("enquiries", "/api/admin/enquiries")).status).toBe(401);
  });
});
