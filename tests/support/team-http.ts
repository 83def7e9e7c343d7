import { expect } from "vitest";
import { memberActor } from "~/audit/actor";
import { inviteMember } from "~/auth/invitations.server";
import type { Role } from "~/auth/roles";
import { TEST_ADMIN } from "./admin-http";
import { visibleText } from "./html";
import { rawRequest, type RawResponse } from "./http";
import type { Site } from "./sites";

/** The team over HTTP (tests/integration/team-http.test.ts, join-http.test.ts): inviting, joining, and reading the pages. */

export const MEMBER_PASSWORD = "a long password for the new member";
export const SESSION_COOKIE = "__Host-admin_session";
/** An invitation's link, as a page or an e-mail shows it; its token in the group. */
export const INVITATION_LINK = /https?:\/\/[^"\s<]+\/admin\/join\?token=([A-Za-z0-9_-]{43})/;
/** What a person reads on the page: its text, entities decoded as a browser shows them (and a label's colon after it). */
export function shown(response: RawResponse): string {
  return visibleText(response.text)
    .replace(/ :/g, ":")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

/** The session cookie a response sets, as "name=value" for a Cookie header. */
export function sessionOf(response: RawResponse): string | undefined {
  const cookies = (response.headers["set-cookie"] ?? []) as string[];
  return cookies.find((cookie) => new RegExp(`^${SESSION_COOKIE}=[^;]+`).test(cookie))?.split(";")[0];
}

/** A browser's form POST without a session (the invitation's page) from the site itself. */
export function postJoin(site: Site, token: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(site.server.port, {
    method: "POST",
    path: `/admin/join?token=${encodeURIComponent(token)}`,
    headers: { origin: site.server.url, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** The owner invites through the Team tab with e-mail off; the link shown on the page. */
export async function inviteOverHttp(site: Site, email: string, role: Role): Promise<{ response: RawResponse; token: string }> {
  const response = await site.postForm("/admin/team", { intent: "invite", email, role });
  expect(response.status, shown(response).slice(0, 300)).toBe(200);
  const token = INVITATION_LINK.exec(response.text)?.[1];
  expect(token, "the invitation link on the page").toBeDefined();
  return { response, token: token! };
}

/** A member of the role, by invitation and its page over HTTP; their id and session cookie. */
export async function joinOverHttp(site: Site, email: string, role: Role): Promise<{ id: string; cookie: string }> {
  const { token } = await inviteOverHttp(site, email, role);
  const joined = await postJoin(site, token, { name: `Member ${role}`, password: MEMBER_PASSWORD });
  expect(joined.status, shown(joined).slice(0, 300)).toBe(302);
  const row = await site.db.selectFrom("admin_users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return { id: row.id, cookie: sessionOf(joined)! };
}

/** The id of the owner the site made at start (ADMIN_EMAIL). */
export async function ownerId(site: Site): Promise<string> {
  return (await site.db.selectFrom("admin_users").select("id").where("email", "=", TEST_ADMIN.email).executeTakeFirstOrThrow()).id;
}

/** Whether a session cookie still signs in: the Team tab's GET for an owner, a tab of theirs for anyone (the sign-in form when not). */
export async function signedIn(site: Site, cookie: string, path = "/admin"): Promise<boolean> {
  const response = await site.get(path, { cookie });
  expect(response.status).toBeLessThan(500);
  return response.status === 200 && !shown(response).includes("Admin Login");
}

/** An invitation made through the domain by the site's owner (e-mail off), as from elsewhere; its link's token. */
export async function inviteThroughDomain(site: Site, email: string, role: Role, now?: Date): Promise<string> {
  const owner = memberActor({ adminId: await ownerId(site), email: TEST_ADMIN.email, role: "owner" }, "127.0.0.1");
  const invited = await inviteMember(site.db, { email, role }, owner, { mail: undefined, companyName: "Test", siteUrl: site.server.url, now });
  if (!invited.ok || invited.delivery.kind !== "link") throw new Error(`${email} was not invited`);
  return new URL(invited.delivery.link).searchParams.get("token")!;
}
