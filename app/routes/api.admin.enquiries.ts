import { INBOX_TEXT } from "~/admin/texts";
import { requireAdmin } from "~/auth/require-admin.server";
import { parseInboxFilter, parsePage } from "~/enquiries/inbox";
import { listSubmissions } from "~/enquiries/inbox.server";
import { servicesContext } from "~/platform/context";
import type { Route } from "./+types/api.admin.enquiries";

/** The inbox as JSON (?filter=all|unread|read&page=n): for scripts and integrations of the admin's own. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const { db } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  try {
    const page = await listSubmissions(db, parseInboxFilter(params.get("filter")), parsePage(params.get("page")));
    // Express marks every admin response no-store.
    return Response.json(page);
  } catch (error) {
    console.error("Could not load contact submissions:", error);
    return Response.json({ error: INBOX_TEXT.loadFailure }, { status: 503 });
  }
}
