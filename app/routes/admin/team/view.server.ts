import type { TeamInvitationRow, TeamMemberRow, TeamView } from "~/admin/team-types";
import { TEAM_TEXT_ADMIN } from "~/admin/team-texts";
import { listInvitations, type InvitationSummary } from "~/auth/invitations.server";
import { listMembers } from "~/auth/team.server";
import { membersWithSecondFactor } from "~/auth/second-factor-policy.server";
import type { Db } from "~/platform/db/db.server";
import { formatSubmittedAt } from "~/platform/dates";
import type { Log } from "~/platform/observe/log.server";

const PENDING = TEAM_TEXT_ADMIN.pending;

/** An invitation's e-mail in words: waiting, sent (when), failing (why); null when the link was handed over instead. */
function deliveryOf(delivery: InvitationSummary["emailDelivery"]): { text: string | null; failing: boolean } {
  if (!delivery) return { text: null, failing: false };
  switch (delivery.status) {
    case "queued":
      return { text: PENDING.delivery.queued, failing: false };
    case "sending":
      return { text: PENDING.delivery.sending, failing: false };
    case "sent":
      return { text: PENDING.delivery.sent(delivery.sentAt ? formatSubmittedAt(delivery.sentAt) : ""), failing: false };
    case "failed":
      return { text: PENDING.delivery.failed(delivery.lastError), failing: true };
  }
}

/**
 * What the Team tab shows: the members (by e-mail address) and the pending
 * invitations (newest first), worded here, in UK time. A failure to read
 * says so on the tab, with one log line.
 */
export async function loadTeamTab(
  { db, log, mailOn }: { db: Db; log: Pick<Log, "error">; mailOn: boolean },
  memberId: string,
  now = new Date(),
): Promise<TeamView> {
  try {
    const [members, invitations, secured] = await Promise.all([listMembers(db, now), listInvitations(db, now), membersWithSecondFactor(db)]);
    return {
      status: "ok",
      mailOn,
      members: members.map(
        (member): TeamMemberRow => ({
          id: member.id,
          email: member.email,
          name: member.name,
          role: member.role,
          lastSignIn: member.lastSignInAt === null ? null : formatSubmittedAt(member.lastSignInAt),
          // On with either second factor the owners' requirement accepts: an authenticator app or a passkey.
          twoStep: secured.has(member.id),
          activeSessions: member.activeSessions,
          you: member.id === memberId,
        }),
      ),
      invitations: invitations.map((invitation): TeamInvitationRow => {
        const delivery = deliveryOf(invitation.emailDelivery);
        return {
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          expires: formatSubmittedAt(invitation.expiresAt),
          expired: invitation.expired,
          invitedBy: invitation.invitedBy,
          delivery: delivery.text,
          deliveryFailing: delivery.failing,
        };
      }),
    };
  } catch (error) {
    log.error({ err: error }, "Could not load the team");
    return { status: "error", mailOn };
  }
}
