import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { AuditLogPanel } from "~/admin/AuditLogPanel";
import { requireMember, servicesContext } from "~/services";
import { loadAuditLog } from "./view.server";
import type { Route } from "./+types/route";

/**
 * The Audit log (/admin/team/audit), a page of the Team tab for owners
 * (decision 050): filtered by person, action and UK days in the URL, newest
 * first, paged by keyset (?cursor=). Read only: nothing here changes or
 * deletes an entry, and the route has no action.
 */
export async function loader(args: Route.LoaderArgs) {
  requireMember(args, "audit-log");
  const { db, log, auth } = args.context.get(servicesContext);
  return { audit: await loadAuditLog({ db, log, retentionDays: auth.auditRetentionDays }, new URL(args.request.url)) };
}

export default function AuditLogPage({ loaderData }: Route.ComponentProps) {
  return <AuditLogPanel view={loaderData.audit} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
