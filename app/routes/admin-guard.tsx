import { Outlet, redirect } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { authenticateAdmin } from "~/auth/require-admin.server";
import { SECOND_FACTOR_SETUP_PATH, openDuringSetUp } from "~/auth/second-factor-setup";
import { secondFactorRequired, secondFactorsOf } from "~/auth/second-factor-policy.server";
import type { Db } from "~/platform/db/db.server";
import { adminContext, servicesContext } from "~/services";
import type { Route } from "./+types/admin-guard";

/**
 * Every admin page, action and API route sits under this layout (app/routes.ts),
 * so the session is checked once, by structure: this middleware runs before any
 * of their loaders or actions, and before any request body is read. A change
 * sent by another site is refused (403); anybody not signed in gets 401 (JSON
 * for /api/, the sign-in form for pages). The admin is in `adminContext`.
 * When the owners require a second factor and the member has none, every
 * page but the account page's set-up (and signing out) sends them there.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    const { db, auth } = context.get(servicesContext);
    const admin = await authenticateAdmin(request, { db, cookie: auth.cookie });
    context.set(adminContext, admin);
    await requireSecondFactorSetUp(request, db, admin.adminId);
    return next();
  },
];

/** Shown when the session check refuses: the sign-in form, never indexed (each admin page says the same of itself). */
export function meta() {
  return [{ title: "Admin Login" }, { name: "robots", content: "noindex, nofollow" }];
}

export default function AdminGuard() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}

/**
 * The owners' requirement (second-factor-policy.server.ts): a member with
 * neither two-step sign-in nor a passkey is sent to set one up, before
 * anything else (a page: 302; the API: 403 with where to go). One query when
 * nothing is required.
 */
async function requireSecondFactorSetUp(request: Request, db: Db, adminId: string): Promise<void> {
  const { pathname } = new URL(request.url);
  if (openDuringSetUp(pathname) || !(await secondFactorRequired(db))) return;
  const { totp, passkeys } = await secondFactorsOf(db, adminId);
  if (totp || passkeys > 0) return;
  if (pathname.toLowerCase().startsWith("/api/")) {
    throw Response.json(
      { error: "Set up two-step sign-in or a passkey first: the owners require one.", setUp: SECOND_FACTOR_SETUP_PATH },
      { status: 403, headers: { "Cache-Control": "no-store" } },
    );
  }
  throw redirect(SECOND_FACTOR_SETUP_PATH);
}
