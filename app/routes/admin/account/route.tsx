import { data } from "react-router";
import { ACCOUNT_TEXT } from "~/admin/account-texts";
import { AccountPage } from "~/admin/AccountPage";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { memberActor } from "~/audit/actor";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { requestContext, siteUrl } from "~/platform/http/context";
import { requestPasswordReset } from "~/auth/password-reset.server";
import { adminContext, servicesContext } from "~/services";
import { handleAccountAction, type AccountActionData } from "./actions.server";
import { accountView } from "./view.server";
import type { Route } from "./+types/route";

export function meta() {
  return [{ title: `${ACCOUNT_TEXT.title} · Admin Dashboard` }, { name: "robots", content: "noindex, nofollow" }];
}

/**
 * The member's own account (/admin/account): any signed-in member, whatever
 * their role (the admin layout has checked the session), and only their own
 * password, two-step sign-in, passkeys and sessions. `?setup=required` is
 * where a member the owners' requirement holds is sent; the page puts the
 * set-up first whenever the requirement holds them.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const admin = context.get(adminContext);
  return accountView({ db: services.db, publicUrl: services.publicUrl, issuer: services.company.name }, admin, request);
}

/** Headers an action sets (Retry-After on a 429, Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** Any member's own forms: the session is the layout's check; each change is theirs alone (their MemberActor). */
export const action = withBody(
  (request: Request) => readFormFields(request, ADMIN_FORM_LIMIT, ACCOUNT_TEXT.invalid),
  (refusal) => data<AccountActionData>({ notice: { kind: "error", text: refusal.message } }, { status: refusal.status, headers: refusal.headers }),
  async ({ request, context }: Route.ActionArgs, fields: Record<string, string>) => {
    const services = context.get(servicesContext);
    const admin = context.get(adminContext);
    const actor = memberActor(admin, context.get(requestContext).clientIp);
    const { db, log, mail, outbox, tally } = services;
    const requestPasswordLink = (email: string) =>
      requestPasswordReset(db, { email, clientIp: actor.ip, siteUrl: siteUrl(services, request), mailOn: mail !== undefined, outbox, tally, log });
    return handleAccountAction(
      { db, log, loginRateLimit: services.auth.loginRateLimit, issuer: services.company.name, requestPasswordLink },
      fields,
      admin,
      actor,
    );
  },
);

export default function AccountRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <AccountPage view={loaderData} result={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
