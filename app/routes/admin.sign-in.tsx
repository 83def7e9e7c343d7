import { data, redirect } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { LoginScreen, type SignInFailure } from "~/admin/LoginScreen";
import { LOGIN_TEXT } from "~/admin/texts";
import { DASHBOARD_PATH } from "~/admin/tabs";
import { TWO_STEP_PATH } from "~/admin/sign-in-texts";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { readDeviceCookie } from "~/auth/device-cookie.server";
import { pendingSignInCookie, readPendingSignInToken } from "~/auth/pending-sign-in.server";
import { readSessionToken } from "~/auth/sessions.server";
import { signedInRedirect } from "~/auth/sign-in-response.server";
import { limitedAnswer, returnTo } from "~/admin/sign-in-answers.server";
import { signIn } from "~/auth/sign-in.server";
import { servicesContext } from "~/services";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import type { Route } from "./+types/admin.sign-in";

export function meta() {
  return [{ title: "Admin Login" }, { name: "robots", content: "noindex, nofollow" }];
}

/** Headers an action sets (Retry-After on a 429, Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Sign-in: the one admin action outside the admin layout's session check, since
 * nobody is signed in yet. It still refuses other sites' posts (login CSRF).
 */
export async function action(args: Route.ActionArgs) {
  assertSameOrigin(args.request);
  return signInWithForm(args);
}

const signInWithForm = withBody(
  (request) => readFormFields(request, ADMIN_FORM_LIMIT, LOGIN_TEXT.missing),
  (refusal) => data<SignInFailure>({ error: refusal.message, email: "" }, { status: refusal.status, headers: refusal.headers }),
  signInAction,
);

async function signInAction({ request, context }: Route.ActionArgs, fields: Record<string, string>) {
  const { db, auth, secrets, log, tally, clock } = context.get(servicesContext);
  const email = (fields.email ?? "").trim().slice(0, 254);
  const password = fields.password ?? "";
  if (email === "" || password === "") return data<SignInFailure>({ error: LOGIN_TEXT.missing, email }, { status: 400 });

  // A Secure cookie sent over plain HTTP is dropped by the browser, and the
  // sign-in would seem to do nothing: say why instead.
  const url = new URL(request.url);
  if (auth.cookie.secure && url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname)) {
    return data<SignInFailure>({ error: LOGIN_TEXT.insecure, email }, { status: 400 });
  }

  const device = await readDeviceCookie(secrets, request.headers.get("cookie"), auth.cookie);
  const result = await signIn(db, {
    email,
    // Longer than any password we accept: refuse it without spending a hash on it.
    password: password.length > 1024 ? "" : password,
    clientIp: clientIp(context),
    limit: auth.loginRateLimit,
    previousToken: readSessionToken(request, auth.cookie),
    device,
    userAgent: request.headers.get("user-agent"),
    log,
  });
  if (!result.ok) {
    if (result.reason === "invalid") return data<SignInFailure>({ error: LOGIN_TEXT.failure, email }, { status: 401 });
    if (result.reason === "second-step") {
      // The password was right: the code comes next, on its own page, with the pending step's cookie.
      const maxAge = Math.max(1, Math.floor((result.expiresAt.getTime() - Date.now()) / 1000));
      return redirect(twoStepPath(returnTo(fields.returnTo)), { headers: { "Set-Cookie": pendingSignInCookie(result.pendingToken, auth.cookie, maxAge) } });
    }
    return limitedAnswer(result, tally, clock, email);
  }
  // A pending step left from an earlier try (a password right, no code) is over.
  const clearPending = readPendingSignInToken(request, auth.cookie) !== undefined;
  return signedInRedirect(result, { secrets, cookie: auth.cookie, device, to: returnTo(fields.returnTo), clearPending });
}

/** The two-step code's page, carrying where to go after it when that is not the dashboard. */
function twoStepPath(to: string): string {
  return to === DASHBOARD_PATH ? TWO_STEP_PATH : `${TWO_STEP_PATH}?${new URLSearchParams({ returnTo: to })}`;
}

/**
 * The form lives at /admin; this page shows it again as the answer to a
 * sign-in posted without JavaScript that did not sign in.
 */
export default function SignInRoute({ actionData }: Route.ComponentProps) {
  return <LoginScreen result={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
