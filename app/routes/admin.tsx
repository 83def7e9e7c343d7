import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { dashboardBase } from "~/admin/dashboard.server";
import { Dashboard } from "~/admin/Dashboard";
import { formatSubmittedAt } from "~/platform/dates";
import { handleInboxAction } from "~/admin/inbox-actions.server";
import { SAVED_NOTICES, handleProjectAction, isProjectIntent } from "~/admin/project-actions.server";
import { FORM_TEXT, PROJECTS_TEXT } from "~/admin/texts";
import { describeNotification } from "~/admin/notification-status";
import {
  parseAdminTab,
  type AdminActionData,
  type InboxSubmission,
  type InboxView,
  type Notice,
  type ProjectFormState,
  type ProjectsView,
} from "~/admin/types";
import { parseInboxFilter, parsePage, parseSearch } from "~/enquiries/inbox";
import { countSubmissions, listSubmissions } from "~/enquiries/inbox.server";
import { notificationStates } from "~/enquiries/outbox.server";
import { spamSignalsLabel } from "~/enquiries/spam";
import { adminContext, servicesContext } from "~/services";
import { MAX_IMAGE_BYTES, UPLOAD_TEXT } from "~/images/image-files";
import { isUuid } from "~/platform/ids";
import { firstOfEach, readFormEntries, readMultipartForm, withBody, type UploadedFile } from "~/platform/http/request-body.server";
import { listAllProjects } from "~/projects/projects.server";
import type { Route } from "./+types/admin";

export function meta({ error }: Route.MetaArgs) {
  return [{ title: error ? "Admin Login" : "Admin Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

/** The dashboard: who is signed in, and the data of the tab in the URL (?tab=projects|contacts). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const admin = context.get(adminContext);
  const services = context.get(servicesContext);
  const { db } = services;
  const params = new URL(request.url).searchParams;
  const tab = parseAdminTab(params.get("tab"));
  const base = { ...(await dashboardBase(services, admin)), tab };


  if (tab === "contacts") {
    const filter = parseInboxFilter(params.get("filter"));
    const search = parseSearch(params.get("q"));
    let inbox: InboxView;
    let unread: number | undefined;
    try {
      const page = await listSubmissions(db, { filter, search }, parsePage(params.get("page")));
      const now = new Date();
      const states = await notificationStates(
        db,
        page.submissions.filter((submission) => submission.spam_reason === null).map((submission) => submission.id),
      );
      const submissions = page.submissions.map((submission): InboxSubmission => {
        const state = states[submission.id];
        return {
          ...submission,
          submitted_label: formatSubmittedAt(submission.created_at),
          ...(submission.spam_reason === null ? {} : { spam_label: spamSignalsLabel(submission.spam_reason) }),
          ...(submission.spam_signals === null ? {} : { possible_spam_label: spamSignalsLabel(submission.spam_signals) }),
          ...(state ? { notification: describeNotification(state, now) } : {}),
        };
      });
      inbox = { status: "ok", filter, search, ...page, submissions, selectAll: params.get("select") === "all" };
      // The header counts the whole inbox, whatever the search.
      unread = search === "" ? page.counts.unread : (await countSubmissions(db)).unread;
    } catch (error) {
      services.log.error({ err: error }, "Could not load contact submissions");
      inbox = { status: "error", filter, search };
    }
    return { ...base, inbox, unread, retentionDays: services.contact.retentionDays };
  }

  let projects: ProjectsView;
  let unread: number | undefined;
  try {
    const [list, counts] = await Promise.all([listAllProjects(db), countSubmissions(db)]);
    // ?form=new: the Add New Project form; ?edit=<id>: Edit Project; ?notice=…: after a save.
    let form: ProjectFormState | undefined;
    let notice: Notice | undefined;
    const editId = params.get("edit");
    if (params.get("form") === "new") form = { mode: "add", displayOrder: list.length };
    else if (editId !== null) {
      const project = isUuid(editId) ? list.find((candidate) => candidate.id === editId) : undefined;
      if (project) form = { mode: "edit", project };
      else notice = { kind: "error", text: PROJECTS_TEXT.notFound };
    }
    const saved = params.get("notice");
    if (saved && Object.hasOwn(SAVED_NOTICES, saved)) notice = { kind: "success", text: SAVED_NOTICES[saved as keyof typeof SAVED_NOTICES] };
    projects = { status: "ok", projects: list, form, notice };
    unread = counts.unread;
  } catch (error) {
    services.log.error({ err: error }, "Could not load renovation projects");
    projects = { status: "error" };
  }
  return { ...base, projects, unread };
}

/** Headers an action sets (Retry-After on a 429, Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** The admin's text fields: a project's description is the longest. */
const ADMIN_FIELDS_LIMIT = 64 * 1024;

/**
 * Every dashboard action, by the form field `intent`: the Contact Submissions
 * card actions, and the Renovation Projects ones. A project form without
 * JavaScript is multipart and carries its two images; with JavaScript the
 * images were uploaded already and the form refers to them.
 */
export const action = withBody(
  readDashboardForm,
  (refusal) => data<AdminActionData>({ notice: { kind: "error", text: refusal.message } }, { status: refusal.status, headers: refusal.headers }),
  async ({ context }: Route.ActionArgs, { fields, files, ids }) => {
    const { db, storage, outbox, log } = context.get(servicesContext);
    if (isProjectIntent(fields.intent)) return handleProjectAction({ db, storage, log }, fields.intent, fields, files);
    return handleInboxAction({ db, outbox, log }, fields, ids);
  },
);

/**
 * The dashboard's form: a project form without JavaScript is multipart with
 * its two images; anything else is a plain form whose `ids` repeat (the bulk
 * bar's ticked submissions; undefined from a multipart body).
 */
async function readDashboardForm(
  request: Request,
): Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile>; ids: string[] | undefined }> {
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    const form = await readMultipartForm(request, {
      fileFields: ["before_image_file", "after_image_file"],
      maxFileBytes: MAX_IMAGE_BYTES,
      fileTooLarge: UPLOAD_TEXT.failedWith(UPLOAD_TEXT.tooLarge),
      maxFieldBytes: ADMIN_FIELDS_LIMIT,
      unreadable: FORM_TEXT.notUnderstood,
    });
    return { ...form, ids: undefined };
  }
  const entries = await readFormEntries(request, ADMIN_FIELDS_LIMIT, FORM_TEXT.notUnderstood);
  return { fields: firstOfEach(entries), files: {}, ids: entries.filter(([name]) => name === "ids").map(([, value]) => value) };
}

export default function AdminRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <Dashboard {...loaderData} actionData={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
