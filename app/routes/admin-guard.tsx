import { Outlet } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { authenticateAdmin } from "~/auth/require-admin.server";
import { adminContext, servicesContext } from "~/services";
import type { Route } from "./+types/admin-guard";

/**
 * Every admin page, action and API route sits under this layout (app/routes.ts),
 * so the session is checked once, by structure: this middleware runs before any
 * of their loaders or actions, and before any request body is read. A change
 * sent by another site is refused (403); anybody not signed in gets 401 (JSON
 * for /api/, the sign-in form for pages). The admin is in `adminContext`.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context }, next) => {
    const { db, auth } = context.get(servicesContext);
    context.set(adminContext, await authenticateAdmin(request, { db, cookie: auth.cookie }));
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
