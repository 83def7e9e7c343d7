import { useId } from "react";
import { Form, Link, data, redirect, useNavigation } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { AUTH_LINK, AuthCard, AuthError, AuthSubmit, useFocusOnError, AuthField } from "~/admin/AuthCard";
import { FORGOT_PATH, PASSWORD_RESET_DONE_PATH } from "~/admin/LoginScreen";
import { RESET_TEXT } from "~/admin/sign-in-texts";
import { AdminError } from "~/auth/admins.server";
import { withHashSlot } from "~/auth/password.server";
import { RESET_LINK_MS, checkResetLink, resetPassword, type ResetLink } from "~/auth/password-reset.server";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { PASSWORD_RULES, passwordProblem } from "~/platform/password-rules";
import { servicesContext } from "~/services";
import type { Route } from "./+types/admin.reset-password";

/**
 * The page an e-mailed reset link opens (/admin/reset-password?token=…):
 * the new password, twice. Setting it uses the link up, ends every session
 * of the member (the domain's resetPassword) and sends them to sign in with
 * it (decision 053: a link proves the mailbox, not a second factor). A link
 * made up, used or expired is a 4xx page that says which, never a 500.
 */
type LinkRefused = Extract<ResetLink, { ok: false }>["reason"];
type Page = { state: "ok"; email: string; token: string } | { state: LinkRefused; minutes: number };
type Failure = { error: string };

/** Not found for a link we never made; gone for one that was ours. */
const STATUS: Record<LinkRefused, number> = { invalid: 404, expired: 410, used: 410 };
const MINUTES = RESET_LINK_MS / 60_000;

export function meta() {
  return [{ title: RESET_TEXT.title }, { name: "robots", content: "noindex, nofollow" }];
}

/** The loader's status reaches a document request; an action's headers (Retry-After, Connection: close) too. */
export function headers({ actionHeaders, loaderHeaders }: Route.HeadersArgs) {
  const merged = new Headers(loaderHeaders);
  for (const [name, value] of actionHeaders) merged.set(name, value);
  return merged;
}

function refusedLink(reason: LinkRefused) {
  return data<Page>({ state: reason, minutes: MINUTES }, { status: STATUS[reason] });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db } = context.get(servicesContext);
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const link = await checkResetLink(db, token);
  if (!link.ok) return refusedLink(link.reason);
  return data<Page>({ state: "ok", email: link.email, token });
}

export async function action(args: Route.ActionArgs) {
  assertSameOrigin(args.request);
  return resetWithForm(args);
}

const resetWithForm = withBody(
  (request) => readFormFields(request, ADMIN_FORM_LIMIT, RESET_TEXT.missing),
  (refusal) => data<Failure>({ error: refusal.message }, { status: refusal.status, headers: refusal.headers }),
  resetAction,
);

async function resetAction({ context }: Route.ActionArgs, fields: Record<string, string>) {
  const { db, log } = context.get(servicesContext);
  const token = fields.token ?? "";
  const password = fields.password ?? "";
  if (password === "" || (fields.confirm ?? "") === "") return data<Failure>({ error: RESET_TEXT.missing }, { status: 400 });
  if (password !== fields.confirm) return data<Failure>({ error: RESET_TEXT.mismatch }, { status: 400 });
  const problem = passwordProblem(password);
  if (problem) return data<Failure>({ error: `The password ${problem}.` }, { status: 400 });
  const ip = clientIp(context);
  // The new password is hashed in one of the places every password hash waits for.
  const done = await withHashSlot(async () => {
    try {
      return await resetPassword(db, token, password, { clientIp: ip });
    } catch (error) {
      if (error instanceof AdminError) return { ok: false as const, reason: "rules" as const, message: error.message };
      throw error;
    }
  });
  if (!done) return data<Failure>({ error: RESET_TEXT.busy }, { status: 503, headers: { "Retry-After": "5" } });
  const result = done.value;
  if (result.ok) {
    log.info({ ip }, `Admin ${result.email} set a new password through an e-mailed link; ${result.endedSessions} sessions ended`);
    return redirect(PASSWORD_RESET_DONE_PATH);
  }
  if (result.reason === "rules") return data<Failure>({ error: result.message }, { status: 400 });
  log.warn({ ip }, `A new password through a reset link refused: the link is ${result.reason}`);
  return refusedLink(result.reason);
}

export default function ResetPasswordRoute({ loaderData, actionData }: Route.ComponentProps) {
  // A link that stopped working between the page and the post is the action's answer.
  const page = actionData && "state" in actionData ? actionData : loaderData;
  const failure = actionData && "error" in actionData ? actionData.error : undefined;
  const navigation = useNavigation();
  const errorId = useId();
  const rulesId = useId();
  const field = useFocusOnError(failure);
  if (page.state !== "ok") {
    const [title, text] =
      page.state === "invalid"
        ? [RESET_TEXT.invalidTitle, RESET_TEXT.invalid]
        : page.state === "expired"
          ? [RESET_TEXT.expiredTitle, RESET_TEXT.expired(page.minutes)]
          : [RESET_TEXT.usedTitle, RESET_TEXT.used];
    return (
      <AuthCard
        title={title}
        footer={
          <Link to="/admin/sign-in" className={AUTH_LINK}>
            Back to sign in
          </Link>
        }
      >
        {/* A form posted without a link that works (its body unreadable, say): what was wrong with it, too. */}
        {failure ? (
          <div className="mt-6">
            <AuthError id={errorId}>{failure}</AuthError>
          </div>
        ) : null}
        <p className="mt-6 text-slate-800">{text}</p>
        <p className="mt-4">
          <Link to={FORGOT_PATH} className={`font-semibold ${AUTH_LINK}`}>
            {RESET_TEXT.askAgain}
          </Link>
        </p>
      </AuthCard>
    );
  }
  const described = [rulesId, ...(failure ? [errorId] : [])].join(" ");
  return (
    <AuthCard title={RESET_TEXT.title} subtitle={RESET_TEXT.subtitle(page.email)}>
      <Form method="post" action={`/admin/reset-password?token=${encodeURIComponent(page.token)}`} className="mt-8 space-y-5">
        <input type="hidden" name="token" value={page.token} />
        {/* For password managers: whose password this is. */}
        <input type="hidden" name="username" autoComplete="username" value={page.email} />
        <p id={rulesId} className="text-sm text-slate-600">
          {RESET_TEXT.rules}
        </p>
        <AuthField
          id="reset-password"
          label={RESET_TEXT.password}
          ref={field}
          name="password"
          type="password"
          required
          minLength={PASSWORD_RULES.minLength}
          autoComplete="new-password"
          // Autofocus only on a refused form, so that without JavaScript too the keyboard is back on the field the error describes.
          autoFocus={failure ? true : undefined}
          aria-invalid={failure ? true : undefined}
          aria-describedby={described}
        />
        <AuthField
          id="reset-confirm"
          label={RESET_TEXT.confirm}
          name="confirm"
          type="password"
          required
          minLength={PASSWORD_RULES.minLength}
          autoComplete="new-password"
          aria-invalid={failure ? true : undefined}
          aria-describedby={failure ? errorId : undefined}
        />
        {failure ? <AuthError id={errorId}>{failure}</AuthError> : null}
        <AuthSubmit busy={navigation.state === "submitting"} label={RESET_TEXT.submit} busyLabel={RESET_TEXT.submitting} />
      </Form>
    </AuthCard>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
