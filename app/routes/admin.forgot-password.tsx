import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { RESET_TEXT } from "~/admin/reset-texts";
import { ForgotPasswordScreen, type ForgotAnswer } from "~/admin/ResetScreens";
import { requestPasswordReset } from "~/auth/password-reset.server";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { requestContext, siteUrl } from "~/platform/http/context";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { servicesContext } from "~/services";
import type { Route } from "./+types/admin.forgot-password";

/**
 * "Forgot your password?" (decisions 043 and 051): outside the admin layout,
 * since whoever asks is not signed in. The answer is the same for every
 * address, in its words, status and headers: the domain does the same work
 * for each (the limits, one outbox job), and this route adds no difference.
 */
export function meta() {
  return [{ title: "Forgot your password?" }, { name: "robots", content: "noindex, nofollow" }];
}

/** Retry-After of a refusal by the limits reaches the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export async function action(args: Route.ActionArgs) {
  assertSameOrigin(args.request);
  return ask(args);
}

const ask = withBody(
  (request) => readFormFields(request, ADMIN_FORM_LIMIT, RESET_TEXT.notAnAddress),
  (refusal) => data<ForgotAnswer>({ kind: "error", text: refusal.message, email: "" }, { status: refusal.status, headers: refusal.headers }),
  askForLink,
);

async function askForLink({ request, context }: Route.ActionArgs, fields: Record<string, string>) {
  const services = context.get(servicesContext);
  const email = (fields.email ?? "").trim().slice(0, 320);
  const answer = await requestPasswordReset(services.db, {
    email,
    clientIp: clientIp(context),
    siteUrl: siteUrl(services, request),
    mailOn: services.mail !== undefined,
    outbox: services.outbox,
    tally: services.tally,
    now: services.clock.now(),
    log: services.log,
  });
  if (answer.ok) return data<ForgotAnswer>({ kind: "sent", text: RESET_TEXT.sent, email: "" });
  if (answer.reason === "not-an-address") {
    context.get(requestContext).refused("password reset: not an e-mail address");
    return data<ForgotAnswer>({ kind: "error", text: RESET_TEXT.notAnAddress, email }, { status: 400 });
  }
  if (answer.reason === "no-mail") return data<ForgotAnswer>({ kind: "error", text: RESET_TEXT.noMail, email });
  const minutes = Math.max(1, Math.ceil(answer.retryAfterSeconds / 60));
  return data<ForgotAnswer>(
    { kind: "error", text: RESET_TEXT.limited(minutes), email },
    { status: 429, headers: { "Retry-After": String(answer.retryAfterSeconds) } },
  );
}

export default function ForgotPasswordRoute({ actionData }: Route.ComponentProps) {
  return <ForgotPasswordScreen answer={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
