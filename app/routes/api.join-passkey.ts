import { JOIN_TEXT } from "~/admin/team-texts";
import { tabPath, tabsAllowed } from "~/admin/tabs";
import { LOGIN_TEXT } from "~/admin/texts";
import { LINK_REFUSAL_STATUS, checkInvitationLink, sessionCookieWouldBeDropped } from "~/auth/join.server";
import { joinPasskeyOptions, joinWithPasskey } from "~/auth/join-passkey.server";
import { withHashSlot } from "~/auth/password.server";
import { relyingParty } from "~/auth/relying-party.server";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { ROLE_LABELS, can } from "~/auth/roles";
import { BUSY_RETRY_AFTER_SECONDS } from "~/auth/sign-in.server";
import { signedInHeaders } from "~/auth/sign-in-response.server";
import { deleteSessionByToken, readSessionToken } from "~/auth/sessions.server";
import { requestContext } from "~/platform/http/context";
import { jsonRefusal, readJsonObject, withBody } from "~/platform/http/request-body.server";
import { servicesContext } from "~/services";
import type { Route } from "./+types/api.join-passkey";

const BODY_LIMIT = 32 * 1024;
const NO_STORE = { "Cache-Control": "no-store" };

/**
 * POST /api/join-passkey: "Join with a passkey" on the invitation's page
 * (decision 054). Open to anybody with the link, never from another site.
 * `{ "step": "options", "token" }` answers the registration options;
 * `{ "step": "verify", "token", "name", "response" }` checks the passkey,
 * makes the member and signs them in (the session and device cookies) →
 * `{ redirect }`, their first tab. Each request takes the place under the
 * limit on links that name no invitation before any lookup, as the page does.
 */
export async function action(args: Route.ActionArgs) {
  assertSameOrigin(args.request);
  if (args.request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  return join(args);
}

const join = withBody(
  (request) => readJsonObject(request, BODY_LIMIT),
  jsonRefusal,
  async ({ request, context }: Route.ActionArgs, body) => {
    const services = context.get(servicesContext);
    const { db, auth, secrets, publicUrl, company, log } = services;
    const refuse = (error: string, status: number, headers?: HeadersInit) => {
      context.get(requestContext).refused(`join with a passkey: ${error}`);
      return Response.json({ error }, { status, headers: { ...NO_STORE, ...headers } });
    };
    const rp = relyingParty(publicUrl, request.url);
    if (!rp.ok) return refuse(rp.message, 400);
    if (sessionCookieWouldBeDropped(request, auth.cookie)) return refuse(LOGIN_TEXT.insecure, 400);
    const token = typeof body.token === "string" ? body.token : "";
    const ip = clientIp(context);
    const link = await checkInvitationLink(services, { token, clientIp: ip, loginRateLimit: auth.loginRateLimit });
    if (!link.ok) {
      if (link.reason === "limited") {
        return refuse(JOIN_TEXT.limited(Math.ceil(link.retryAfterSeconds / 60)), 429, { "Retry-After": String(link.retryAfterSeconds) });
      }
      return refuse(link.message, LINK_REFUSAL_STATUS[link.reason]);
    }

    const now = new Date();
    if (body.step === "options") {
      return Response.json(await joinPasskeyOptions(db, { invitation: link, rp, rpName: company.name, now }), { headers: NO_STORE });
    }
    if (body.step !== "verify" || typeof body.response !== "object" || body.response === null) return refuse(JOIN_TEXT.passkey.invalid, 400);
    const name = typeof body.name === "string" ? body.name : "";
    // The member's password nobody knows is hashed in the same lane as sign-ins.
    const done = await withHashSlot(() => joinWithPasskey(db, { invitation: link, name, response: body.response, ip, now }));
    if (!done) return refuse(JOIN_TEXT.busy, 503, { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) });
    const result = done.value;
    if (!result.ok) {
      if (result.reason === "invalid") return refuse(result.errors.name ?? JOIN_TEXT.passkey.invalid, 400);
      if (result.reason === "passkey-expired") return refuse(JOIN_TEXT.passkey.expired, 400);
      if (result.reason === "passkey-invalid") {
        log.warn({ ip }, `A passkey on an invitation's page refused: ${result.detail ?? "it does not verify"}`);
        return refuse(JOIN_TEXT.passkey.invalid, 400);
      }
      // Used, withdrawn or run out while the passkey was being made.
      return "message" in result ? refuse(result.message, LINK_REFUSAL_STATUS[result.reason]) : refuse(JOIN_TEXT.failure, 409);
    }
    // The browser's earlier session (another member's) ends: one session per browser.
    const previous = readSessionToken(request, auth.cookie);
    if (previous) await deleteSessionByToken(db, previous);
    const headers = await signedInHeaders(result, { secrets, cookie: auth.cookie, device: undefined, clearPending: false });
    headers.set("Cache-Control", "no-store");
    log.info({ ip }, `Member ${result.email} joined the team as ${ROLE_LABELS[result.role]} with a passkey (an invitation accepted)`);
    const first = tabsAllowed((permission) => can(result.role, permission))[0]!;
    return Response.json({ redirect: tabPath(first) }, { headers });
  },
);
