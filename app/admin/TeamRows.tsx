import { useId, type ReactNode } from "react";
import { Form } from "react-router";
import { ROLES, ROLE_LABELS } from "~/auth/roles";
import { ACTION_BUTTON, Confirmation as SharedConfirmation, ConfirmedForm as SharedConfirmedForm } from "./ConfirmedForm";
import { TEAM_TEXT_ADMIN } from "./team-texts";
import type { TeamConfirmation, TeamInvitationRow, TeamMemberRow } from "./team-types";
import { tabPath } from "./tabs";

/** The Team tab: its forms post here, and its links lead here. */
export const TEAM_PATH = tabPath("team");

const DANGER_BUTTON =
  "inline-flex min-h-9 items-center gap-1.5 rounded-lg bg-white px-3 py-1.5 text-sm font-medium ring-1 text-red-800 ring-red-300 hover:bg-red-50";
const CARD = "rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5";
const TEXT = TEAM_TEXT_ADMIN;

const hidden = (name: string, value: string) => <input type="hidden" name={name} value={value} />;

/** The Team tab's confirmations: to the Team tab, and back to it. */
function ConfirmedForm(props: { intent: TeamConfirmation["intent"]; id: string; question: string; children: ReactNode }) {
  return <SharedConfirmedForm action={TEAM_PATH} {...props} />;
}

function Confirmation(props: { intent: TeamConfirmation["intent"]; id: string; question: string; button: string }) {
  return <SharedConfirmation action={TEAM_PATH} cancel={{ to: TEAM_PATH, label: TEXT.cancel }} {...props} />;
}

function RoleBadge({ role }: { role: TeamMemberRow["role"] }) {
  const colours = role === "owner" ? "bg-blue-50 text-blue-900 ring-blue-300" : "bg-slate-100 text-slate-800 ring-slate-400";
  return <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${colours}`}>{ROLE_LABELS[role]}</span>;
}

/** One member: who, their role, when they last signed in, two-step sign-in, and what an owner can do about them. */
export function MemberCard({ member, confirm }: { member: TeamMemberRow; confirm: TeamConfirmation | undefined }) {
  const titleId = useId();
  const roleId = useId();
  const confirming = confirm?.id === member.id ? confirm.intent : undefined;
  return (
    <li>
      <article aria-labelledby={titleId} className={CARD}>
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={titleId} className="text-lg font-semibold [overflow-wrap:anywhere] text-slate-900">
            {member.email} {member.you ? <span className="text-base font-normal text-slate-700">{TEXT.you}</span> : null}
          </h3>
          <RoleBadge role={member.role} />
        </div>
        <p className="text-sm text-slate-700">{member.name ?? TEXT.noName}</p>
        <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-700">
          <div className="flex gap-1">
            <dt>{TEXT.columns.lastSignIn}:</dt>
            <dd className="font-medium text-slate-900">{member.lastSignIn ?? TEXT.never}</dd>
          </div>
          <div className="flex gap-1">
            <dt>{TEXT.columns.twoStep}:</dt>
            <dd className="font-medium text-slate-900">{member.twoStep ? TEXT.twoStepOn : TEXT.twoStepOff}</dd>
          </div>
        </dl>
        <p className="mt-1 text-sm text-slate-700">{TEXT.sessions(member.activeSessions)}</p>

        {confirming === "remove-member" ? (
          <Confirmation intent="remove-member" id={member.id} question={TEXT.confirmRemove(member.email)} button={TEXT.remove} />
        ) : confirming === "end-sessions" ? (
          <Confirmation intent="end-sessions" id={member.id} question={TEXT.confirmEndSessions(member.email)} button={TEXT.endSessions} />
        ) : null}

        <div className="mt-4 flex flex-wrap items-end gap-2 border-t border-slate-100 pt-3">
          <Form method="post" action={TEAM_PATH} preventScrollReset className="flex flex-wrap items-end gap-2">
            {hidden("intent", "change-role")}
            {hidden("id", member.id)}
            <label htmlFor={roleId} className="sr-only">
              {TEXT.roleOf(member.email)}
            </label>
            {/* Keyed by the role, so a change shown by the server is what the list shows. */}
            <select
              key={member.role}
              id={roleId}
              name="role"
              defaultValue={member.role}
              className="min-h-9 rounded-lg border border-slate-500 bg-white px-2 py-1.5 text-sm text-slate-900"
            >
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </select>
            <button type="submit" className={ACTION_BUTTON}>
              {TEXT.changeRole}
            </button>
          </Form>
          <ConfirmedForm intent="end-sessions" id={member.id} question={TEXT.confirmEndSessions(member.email)}>
            <button type="submit" className={ACTION_BUTTON}>
              {TEXT.endSessions}
            </button>
          </ConfirmedForm>
          <ConfirmedForm intent="remove-member" id={member.id} question={TEXT.confirmRemove(member.email)}>
            <button type="submit" className={DANGER_BUTTON}>
              {TEXT.remove}
            </button>
          </ConfirmedForm>
        </div>
      </article>
    </li>
  );
}

/** One pending invitation: to whom, as what, until when, who sent it, how its e-mail stands; Revoke. */
export function InvitationCard({ invitation, confirm }: { invitation: TeamInvitationRow; confirm: TeamConfirmation | undefined }) {
  const titleId = useId();
  const columns = TEXT.pending.columns;
  return (
    <li>
      <article aria-labelledby={titleId} className={`${CARD} ${invitation.expired ? "border-dashed bg-slate-50" : ""}`}>
        <div className="flex flex-wrap items-center gap-2">
          <h4 id={titleId} className="font-semibold [overflow-wrap:anywhere] text-slate-900">
            {invitation.email}
          </h4>
          <RoleBadge role={invitation.role} />
        </div>
        <dl className="mt-2 grid gap-1 text-sm text-slate-700 sm:grid-cols-[auto_1fr] sm:gap-x-3">
          <dt>{columns.expires}:</dt>
          <dd className="font-medium text-slate-900">{invitation.expired ? TEXT.pending.expired(invitation.expires) : invitation.expires}</dd>
          <dt>{columns.invitedBy}:</dt>
          <dd className="font-medium [overflow-wrap:anywhere] text-slate-900">{invitation.invitedBy}</dd>
          <dt>{columns.delivery}:</dt>
          <dd className={`font-medium [overflow-wrap:anywhere] ${invitation.deliveryFailing ? "text-red-800" : "text-slate-900"}`}>
            {invitation.delivery ?? TEXT.pending.handedOver}
          </dd>
        </dl>
        {confirm?.id === invitation.id && confirm.intent === "revoke-invitation" ? (
          <Confirmation intent="revoke-invitation" id={invitation.id} question={TEXT.confirmRevoke(invitation.email)} button={TEXT.pending.revoke} />
        ) : null}
        <div className="mt-3 flex flex-wrap gap-2">
          <ConfirmedForm intent="revoke-invitation" id={invitation.id} question={TEXT.confirmRevoke(invitation.email)}>
            <button type="submit" className={DANGER_BUTTON}>
              {TEXT.pending.revoke}
            </button>
          </ConfirmedForm>
        </div>
      </article>
    </li>
  );
}
