import { INBOX_TEXT } from "~/admin/texts";
import { downloadDate } from "~/enquiries/csv";
import { figuresCsv } from "~/enquiries/figures";
import { figuresToExport } from "~/enquiries/figures.server";
import { requireMember, servicesContext } from "~/services";
import { publishedSite } from "~/website/website.server";
import type { Route } from "./+types/admin.enquiries-figures-csv";

/**
 * GET /admin/enquiries/figures.csv: how the team is doing, month by month
 * (decision 060), as a CSV download: the real enquiries received each month
 * by kind and status, the share Instructed, and the median time to the first
 * response in the published business hours. The role is checked first; the
 * export is audited.
 */
export async function loader(args: Route.LoaderArgs) {
  const { actor } = requireMember(args, "enquiries-export");
  const services = args.context.get(servicesContext);
  try {
    const site = await publishedSite(services);
    const months = await figuresToExport(services.db, site.content.hours.days, actor);
    // Express marks every admin response no-store.
    return new Response(figuresCsv(months), {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="enquiry-figures-${downloadDate(new Date())}.csv"`,
      },
    });
  } catch (error) {
    services.log.error({ err: error }, "Could not export the enquiry figures");
    return new Response(INBOX_TEXT.loadFailure, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
}
