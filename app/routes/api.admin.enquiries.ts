import { INBOX_TEXT } from "~/admin/texts";
import { parseInboxFilter, parsePosition, parseSearch } from "~/enquiries/inbox";
import { listSubmissions } from "~/enquiries/inbox.server";
import { inboxQuery, parseNarrowing } from "~/enquiries/view";
import { londonDate } from "~/platform/dates";
import { requireMember, servicesContext } from "~/services";
import type { Route } from "./+types/api.admin.enquiries";

/**
 * The inbox as JSON (?filter=all|unread|read|held|spam&q=<search>&status=<status>&assignee=mine|unassigned|<member id>&due=1&page=n&after=<cursor>): for
 * scripts and integrations of the admin's own. As on the page, all, unread
 * and read hold real enquiries only; what a flood brought is under
 * filter=held, spam under filter=spam. Each page answers a nextCursor when
 * there is more: the next page is &after=<nextCursor> (decision 058; a
 * ?page=n alone still works, by offset, slower deep down).
 */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const { actor } = requireMember(args, "enquiries");
  const { db, log } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  try {
    const today = londonDate(new Date());
    const view = { filter: parseInboxFilter(params.get("filter")), search: parseSearch(params.get("q")), narrowing: parseNarrowing(params) };
    const page = await listSubmissions(db, inboxQuery(view, actor.id, today), parsePosition(params), today);
    // Express marks every admin response no-store.
    return Response.json(page);
  } catch (error) {
    log.error({ err: error }, "Could not load contact submissions");
    return Response.json({ error: INBOX_TEXT.loadFailure }, { status: 503 });
  }
}
