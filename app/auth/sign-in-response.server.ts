import { redirect } from "react-router";
import type { CookieSettings } from "~/platform/http/cookies.server";
import type { Secrets } from "~/platform/db/secrets.server";
import { issueDeviceCookie, type Device } from "./device-cookie.server";
import { clearedPendingSignInCookie } from "./pending-sign-in.server";
import { sessionCookie } from "./sessions.server";

type SignedIn = { token: string; expiresAt: Date; adminId: string };
type Cookies = { secrets: Secrets; cookie: CookieSettings; device: Device | undefined; clearPending: boolean; now?: number };

/**
 * The cookies of a sign-in that worked, by password, by password and code,
 * or by passkey: the session cookie, the device cookie when this browser did
 * not yet carry this account's, and the pending step's cookie cleared when
 * the browser has one.
 */
export async function signedInHeaders(result: SignedIn, { secrets, cookie, device, clearPending, now = Date.now() }: Cookies): Promise<Headers> {
  const maxAge = Math.floor((result.expiresAt.getTime() - now) / 1000);
  const headers = new Headers({ "Set-Cookie": sessionCookie(result.token, cookie, maxAge) });
  // This browser has now signed in to the account: it keeps (or gets) the cookie that says so.
  if (device?.adminId !== result.adminId) headers.append("Set-Cookie", await issueDeviceCookie(secrets, result.adminId, cookie));
  if (clearPending) headers.append("Set-Cookie", clearedPendingSignInCookie(cookie));
  return headers;
}

/** The answer to a sign-in through a form that worked: its cookies, and on to `to`. */
export async function signedInRedirect(result: SignedIn, { to, ...cookies }: Cookies & { to: string }): Promise<Response> {
  return redirect(to, { headers: await signedInHeaders(result, cookies) });
}
