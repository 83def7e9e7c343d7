import { data } from "react-router";
import type { TeamActionData, TeamConfirmation } from "~/admin/team-types";
import { TEAM_TEXT_ADMIN } from "~/admin/team-texts";
import type { MemberActor } from "~/audit/actor";
import type { OutboxSignal } from "~/enquiries/outbox.server";
import { INVITATION_TEXT, inviteMember, revokeInvitation, type InviteResult } from "~/auth/invitations.server";
import { ROLE_LABELS, isRole } from "~/auth/roles";
import { changeRole, endMemberSessions, removeMember, type TeamChange } from "~/auth/team.server";
import type { Db } from "~/platform/db/db.server";
import { isUuid } from "~/platform/ids";
import type { Log } from "~/platform/observe/log.server";

export const TEAM_INTENTS = ["invite", "revoke-invitation", "change-role", "remove-member", "end-sessions"] as const;
type TeamIntent = (typeof TEAM_INTENTS)[number];

function isTeamIntent(intent: string | undefined): intent is TeamIntent {
  return (TEAM_INTENTS as readonly string[]).includes(intent ?? "");
}

/** What the Team actions need: the database, e-mail (off without SMTP_URL), the company's name and the site's address for the link. */
export type TeamServices = {
  db: Db;
  outbox: OutboxSignal;
  log: Pick<Log, "error">;
  /** MAIL_FROM; undefined when e-mail is off. */
  mail: { from: string } | undefined;
  companyName: string;
  siteUrl: string;
};

const answer = (body: TeamActionData, status = 200) => data<TeamActionData>(body, { status });
const notice = (kind: "success" | "error", text: string, status: number) => answer({ notice: { kind, text } }, status);

/** The domain's refusals, as HTTP: the last owner and an unchanged role are conflicts with the team as it is. */
const REFUSAL_STATUS: Record<Exclude<TeamChange, { ok: true }>["reason"], number> = { "not-found": 404, "last-owner": 409, unchanged: 409, "not-allowed": 403 };
const INVITE_STATUS: Record<Exclude<InviteResult, { ok: true }>["reason"], number> = {
  "invalid-email": 400,
  "invalid-role": 400,
  "member-exists": 409,
  "not-allowed": 403,
};

/**
 * The Team tab's forms, by `intent`, for an owner (the route asked the role
 * before the body was read): invite, revoke an invitation, change a role,
 * remove a member, end a member's sessions. Bad input answers 400 and
 * changes nothing; the domain's refusals (the last owner) answer with its
 * message; a database failure 503. Removing, signing out and revoking first
 * ask, on the page without JavaScript (`confirmed=yes` the second time).
 */
export async function handleTeamAction(services: TeamServices, fields: Record<string, string>, actor: MemberActor) {
  const { intent, id } = fields;
  if (!isTeamIntent(intent)) return notice("error", TEAM_TEXT_ADMIN.invalid, 400);
  if (intent === "invite") return invite(services, fields, actor);
  if (!isUuid(id)) return notice("error", TEAM_TEXT_ADMIN.invalid, 400);
  const role = isRole(fields.role) ? fields.role : undefined;
  if (intent === "change-role" && role === undefined) return notice("error", TEAM_TEXT_ADMIN.invalid, 400);
  if (intent !== "change-role" && fields.confirmed !== "yes") return answer({ confirm: { intent, id } satisfies TeamConfirmation });

  try {
    switch (intent) {
      case "revoke-invitation": {
        const revoked = await revokeInvitation(services.db, id, actor);
        return revoked.ok ? notice("success", INVITATION_TEXT.revoked, 200) : notice("error", revoked.message, revoked.reason === "not-pending" ? 404 : 403);
      }
      case "change-role": {
        const changed = await changeRole(services.db, id, role!, actor);
        if (!changed.ok) return notice("error", changed.message, REFUSAL_STATUS[changed.reason]);
        return notice("success", TEAM_TEXT_ADMIN.roleChanged(ROLE_LABELS[role!], changed.endedSessions), 200);
      }
      case "remove-member": {
        const removed = await removeMember(services.db, id, actor);
        if (!removed.ok) return notice("error", removed.message, REFUSAL_STATUS[removed.reason]);
        return notice("success", TEAM_TEXT_ADMIN.removed(removed.endedSessions), 200);
      }
      case "end-sessions": {
        const ended = await endMemberSessions(services.db, id, actor);
        if (!ended.ok) return notice("error", ended.message, REFUSAL_STATUS[ended.reason]);
        return notice("success", TEAM_TEXT_ADMIN.sessionsEnded(ended.endedSessions), 200);
      }
    }
  } catch (error) {
    services.log.error({ err: error }, `Could not change the team (${intent})`);
    return notice("error", TEAM_TEXT_ADMIN.failure, 503);
  }
}

async function invite(services: TeamServices, fields: Record<string, string>, actor: MemberActor) {
  const email = (fields.email ?? "").trim().slice(0, 320);
  const role = fields.role ?? "";
  let invited: InviteResult;
  try {
    invited = await inviteMember(services.db, { email, role }, actor, {
      mail: services.mail,
      companyName: services.companyName,
      siteUrl: services.siteUrl,
      outbox: services.outbox,
    });
  } catch (error) {
    services.log.error({ err: error }, "Could not invite a member");
    return answer({ notice: { kind: "error", text: TEAM_TEXT_ADMIN.failure }, inviteForm: { email, role, problem: "other" } }, 503);
  }
  if (!invited.ok) {
    const problem = invited.reason === "invalid-role" ? "role" : invited.reason === "not-allowed" ? "other" : "email";
    return answer({ notice: { kind: "error", text: invited.message }, inviteForm: { email, role, problem } }, INVITE_STATUS[invited.reason]);
  }
  const { delivery, invitation } = invited;
  if (delivery.kind === "link") return answer({ invitationLink: { email: invitation.email, link: delivery.link, message: delivery.message } });
  return notice("success", delivery.message, 200);
}
