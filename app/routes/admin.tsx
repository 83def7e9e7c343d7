import { Outlet } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { Dashboard } from "~/admin/Dashboard";
import { dashboardBase } from "~/admin/dashboard.server";
import { adminContext, servicesContext } from "~/services";
import type { Route } from "./+types/admin";

export function meta({ error }: Route.MetaArgs) {
  return [{ title: error ? "Admin Login" : "Admin Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

/**
 * The dashboard around its tabs (decision 045): who is signed in, the
 * banners, the tab list; each tab is a child route (app/routes/admin/<tab>/)
 * with its own loader and action, shown in the Outlet.
 */
export async function loader({ context }: Route.LoaderArgs) {
  return dashboardBase(context.get(servicesContext), context.get(adminContext));
}

/** The banners and the unread count are read afresh on every visit to a tab, as they were when the tabs were one page. */
export function shouldRevalidate() {
  return true;
}

export default function AdminDashboardRoute({ loaderData }: Route.ComponentProps) {
  return (
    <Dashboard {...loaderData}>
      <Outlet />
    </Dashboard>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
