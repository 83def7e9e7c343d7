import { redirect } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { clientIp } from "~/auth/require-admin.server";
import { clearedSessionCookie, signOut } from "~/auth/sessions.server";
import { adminContext, servicesContext } from "~/services";
import type { Route } from "./+types/admin.sign-out";

/** Signing out is a POST; a visit to this address goes back to the dashboard. */
export function loader() {
  return redirect("/admin");
}

/** Ends the session on the server (not just in this browser) and returns to the sign-in form. */
export async function action({ context }: Route.ActionArgs) {
  const admin = context.get(adminContext);
  const { db, auth } = context.get(servicesContext);
  await signOut(db, admin, clientIp(context));
  return redirect("/admin", { headers: { "Set-Cookie": clearedSessionCookie(auth.cookie) } });
}

/** Never rendered: the loader and the action always redirect. */
export default function SignOutRoute() {
  return null;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
