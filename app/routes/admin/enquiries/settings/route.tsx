import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { EnquirySettingsPage, SETTINGS_TEXT, type SettingsActionData } from "~/admin/EnquirySettingsPage";
import { FORM_TEXT } from "~/admin/texts";
import { readEnquirySettings, saveEnquirySettings } from "~/enquiries/enquiry-settings.server";
import { LIMITS, parseSettings } from "~/enquiries/replies";
import { readFormFields, withBody } from "~/platform/http/request-body.server";
import { requireMember, servicesContext } from "~/services";
import type { Route } from "./+types/route";

export function meta() {
  return [{ title: `${SETTINGS_TEXT.title} · Admin Dashboard` }, { name: "robots", content: "noindex, nofollow" }];
}

/**
 * Contact Submissions' settings (/admin/enquiries/settings), an owner's page
 * of the tab (decision 059): reply templates, Not proceeding reasons and the
 * acknowledgement. The role is checked before anything is read.
 */
export async function loader(args: Route.LoaderArgs) {
  requireMember(args, "enquiry-settings");
  const { db, mail } = args.context.get(servicesContext);
  return { settings: await readEnquirySettings(db), mailOn: mail !== undefined };
}

/** Headers an action sets (Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** Ten templates of up to 5,000 characters each, and the rest: well within this. */
const SETTINGS_FORM_LIMIT = 128 * 1024;

export async function action(args: Route.ActionArgs) {
  requireMember(args, "enquiry-settings");
  return saveAction(args);
}

const saveAction = withBody(
  (request: Request) => readFormFields(request, SETTINGS_FORM_LIMIT, FORM_TEXT.notUnderstood),
  (refusal) => data<SettingsActionData>({ notice: { kind: "error", text: refusal.message } }, { status: refusal.status, headers: refusal.headers }),
  async (args: Route.ActionArgs, fields: Record<string, string>) => {
    const { actor } = requireMember(args, "enquiry-settings");
    const { db, log } = args.context.get(servicesContext);
    const parsed = parseSettings(fields, LIMITS.templates);
    if ("problem" in parsed) return data<SettingsActionData>({ notice: { kind: "error", text: parsed.problem }, fields }, { status: 400 });
    try {
      await saveEnquirySettings(db, parsed, actor);
    } catch (error) {
      log.error({ err: error }, "Could not save the enquiries' settings");
      return data<SettingsActionData>({ notice: { kind: "error", text: SETTINGS_TEXT.failure }, fields }, { status: 503 });
    }
    return data<SettingsActionData>({ notice: { kind: "success", text: SETTINGS_TEXT.saved } });
  },
);

export default function EnquirySettingsRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <EnquirySettingsPage settings={loaderData.settings} mailOn={loaderData.mailOn} result={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
