import { useId } from "react";
import { Form, Link, data, redirect, useNavigation } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { AUTH_LINK, AuthCard, AuthError, AuthNotice, AuthSubmit, useFocusOnError, AuthField } from "~/admin/AuthCard";
import { FORGOT_PATH } from "~/admin/LoginScreen";
import { FORGOT_TEXT } from "~/admin/sign-in-texts";
import { RESET_LINK_MS, requestPasswordReset } from "~/auth/password-reset.server";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { siteUrl } from "~/platform/http/context";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { servicesContext } from "~/services";
import type { Route } from "./+types/admin.forgot-password";

/**
 * "Forgot your password?" (decision 053): a page open to anybody, since
 * nobody is signed in. The answer is the same whether or not the address is
 * a member's: every accepted request is sent to the same page by the same
 * redirect, with the same headers, after the same work (the domain's:
 * password-reset.server.ts). Only what was typed (not an address) or the
 * limits (which count addresses, not members) change the answer.
 */
type Failure = { error: string; email: string };

const SENT = `${FORGOT_PATH}?sent`;

export function meta() {
  return [{ title: FORGOT_TEXT.title }, { name: "robots", content: "noindex, nofollow" }];
}

/** Retry-After on a 429, Connection: close on a 413. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function loader({ request, context }: Route.LoaderArgs) {
  const { mail } = context.get(servicesContext);
  return { sent: new URL(request.url).searchParams.has("sent"), mailOn: mail !== undefined, minutes: RESET_LINK_MS / 60_000 };
}

export async function action(args: Route.ActionArgs) {
  assertSameOrigin(args.request);
  return requestWithForm(args);
}

const requestWithForm = withBody(
  (request) => readFormFields(request, ADMIN_FORM_LIMIT, FORGOT_TEXT.notAnAddress),
  (refusal) => data<Failure>({ error: refusal.message, email: "" }, { status: refusal.status, headers: refusal.headers }),
  requestAction,
);

async function requestAction({ request, context }: Route.ActionArgs, fields: Record<string, string>) {
  const services = context.get(servicesContext);
  const { db, mail, outbox, tally, log } = services;
  const email = (fields.email ?? "").trim().slice(0, 254);
  const ip = clientIp(context);
  const answer = await requestPasswordReset(db, { email, clientIp: ip, siteUrl: siteUrl(services, request), mailOn: mail !== undefined, outbox, tally, log });
  if (answer.ok) return redirect(SENT);
  if (answer.reason === "not-an-address") return data<Failure>({ error: FORGOT_TEXT.notAnAddress, email }, { status: 400 });
  if (answer.reason === "limited") {
    return data<Failure>({ error: FORGOT_TEXT.limited, email }, { status: 429, headers: { "Retry-After": String(answer.retryAfterSeconds) } });
  }
  // No mail server: the same for every address, said on the page it sends everyone to.
  log.warn({ ip }, "Password reset requested while e-mail is off (no SMTP_URL): no link can be sent");
  return redirect(SENT);
}

export default function ForgotPasswordRoute({ loaderData, actionData }: Route.ComponentProps) {
  const { sent, mailOn, minutes } = loaderData;
  const navigation = useNavigation();
  const errorId = useId();
  const field = useFocusOnError(actionData?.error);
  const back = (
    <Link to="/admin/sign-in" className={AUTH_LINK}>
      {FORGOT_TEXT.backToSignIn}
    </Link>
  );
  const mailOff = mailOn ? null : <AuthNotice>{FORGOT_TEXT.mailOff}</AuthNotice>;
  if (sent) {
    return (
      <AuthCard title={FORGOT_TEXT.sentTitle} footer={back}>
        <p className="mt-6 text-slate-800" role="status">
          {FORGOT_TEXT.sent(minutes)}
        </p>
        {mailOff ?? <p className="mt-4 text-sm text-slate-600">{FORGOT_TEXT.sentHint}</p>}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={FORGOT_TEXT.title} subtitle={FORGOT_TEXT.subtitle} footer={back}>
      {mailOff}
      <Form method="post" action={FORGOT_PATH} className="mt-8 space-y-5">
        <AuthField
          id="forgot-email"
          label={FORGOT_TEXT.email}
          ref={field}
          name="email"
          type="email"
          required
          autoComplete="username"
          spellCheck={false}
          // Autofocus only on a refused form, so that without JavaScript too the keyboard is back on the field the error describes.
          autoFocus={actionData ? true : undefined}
          defaultValue={actionData?.email}
          aria-invalid={actionData ? true : undefined}
          aria-describedby={actionData ? errorId : undefined}
        />
        {actionData ? <AuthError id={errorId}>{actionData.error}</AuthError> : null}
        <AuthSubmit busy={navigation.state === "submitting"} label={FORGOT_TEXT.submit} busyLabel={FORGOT_TEXT.submitting} />
      </Form>
    </AuthCard>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
