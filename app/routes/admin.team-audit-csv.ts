import { auditCsvStream } from "~/auth/audit-log.server";
import { parseAuditQuery } from "~/auth/audit-query";
import { downloadDate } from "~/enquiries/csv";
import { requireMember, servicesContext } from "~/services";
import type { Route } from "./+types/admin.team-audit-csv";

/**
 * GET /admin/team/audit.csv?person=&kind=&from=&to=: every entry of the
 * Audit log the filters select (not one page), newest first, as a CSV
 * download in the enquiries' encoding (quoted, formulas neutralised, UTF-8
 * with a byte-order mark), read in batches as it streams out. An owner's.
 */
export async function loader(args: Route.LoaderArgs) {
  requireMember(args, "audit-log");
  const { db, log } = args.context.get(servicesContext);
  const query = parseAuditQuery(new URL(args.request.url).searchParams);
  const body = auditCsvStream(db, query, (error) => log.error({ err: error }, "Could not export the audit log"));
  // Express marks every admin response no-store.
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${downloadDate(new Date())}.csv"`,
    },
  });
}
