import { createContext, data, redirect, type RouterContextProvider } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { JoinScreen, type JoinAttempt, type JoinView } from "~/admin/JoinScreen";
import { tabPath, tabsAllowed } from "~/admin/tabs";
import { JOIN_TEXT } from "~/admin/team-texts";
import { FORM_TEXT, LOGIN_TEXT } from "~/admin/texts";
import { acceptInvitation } from "~/auth/invitations.server";
import { LINK_REFUSAL_STATUS, checkInvitationLink, sessionCookieWouldBeDropped, type LinkCheck } from "~/auth/join.server";
import { reserveHashSlot } from "~/auth/password.server";
import { assertSameOrigin, clientIp } from "~/auth/require-admin.server";
import { ROLE_DESCRIPTIONS, ROLE_LABELS, can } from "~/auth/roles";
import { BUSY_RETRY_AFTER_SECONDS } from "~/auth/sign-in.server";
import { deleteSessionByToken, readSessionToken } from "~/auth/sessions.server";
import { signedInHeaders } from "~/auth/sign-in-response.server";
import { formatSubmittedAt } from "~/platform/dates";
import { requestContext } from "~/platform/http/context";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { servicesContext, type AppServices } from "~/services";
import type { Route } from "./+types/admin.join";

/**
 * /admin/join?token=…: the page an invitation's link opens (INVITATION_PATH,
 * decision 050). Outside the admin layout: whoever opens it is not a member
 * yet. The link is looked up only after a place under the limit on links
 * that name no invitation (auth/join.server.ts); its form posts to the same
 * address, and the answer signs the new member in as the sign-in form does.
 */
export function meta() {
  return [{ title: "Join the team" }, { name: "robots", content: "noindex, nofollow" }];
}

/**
 * Retry-After of a refusal by the limit, or of a busy server, reaches the
 * response: the action's when it answered (the loader after it only repeats
 * its check), else the loader's.
 */
export function headers({ loaderHeaders, actionHeaders }: Route.HeadersArgs) {
  return [...actionHeaders.keys()].length > 0 ? actionHeaders : loaderHeaders;
}

/** The link's check made by the action, for the loaders of the same request: a link is looked up (and limited) once per request. */
const linkChecked = createContext<LinkCheck | null>(null);

type Context = Readonly<RouterContextProvider>;

function tokenOf(request: Request): string {
  return new URL(request.url).searchParams.get("token") ?? "";
}

async function checkLink(request: Request, context: Context): Promise<LinkCheck> {
  const earlier = context.get(linkChecked);
  if (earlier) return earlier;
  const services = context.get(servicesContext);
  return checkInvitationLink(services, { token: tokenOf(request), clientIp: clientIp(context), loginRateLimit: services.auth.loginRateLimit });
}

/** The page for a link that cannot be used, with its status (and Retry-After for the limit); the request's log line says why. */
function refused(check: Exclude<LinkCheck, { ok: true }>, services: AppServices, context: Context) {
  const limited = check.reason === "limited";
  context.get(requestContext).refused(limited ? "too many invitation links that name no invitation from this address" : `invitation link: ${check.reason}`);
  const message = limited ? JOIN_TEXT.limited(Math.ceil(check.retryAfterSeconds / 60)) : check.message;
  const view: JoinView = { state: "refused", company: services.company.name, message, signIn: check.reason === "used" || check.reason === "member-exists" };
  return data(
    { view, attempt: undefined },
    { status: LINK_REFUSAL_STATUS[check.reason], headers: limited ? { "Retry-After": String(check.retryAfterSeconds) } : undefined },
  );
}

function openView(check: Extract<LinkCheck, { ok: true }>, services: AppServices): JoinView {
  return {
    state: "open",
    company: services.company.name,
    email: check.email,
    roleLabel: ROLE_LABELS[check.role],
    roleDescription: ROLE_DESCRIPTIONS[check.role],
    expires: formatSubmittedAt(check.expiresAt),
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const services = context.get(servicesContext);
  const check = await checkLink(request, context);
  if (!check.ok) return refused(check, services, context);
  return { view: openView(check, services), attempt: undefined };
}

/**
 * Accepting: another site's post is refused (403) before anything; then the
 * link's check, before the body is read; the name and password are checked
 * before the password is hashed (acceptInvitation), in a place of the same
 * hash lane as sign-ins.
 */
export async function action(args: Route.ActionArgs) {
  const { request, context } = args;
  assertSameOrigin(request);
  const services = context.get(servicesContext);
  const check = await checkLink(request, context);
  context.set(linkChecked, check);
  if (!check.ok) return refused(check, services, context);
  const view = openView(check, services);
  if (sessionCookieWouldBeDropped(request, services.auth.cookie)) {
    return data({ view, attempt: { errors: { form: LOGIN_TEXT.insecure }, name: "" } satisfies JoinAttempt }, { status: 400 });
  }
  return withBody(
    (body: Request) => readFormFields(body, ADMIN_FORM_LIMIT, FORM_TEXT.notUnderstood),
    (refusal) =>
      data({ view, attempt: { errors: { form: refusal.message }, name: "" } satisfies JoinAttempt }, { status: refusal.status, headers: refusal.headers }),
    (_args: Route.ActionArgs, fields) => accept(args, fields, view),
  )(args);
}

async function accept({ request, context }: Route.ActionArgs, fields: Record<string, string>, view: JoinView) {
  const services = context.get(servicesContext);
  const { db, auth, secrets, log } = services;
  const name = (fields.name ?? "").slice(0, 1000);
  const again = (errors: JoinAttempt["errors"], status: number, headers?: HeadersInit) =>
    data({ view, attempt: { errors, name } satisfies JoinAttempt }, { status, headers });

  // The password's hash waits its turn with the sign-ins', and is refused at once when the lane is full.
  const place = reserveHashSlot("anyone");
  if (!place) return again({ form: JOIN_TEXT.busy }, 503, { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) });
  let result: Awaited<ReturnType<typeof acceptInvitation>>;
  try {
    result = await place.run(() => acceptInvitation(db, { token: tokenOf(request), name: fields.name, password: fields.password, ip: clientIp(context) }));
  } catch (error) {
    log.error({ err: error }, "Could not accept an invitation");
    return again({ form: JOIN_TEXT.failure }, 503);
  }
  if (!result.ok) {
    if (result.reason === "invalid") {
      context.get(requestContext).refused("invitation form: name or password refused");
      return again(result.errors, 400);
    }
    // Used, withdrawn or run out while the form was being filled in.
    return refused(result, services, context);
  }

  // The browser's earlier session (another member's, or this one's by another invitation) ends: one session per browser.
  const previous = readSessionToken(request, auth.cookie);
  if (previous) await deleteSessionByToken(db, previous);
  // The session and device cookies of any sign-in (a new member's browser has no device cookie of theirs yet).
  const headers = await signedInHeaders(result, { secrets, cookie: auth.cookie, device: undefined, clearPending: false });
  log.info({ ip: clientIp(context) }, `Member ${result.email} joined the team as ${ROLE_LABELS[result.role]} (an invitation accepted)`);
  // Every role has a tab.
  const first = tabsAllowed((permission) => can(result.role, permission))[0]!;
  return redirect(tabPath(first), { headers });
}

export default function JoinRoute({ loaderData, actionData }: Route.ComponentProps) {
  const answer = actionData ?? loaderData;
  return <JoinScreen view={answer.view} attempt={answer.attempt} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
