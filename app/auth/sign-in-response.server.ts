import { redirect } from "react-router";
import type { CookieSettings } from "~/platform/http/cookies.server";
import type { Secrets } from "~/platform/db/secrets.server";
import { issueDeviceCookie, type Device } from "./device-cookie.server";
import { clearedPendingSignInCookie } from "./pending-sign-in.server";
import { sessionCookie } from "./sessions.server";

/**
 * The answer to a sign-in that worked, by password or by password and code:
 * the session cookie, the device cookie when this browser did not yet carry
 * this account's, the pending step's cookie cleared when the browser has
 * one, and on to `to`.
 */
export async function signedInRedirect(
  result: { token: string; expiresAt: Date; adminId: string },
  {
    secrets,
    cookie,
    device,
    to,
    clearPending,
    now = Date.now(),
  }: { secrets: Secrets; cookie: CookieSettings; device: Device | undefined; to: string; clearPending: boolean; now?: number },
): Promise<Response> {
  const maxAge = Math.floor((result.expiresAt.getTime() - now) / 1000);
  const headers = new Headers({ "Set-Cookie": sessionCookie(result.token, cookie, maxAge) });
  // This browser has now signed in to the account: it keeps (or gets) the cookie that says so.
  if (device?.adminId !== result.adminId) headers.append("Set-Cookie", await issueDeviceCookie(secrets, result.adminId, cookie));
  if (clearPending) headers.append("Set-Cookie", clearedPendingSignInCookie(cookie));
  return redirect(to, { headers });
}
