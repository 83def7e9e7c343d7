import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { TeamPanel } from "~/admin/TeamPanel";
import type { TeamActionData } from "~/admin/team-types";
import { FORM_TEXT } from "~/admin/texts";
import { siteUrl } from "~/platform/http/context";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import { requireMember, servicesContext } from "~/services";
import { handleTeamAction } from "./actions.server";
import { loadTeamTab } from "./view.server";
import type { Route } from "./+types/route";

/** The Team tab (/admin/team, an owner's): the members, the pending invitations, and the forms that change them (decision 050). */
export async function loader(args: Route.LoaderArgs) {
  const { admin } = requireMember(args, "team");
  const { db, log, mail } = args.context.get(servicesContext);
  return { team: await loadTeamTab({ db, log, mailOn: mail !== undefined }, admin.adminId) };
}

/** Headers an action sets (Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** Outside the role: 403 before the body is read. */
export async function action(args: Route.ActionArgs) {
  requireMember(args, "team");
  return teamAction(args);
}

const teamAction = withBody(
  (request: Request) => readFormFields(request, ADMIN_FORM_LIMIT, FORM_TEXT.notUnderstood),
  (refusal) => data<TeamActionData>({ notice: { kind: "error", text: refusal.message } }, { status: refusal.status, headers: refusal.headers }),
  async (args: Route.ActionArgs, fields) => {
    const { actor } = requireMember(args, "team");
    const services = args.context.get(servicesContext);
    return handleTeamAction(
      {
        db: services.db,
        outbox: services.outbox,
        log: services.log,
        mail: services.mail && { from: services.mail.from },
        companyName: services.company.name,
        // The link starts with PUBLIC_URL, or the address this request came to.
        siteUrl: siteUrl(services, args.request),
      },
      fields,
      actor,
    );
  },
);

export default function TeamTab({ loaderData, actionData }: Route.ComponentProps) {
  return <TeamPanel view={loaderData.team} actionData={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
