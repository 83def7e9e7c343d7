import { INBOX_TEXT } from "~/admin/texts";
import { downloadDate, enquiriesCsvStream } from "~/enquiries/csv";
import { openEnquiriesExport } from "~/enquiries/export.server";
import { parseInboxFilter, parseSearch } from "~/enquiries/inbox";
import { inboxQuery, parseNarrowing } from "~/enquiries/view";
import { londonDate } from "~/platform/dates";
import { requireMember, servicesContext } from "~/services";
import type { Route } from "./+types/admin.enquiries-csv";

/**
 * GET /admin/enquiries.csv?filter=&q=&status=&assignee=&due=: every submission of the inbox view the
 * admin is looking at (not one page), newest first, as a CSV download.
 * Unknown filters and odd searches fall back as the inbox's do.
 */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const { actor } = requireMember(args, "enquiries-export");
  const { db, snapshots, log } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const filter = parseInboxFilter(params.get("filter"));
  const headers = {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="enquiries-${filter}-${downloadDate(new Date())}.csv"`,
  };
  // React Router drops a HEAD response's body unread: export nothing (and leave no read open) for it.
  if (request.method === "HEAD") return new Response(null, { headers });
  const search = parseSearch(params.get("q"));
  let source: Awaited<ReturnType<typeof openEnquiriesExport>>;
  try {
    // The rows as they are now, read from one snapshot while the file streams out.
    source = await openEnquiriesExport(
      db,
      snapshots,
      inboxQuery({ filter, search, narrowing: parseNarrowing(params) }, actor.id, londonDate(new Date())),
      actor,
    );
  } catch (error) {
    log.error({ err: error }, "Could not export contact submissions");
    return new Response(INBOX_TEXT.loadFailure, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const body = enquiriesCsvStream(source, filter, (error) => log.error({ err: error }, "Could not export contact submissions"));
  // Express marks every admin response no-store.
  return new Response(body, { headers });
}
