import { INBOX_TEXT } from "~/admin/texts";
import { downloadDate, enquiriesCsvStream } from "~/enquiries/csv";
import { parseInboxFilter, parseSearch } from "~/enquiries/inbox";
import { inboxQuery, parseNarrowing } from "~/enquiries/view";
import { londonDate } from "~/platform/dates";
import { idsToExport, toSubmission } from "~/enquiries/inbox.server";
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
  const { db, log } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const filter = parseInboxFilter(params.get("filter"));
  const search = parseSearch(params.get("q"));

  let ids: string[];
  try {
    // Which rows, in which order, fixed now; their fields are read in batches as the file streams out.
    ids = await idsToExport(db, inboxQuery({ filter, search, narrowing: parseNarrowing(params) }, actor.id, londonDate(new Date())), actor);
  } catch (error) {
    log.error({ err: error }, "Could not export contact submissions");
    return new Response(INBOX_TEXT.loadFailure, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const load = async (batch: string[]) => (await db.selectFrom("contact_submissions").selectAll().where("id", "in", batch).execute()).map(toSubmission);
  const body = enquiriesCsvStream(ids, filter, load, (error) => log.error({ err: error }, "Could not export contact submissions"));
  // Express marks every admin response no-store.
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="enquiries-${filter}-${downloadDate(new Date())}.csv"`,
    },
  });
}
