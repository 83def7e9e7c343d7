/**
 * Roles over HTTP, on the built server (issue 21): every admin route of
 * app/routes.ts, by every role, by GET (its loader) and by POST (its action),
 * is refused outside the role (403, one log line saying why) before any body
 * is read, and let through inside it; the walk's table names what each route
 * requires, and a route the table does not know fails it. A demoted or
 * removed member's next request finds no session.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { memberActor, type MemberActor } from "~/audit/actor";
import { acceptInvitation, inviteMember } from "~/auth/invitations.server";
import { refusalMessage } from "~/auth/require-role.server";
import { ROLES, ROLE_LABELS, can, type Permission, type Role } from "~/auth/roles";
import { findSession } from "~/auth/sessions.server";
import { changeRole, removeMember } from "~/auth/team.server";
import { backends } from "../support/backends";
import { postAdminForm } from "../support/admin-http";
import { useSite } from "../support/sites";
import { rawRequest } from "../support/http";
import { twoToneJpeg } from "../support/images";
import { OPEN_TO_ANYBODY, appRoutes, handlersOf, type AppRoute } from "../support/routes";
import { logLines } from "../support/server";

const PASSWORD = "a long password for a member";

/**
 * What each admin route requires, by its path in app/routes.ts (an index
 * route: " (index)" after it). "member": any signed-in member (the dashboard
 * around the tabs, signing out). `otherwise`: where a member without the
 * permission is sent instead of being refused (/admin opens on their own tab).
 */
const REQUIRES: Record<string, { permission: Permission | "member"; otherwise?: string }> = {
  admin: { permission: "member" },
  "admin (index)": { permission: "projects", otherwise: "/admin/enquiries" },
  "admin/projects": { permission: "projects" },
  "admin/enquiries": { permission: "enquiries" },
  "admin/website": { permission: "website" },
  "admin/team": { permission: "team" },
  "admin/team/audit": { permission: "audit-log" },
  "admin/enquiries/settings": { permission: "enquiry-settings" },
  "admin/enquiries/reply": { permission: "enquiries" },
  "admin/team/audit.csv": { permission: "audit-log" },
  "admin/sign-out": { permission: "member" },
  "admin/enquiries.csv": { permission: "enquiries-export" },
  "admin/enquiries/figures.csv": { permission: "enquiries-export" },
  "admin/data-requests": { permission: "data-requests" },
  "admin/website/preview": { permission: "website" },
  "api/admin/enquiries": { permission: "enquiries" },
  "api/admin/images": { permission: "projects" },
  // The member's own account, and adding a passkey to it.
  "admin/account": { permission: "member" },
  "api/admin/passkeys": { permission: "member" },
};

const nameOf = (route: AppRoute) => (route.index ? `${route.path} (index)` : route.path);

/** The admin routes (under the session's layout) with a loader or an action: the open ones and the public pages are not. */
async function adminRoutes(): Promise<Array<{ name: string; path: string; handlers: Array<"loader" | "action"> }>> {
  const routes = (await appRoutes()).filter((route) => /^(admin|api\/admin)(\/|$)/.test(route.path) && !OPEN_TO_ANYBODY.has(route.path));
  const found = [];
  for (const route of routes) {
    const handlers = await handlersOf(route);
    if (handlers.length > 0) found.push({ name: nameOf(route), path: `/${route.path}`, handlers });
  }
  return found;
}

describe.each(backends)("roles over HTTP on $name", (backend) => {
  const site = useSite(backend);
  const cookies: Partial<Record<Role, string>> = {};
  const ids: Partial<Record<Role, string>> = {};
  /** The owner the server made at start (ADMIN_EMAIL). */
  let owner: MemberActor;

  /** A member of the role, by invitation (e-mail is off in the test server's database calls), with a session cookie. */
  async function join(role: Role): Promise<void> {
    const invited = await inviteMember(site.reader.db, { email: `${role}@example.com`, role }, owner, {
      mail: undefined,
      companyName: "Test",
      siteUrl: site.server.url,
    });
    if (!invited.ok || invited.delivery.kind !== "link") throw new Error("not invited");
    const token = new URL(invited.delivery.link).searchParams.get("token")!;
    const accepted = await acceptInvitation(site.reader.db, { token, name: `The ${role}`, password: PASSWORD, ip: "127.0.0.1" });
    if (!accepted.ok) throw new Error("not accepted");
    cookies[role] = `__Host-admin_session=${accepted.token}`;
    ids[role] = accepted.adminId;
  }

  beforeAll(async () => {
    cookies.owner = site.cookie;
    const admin = await site.reader.db.selectFrom("admin_users").select(["id", "email"]).executeTakeFirstOrThrow();
    owner = memberActor({ adminId: admin.id, email: admin.email, role: "owner" }, "127.0.0.1");
    await join("editor");
    await join("enquiries");
  });

  const get = (role: Role, path: string) => rawRequest(site.server.port, { method: "GET", path, headers: { cookie: cookies[role]! } });
  const post = (role: Role, path: string, fields: Record<string, string>) => postAdminForm(site.server, cookies[role]!, path, fields);

  it("knows what every admin route requires", async () => {
    expect((await adminRoutes()).map((route) => route.name).sort()).toEqual(Object.keys(REQUIRES).sort());
  });

  it("refuses every admin route outside the role, by GET and by POST, with 403 and one log line; lets the role through", async () => {
    const before = logLines(site.server.stdout()).length;
    const refused: Array<{ requestId: string; role: Role; permission: Permission; what: string }> = [];
    let walked = 0;
    for (const route of await adminRoutes()) {
      const { permission, otherwise } = REQUIRES[route.name]!;
      for (const handler of route.handlers) {
        // Signing out ends the session the walk goes on with; any member may, so there is nothing to refuse.
        if (route.name === "admin/sign-out" && handler === "action") continue;
        for (const role of ROLES) {
          walked += 1;
          const what = `${role} ${handler === "loader" ? "GET" : "POST"} ${route.path}`;
          const response = handler === "loader" ? await get(role, route.path) : await post(role, route.path, {});
          if (permission === "member" || can(role, permission)) {
            expect(response.status, what).not.toBe(403);
            expect(response.status, what).toBeLessThan(500);
            continue;
          }
          if (otherwise !== undefined) {
            expect([response.status, response.headers.location], what).toEqual([302, otherwise]);
            continue;
          }
          expect(response.status, what).toBe(403);
          const message = refusalMessage({ role }, permission);
          if (route.path.startsWith("/api/")) expect(JSON.parse(response.text), what).toEqual({ error: message });
          else expect(response.text, what).toContain(message.replace(/'/g, "&#x27;"));
          refused.push({ requestId: String(response.headers["x-request-id"]), role, permission, what });
        }
      }
    }
    // 19 routes; their 28 handlers but signing out's action; 3 roles each.
    expect(walked).toBe(81);
    // An Editor: Contact Submissions (2), its reply page (2), its CSV (1), its figures' CSV (1) and API (1), the data requests (2);
    // an Enquiries member: Renovation Projects (2) and its uploads (1), the Website tab (2) and its preview (1); both: the Team
    // tab (2), the Audit log (1) and its CSV (1), the enquiries' settings (2). /admin sends them on instead.
    expect(refused).toHaveLength(27);
    // The log is written a few lines at a time: each refusal's own request line, and nothing else said about any.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const lines = logLines(site.server.stdout()).slice(before);
    for (const { requestId, role, permission, what } of refused) {
      const own = lines.filter((line) => line.reqId === requestId);
      expect(own, what).toHaveLength(1);
      expect(own[0], what).toMatchObject({ msg: "request", status: 403 });
      expect(String(own[0]!.reason), what).toBe(`role ${ROLE_LABELS[role]} may not use ${permission}`);
    }
    expect(lines.filter((line) => line.level === "warn" || line.level === "error")).toEqual([]);
  });

  it("refuses an upload outside the role before reading its body", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(await twoToneJpeg(64, 48))], { type: "image/jpeg" }), "photo.jpg");
    const response = await fetch(`${site.server.url}/api/admin/images`, {
      method: "POST",
      headers: { cookie: cookies.enquiries!, origin: site.server.url },
      body: form,
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "An Enquiries member may not use Renovation Projects." });
    expect(await site.reader.db.selectFrom("images").selectAll().execute()).toEqual([]);
  });

  it("shows each role only its own tabs, and opens the dashboard on the first of them", async () => {
    const tabsOn = (text: string) => [...text.matchAll(/id="tab-(\w+)"/g)].map((match) => match[1]);
    expect(tabsOn((await get("owner", "/admin")).text)).toEqual(["projects", "enquiries", "website", "team"]);
    const editor = await get("editor", "/admin");
    expect(editor.status).toBe(200);
    expect(tabsOn(editor.text)).toEqual(["projects", "website"]);
    const landing = await get("enquiries", "/admin");
    expect([landing.status, landing.headers.location]).toEqual([302, "/admin/enquiries"]);
    const inbox = await get("enquiries", "/admin/enquiries");
    expect(inbox.status).toBe(200);
    expect(tabsOn(inbox.text)).toEqual(["enquiries"]);
  });

  it("moves the old ?tab= addresses as before, and the tab they lead to checks the role", async () => {
    const moved = await get("editor", "/admin?tab=contacts&filter=unread");
    expect([moved.status, moved.headers.location]).toEqual([301, "/admin/enquiries?filter=unread"]);
    expect((await get("editor", "/admin/enquiries?filter=unread")).status).toBe(403);
    // A value that never was a tab led to the first tab: the member's own.
    const unknown = await get("enquiries", "/admin?tab=nonsense&q=boiler");
    expect([unknown.status, unknown.headers.location]).toEqual([301, "/admin/enquiries?q=boiler"]);
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
