import { AUDIT_TEXT } from "~/admin/team-texts";
import { auditWorkDone } from "~/audit/audit.server";
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
 * The export is itself an entry, written before the file is read, so it is
 * in the copy it makes when the filters select it.
 */
export async function loader(args: Route.LoaderArgs) {
  const { actor } = requireMember(args, "audit-log");
  const { db, log } = args.context.get(servicesContext);
  const query = parseAuditQuery(new URL(args.request.url).searchParams);
  try {
    await auditWorkDone(db, { actor, action: "audit-log-exported", target: "audit-log" });
  } catch (error) {
    log.error({ err: error }, "Could not export the audit log");
    return new Response(AUDIT_TEXT.loadFailure, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const body = auditCsvStream(db, query, (error) => log.error({ err: error }, "Could not export the audit log"));
  // Express marks every admin response no-store.
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${downloadDate(new Date())}.csv"`,
    },
  });
}
