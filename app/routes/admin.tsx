import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { Dashboard } from "~/admin/Dashboard";
import { formatSubmittedAt } from "~/admin/format";
import { handleInboxAction } from "~/admin/inbox-actions.server";
import { parseAdminTab, type InboxActionData, type InboxView, type ProjectsView } from "~/admin/types";
import { requireAdmin } from "~/auth/require-admin.server";
import { parseInboxFilter, parsePage } from "~/enquiries/inbox";
import { countSubmissions, listSubmissions } from "~/enquiries/inbox.server";
import { servicesContext } from "~/platform/context";
import { ADMIN_FORM_LIMIT, BodyError, bodyErrorHeaders, readFormFields } from "~/platform/request-body.server";
import { listAllProjects } from "~/projects/projects.server";
import type { Route } from "./+types/admin";

export function meta({ error }: Route.MetaArgs) {
  return [{ title: error ? "Admin Login" : "Admin Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

/** The dashboard: who is signed in, and the data of the tab in the URL (?tab=projects|contacts). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  const { db, company } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const tab = parseAdminTab(params.get("tab"));
  const base = { email: admin.email, company: { name: company.name, logoUrl: company.logoUrl }, tab };

  if (tab === "contacts") {
    const filter = parseInboxFilter(params.get("filter"));
    let inbox: InboxView;
    try {
      const page = await listSubmissions(db, filter, parsePage(params.get("page")));
      const submissions = page.submissions.map((submission) => ({
        ...submission,
        submitted_label: formatSubmittedAt(submission.created_at),
      }));
      inbox = { status: "ok", filter, ...page, submissions };
    } catch (error) {
      console.error("Could not load contact submissions:", error);
      inbox = { status: "error", filter };
    }
    return { ...base, inbox, unread: inbox.status === "ok" ? inbox.counts.unread : undefined };
  }

  let projects: ProjectsView;
  let unread: number | undefined;
  try {
    const [list, counts] = await Promise.all([listAllProjects(db), countSubmissions(db)]);
    projects = { status: "ok", projects: list };
    unread = counts.unread;
  } catch (error) {
    console.error("Could not load renovation projects:", error);
    projects = { status: "error" };
  }
  return { ...base, projects, unread };
}

/** Headers an action sets (Retry-After on a 429, Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** The card actions of the Contact Submissions tab (form fields intent and id). */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  const { db } = context.get(servicesContext);
  let fields: Record<string, string>;
  try {
    fields = await readFormFields(request, ADMIN_FORM_LIMIT);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return data<InboxActionData>(
      { notice: { kind: "error", text: error.message } },
      { status: error.status, headers: bodyErrorHeaders(error) },
    );
  }
  return handleInboxAction(db, fields);
}

export default function AdminRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <Dashboard {...loaderData} actionData={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
