import { PASSKEY_SIGN_IN_TEXT } from "~/admin/account-texts";
import { LOGIN_TEXT } from "~/admin/texts";
import { DASHBOARD_PATH, returnPath } from "~/admin/tabs";
import { passkeySignInOptions, signInWithPasskey } from "~/auth/passkeys.server";
import { relyingParty } from "~/auth/relying-party.server";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { readDeviceCookie } from "~/auth/device-cookie.server";
import { readSessionToken } from "~/auth/sessions.server";
import { signedInHeaders } from "~/auth/sign-in-response.server";
import { LOGIN_WINDOW_MS, MIN_ADDRESS_ATTEMPTS } from "~/auth/sign-in.server";
import { countEvents, ipLimitSubject } from "~/platform/limits/rate-limit.server";
import { jsonRefusal, readJsonObject, withBody } from "~/platform/http/request-body.server";
import { servicesContext } from "~/services";
import type { Route } from "./+types/api.passkey-sign-in";

const PASSKEY_BODY_LIMIT = 32 * 1024;

/**
 * POST /api/passkey-sign-in: "Sign in with a passkey" on the sign-in form.
 * Open to anybody (nobody is signed in yet) but never from another site.
 * `{ "step": "options" }` answers the authentication options (a challenge
 * for any passkey of this site); `{ "step": "verify", "response": …,
 * "returnTo": "/admin/…" }` checks the passkey, sets the session cookie and
 * answers `{ redirect }`. Each check takes a place under the per-address
 * sign-in limit first (LOGIN_RATE_LIMIT, as for passwords); a wrong passkey
 * is a failed sign-in, counted as the sign-in form's are (decision 043).
 */
export async function action(args: Route.ActionArgs) {
  assertSameOrigin(args.request);
  if (args.request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  return passkeySignIn(args);
}

const passkeySignIn = withBody(
  (request) => readJsonObject(request, PASSKEY_BODY_LIMIT),
  jsonRefusal,
  async ({ request, context }: Route.ActionArgs, body) => {
    const { db, auth, publicUrl, log, tally, clock, secrets } = context.get(servicesContext);
    const rp = relyingParty(publicUrl, request.url);
    if (!rp.ok) return Response.json({ error: rp.message }, { status: 400 });
    if (body.step === "options") {
      // An address whose sign-in places are all taken gets no more challenges either (nothing is taken here: the verify step takes its place).
      const used = await countEvents(db, "login-address", ipLimitSubject(clientIp(context)), LOGIN_WINDOW_MS);
      if (used >= Math.max(MIN_ADDRESS_ATTEMPTS, 4 * auth.loginRateLimit)) {
        tally.count("sign-in-refused-limit", clock.now());
        return Response.json({ error: LOGIN_TEXT.limited }, { status: 429, headers: { "Retry-After": String(LOGIN_WINDOW_MS / 1000) } });
      }
      return Response.json(await passkeySignInOptions(db, rp, new Date()), { headers: { "Cache-Control": "no-store" } });
    }
    if (body.step !== "verify" || typeof body.response !== "object" || body.response === null) {
      return Response.json({ error: PASSKEY_SIGN_IN_TEXT.invalid }, { status: 400 });
    }
    const result = await signInWithPasskey(db, {
      response: body.response,
      clientIp: clientIp(context),
      limit: auth.loginRateLimit,
      previousToken: readSessionToken(request, auth.cookie),
      userAgent: request.headers.get("user-agent"),
      log,
    });
    if (!result.ok) {
      if (result.reason === "limited") {
        tally.count("sign-in-refused-limit", clock.now());
        return Response.json({ error: LOGIN_TEXT.limited }, { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } });
      }
      const words = { expired: PASSKEY_SIGN_IN_TEXT.expired, "unknown-passkey": PASSKEY_SIGN_IN_TEXT.unknown, invalid: PASSKEY_SIGN_IN_TEXT.invalid };
      return Response.json({ error: words[result.reason] }, { status: result.reason === "expired" ? 400 : 401 });
    }
    const to = returnPath(typeof body.returnTo === "string" ? body.returnTo : undefined) ?? DASHBOARD_PATH;
    // The same cookies as a sign-in by password: the session, and the device cookie that gives this browser its own sign-in lane.
    const device = await readDeviceCookie(secrets, request.headers.get("cookie"), auth.cookie);
    const headers = await signedInHeaders(result, { secrets, cookie: auth.cookie, device, clearPending: false });
    headers.set("Cache-Control", "no-store");
    return Response.json({ redirect: to }, { headers });
  },
);
