import { useId } from "react";
import { Form, Link, data, useNavigation } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { AUTH_INPUT, AUTH_LINK, AuthCard, AuthError, AuthSubmit, useFocusOnError } from "~/admin/AuthCard";
import { limitedAnswer, returnTo } from "~/admin/sign-in-answers.server";
import { TWO_STEP_PATH, TWO_STEP_TEXT } from "~/admin/sign-in-texts";
import { readDeviceCookie } from "~/auth/device-cookie.server";
import { PENDING_SIGN_IN_MS, clearedPendingSignInCookie, findPendingSignIn, readPendingSignInToken } from "~/auth/pending-sign-in.server";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { readSessionToken } from "~/auth/sessions.server";
import { signedInRedirect } from "~/auth/sign-in-response.server";
import { completeSignInWithCode } from "~/auth/two-step-sign-in.server";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { servicesContext } from "~/services";
import type { Route } from "./+types/admin.two-step";

/**
 * The second step of a sign-in (decision 053): after a right password for a
 * member with two-step sign-in, the sign-in sets the pending step's cookie
 * and sends the browser here. One field: the app's 6-digit code, or (through
 * ?recovery, a plain link) a recovery code. A plain form, so it works
 * without JavaScript. Wrong codes count as failed sign-ins (the domain's
 * completeSignInWithCode); the step ends after PENDING_SIGN_IN_MS or its
 * wrong codes, and the page then says to sign in again (410).
 */
type Page = { state: "code"; recovery: boolean; returnTo: string } | { state: "expired"; minutes: number };
type Failure = { error: string };

const MINUTES = PENDING_SIGN_IN_MS / 60_000;

export function meta() {
  return [{ title: TWO_STEP_TEXT.title }, { name: "robots", content: "noindex, nofollow" }];
}

export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const merged = new Headers(loaderHeaders);
  for (const [name, value] of actionHeaders) merged.append(name, value);
  return merged;
}

/** The step is over (or never began): say so, and drop its cookie. */
function expired(cookie: Parameters<typeof clearedPendingSignInCookie>[0]) {
  return data<Page>({ state: "expired", minutes: MINUTES }, { status: 410, headers: { "Set-Cookie": clearedPendingSignInCookie(cookie) } });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, auth, clock } = context.get(servicesContext);
  const token = readPendingSignInToken(request, auth.cookie);
  if (!token || !(await findPendingSignIn(db, token, clock.now()))) return expired(auth.cookie);
  const url = new URL(request.url);
  return data<Page>({ state: "code", recovery: url.searchParams.has("recovery"), returnTo: returnTo(url.searchParams.get("returnTo")) });
}

export async function action(args: Route.ActionArgs) {
  assertSameOrigin(args.request);
  return codeWithForm(args);
}

const codeWithForm = withBody(
  (request) => readFormFields(request, ADMIN_FORM_LIMIT, TWO_STEP_TEXT.missing),
  (refusal) => data<Failure>({ error: refusal.message }, { status: refusal.status, headers: refusal.headers }),
  codeAction,
);

async function codeAction({ request, context }: Route.ActionArgs, fields: Record<string, string>) {
  const { db, auth, secrets, log, tally, clock } = context.get(servicesContext);
  // "123 456" as some apps show it; a recovery code is read with or without its spaces anyway.
  const code = (fields.code ?? "").replace(/\s+/g, "").slice(0, 64);
  const pendingToken = readPendingSignInToken(request, auth.cookie);
  if (!pendingToken) return expired(auth.cookie);
  if (code === "") return data<Failure>({ error: TWO_STEP_TEXT.missing }, { status: 400 });
  const device = await readDeviceCookie(secrets, request.headers.get("cookie"), auth.cookie);
  const result = await completeSignInWithCode(db, {
    pendingToken,
    code,
    clientIp: clientIp(context),
    limit: auth.loginRateLimit,
    device,
    previousToken: readSessionToken(request, auth.cookie),
    userAgent: request.headers.get("user-agent"),
    log,
  });
  if (result.ok) return signedInRedirect(result, { secrets, cookie: auth.cookie, device, to: returnTo(fields.returnTo), clearPending: true });
  if (result.reason === "expired") return expired(auth.cookie);
  if (result.reason === "limited") return limitedAnswer(result, tally, clock, "");
  if (result.codesLeft === 0) {
    return data<Failure>({ error: TWO_STEP_TEXT.wrongLast }, { status: 401, headers: { "Set-Cookie": clearedPendingSignInCookie(auth.cookie) } });
  }
  return data<Failure>({ error: TWO_STEP_TEXT.wrong(result.codesLeft) }, { status: 401 });
}

export default function TwoStepRoute({ loaderData, actionData }: Route.ComponentProps) {
  const page = actionData && "state" in actionData ? actionData : loaderData;
  const failure = actionData && "error" in actionData ? actionData.error : undefined;
  const navigation = useNavigation();
  const errorId = useId();
  const hintId = useId();
  const field = useFocusOnError(failure);
  const signInAgain = (
    <Link to="/admin/sign-in" className={AUTH_LINK}>
      {page.state === "expired" ? TWO_STEP_TEXT.startAgain : TWO_STEP_TEXT.cancel}
    </Link>
  );
  if (page.state === "expired") {
    return (
      <AuthCard title={TWO_STEP_TEXT.expiredTitle} footer={signInAgain}>
        {/* After the last wrong code the step is over: the page says why. */}
        <p className="mt-6 text-slate-800" role={failure ? "alert" : undefined}>
          {failure ?? TWO_STEP_TEXT.expired(page.minutes)}
        </p>
      </AuthCard>
    );
  }
  const { recovery } = page;
  // The page's own address (so a refused code shows the same field again, and still goes on to returnTo), and the other kind of code's.
  const here = twoStepAddress(recovery, page.returnTo);
  const other = twoStepAddress(!recovery, page.returnTo);
  return (
    <AuthCard title={TWO_STEP_TEXT.title} subtitle={recovery ? TWO_STEP_TEXT.recoverySubtitle : TWO_STEP_TEXT.subtitle} footer={signInAgain}>
      <Form method="post" action={here} className="mt-8 space-y-5">
        <input type="hidden" name="returnTo" value={page.returnTo} />
        <div>
          <label htmlFor="two-step-code" className="block text-sm font-medium text-slate-800">
            {recovery ? TWO_STEP_TEXT.recoveryCode : TWO_STEP_TEXT.code}
          </label>
          <p id={hintId} className="mt-1 text-sm text-slate-600">
            {recovery ? TWO_STEP_TEXT.recoveryHint : TWO_STEP_TEXT.codeHint}
          </p>
          <input
            // A new field when the kind of code changes, so nothing typed for one is kept for the other.
            key={recovery ? "recovery" : "app"}
            ref={field}
            id="two-step-code"
            name="code"
            type="text"
            required
            // biome-ignore lint/a11y/noAutofocus: the page is this one field, reached straight from the password: typing goes on where it was.
            autoFocus
            spellCheck={false}
            autoCapitalize="none"
            {...(recovery
              ? { autoComplete: "off", inputMode: "text" as const, maxLength: 40 }
              : { autoComplete: "one-time-code", inputMode: "numeric" as const, pattern: "[0-9 ]*", maxLength: 7 })}
            aria-invalid={failure ? true : undefined}
            aria-describedby={failure ? `${hintId} ${errorId}` : hintId}
            className={`${AUTH_INPUT} font-mono tracking-widest`}
          />
        </div>
        {failure ? <AuthError id={errorId}>{failure}</AuthError> : null}
        <AuthSubmit busy={navigation.state === "submitting"} label={TWO_STEP_TEXT.submit} busyLabel={TWO_STEP_TEXT.submitting} />
      </Form>
      <p className="mt-4 text-center text-sm">
        <Link to={other} className={AUTH_LINK}>
          {recovery ? TWO_STEP_TEXT.useApp : TWO_STEP_TEXT.useRecovery}
        </Link>
      </p>
    </AuthCard>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}

function twoStepAddress(recovery: boolean, to: string): string {
  const query = [...(recovery ? ["recovery"] : []), ...(to === "/admin" ? [] : [`returnTo=${encodeURIComponent(to)}`])].join("&");
  return query ? `${TWO_STEP_PATH}?${query}` : TWO_STEP_PATH;
}
