import { data, redirect, type RouterContextProvider } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { RESET_TEXT } from "~/admin/reset-texts";
import { LOGIN_TEXT } from "~/admin/texts";
import { ResetPasswordScreen, type ResetView } from "~/admin/ResetScreens";
import { AdminError } from "~/auth/admins.server";
import { reserveHashSlot } from "~/auth/password.server";
import { checkResetLink, resetPassword, type ResetLink } from "~/auth/password-reset.server";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { BUSY_RETRY_AFTER_SECONDS } from "~/auth/sign-in.server";
import { requestContext } from "~/platform/http/context";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { servicesContext } from "~/services";
import type { Route } from "./+types/admin.reset-password";

/**
 * /admin/reset-password?token=…: the page the e-mailed link opens (decisions
 * 043 and 051). The link is checked before anything else (a lookup of its
 * hash: a made-up one costs no more); the new password is hashed only for a
 * link that works, in a place of the sign-ins' hash lane. Setting it uses the
 * link up and signs the member out everywhere; they then sign in with it.
 */
export function meta() {
  return [{ title: "Set a new password" }, { name: "robots", content: "noindex, nofollow" }];
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

type Context = Readonly<RouterContextProvider>;
type Refusal = Extract<ResetLink, { ok: false }>;

const STATUS: Record<Refusal["reason"], number> = { invalid: 404, expired: 410, used: 410 };

function tokenOf(request: Request): string {
  return (new URL(request.url).searchParams.get("token") ?? "").slice(0, 100);
}

function refused(refusal: Refusal, context: Context) {
  context.get(requestContext).refused(`password reset link: ${refusal.reason}`);
  const view: ResetView = { state: "refused", message: RESET_TEXT[refusal.reason] };
  return data({ view, problem: undefined as string | undefined }, { status: STATUS[refusal.reason] });
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const link = await checkResetLink(services.db, tokenOf(request), services.clock.now());
  if (!link.ok) return refused(link, context);
  return { view: { state: "open", email: link.email } satisfies ResetView as ResetView, problem: undefined as string | undefined };
}

export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  assertSameOrigin(request);
  const services = context.get(servicesContext);
  // The link first: a form posted to a made-up, used or run-out link is not read.
  const link = await checkResetLink(services.db, tokenOf(request), services.clock.now());
  if (!link.ok) return refused(link, context);
  const view: ResetView = { state: "open", email: link.email };
  const again = (problem: string, status: number, headers?: HeadersInit) => data({ view, problem }, { status, headers });
  return withBody(
    (body: Request) => readFormFields(body, ADMIN_FORM_LIMIT, RESET_TEXT.missing),
    (refusal) => again(refusal.message, refusal.status, refusal.headers),
    async (_args: Route.ActionArgs, fields) => {
      const password = fields.password ?? "";
      if (password === "" || (fields.repeat ?? "") === "") return again(RESET_TEXT.missing, 400);
      if (password !== fields.repeat) return again(RESET_TEXT.mismatch, 400);
      const place = reserveHashSlot("anyone");
      if (!place) return again(LOGIN_TEXT.busy, 503, { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) });
      let result: Awaited<ReturnType<typeof resetPassword>>;
      try {
        result = await place.run(() => resetPassword(services.db, tokenOf(request), password, { clientIp: clientIp(context), now: services.clock.now() }));
      } catch (error) {
        if (!(error instanceof AdminError)) throw error;
        context.get(requestContext).refused("password reset: the new password breaks the rules");
        return again(error.message, 400);
      }
      // Used or run out while the form was being filled in.
      if (!result.ok) return refused(result, context);
      services.log.info(`Password reset through a link; ended ${result.endedSessions} session${result.endedSessions === 1 ? "" : "s"}`);
      throw redirect("/admin/sign-in?reset=done");
    },
  )(args);
}

export default function ResetPasswordRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <ResetPasswordScreen view={actionData?.view ?? loaderData.view} problem={actionData?.problem} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
