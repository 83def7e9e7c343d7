import { useEffect, useId, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { ROLES, ROLE_DESCRIPTIONS, ROLE_LABELS } from "~/auth/roles";
import { Icon } from "~/components/Icon";
import { NoticeRegion } from "./NoticeRegion";
import { AUDIT_LOG_PATH } from "./tabs";
import { TEAM_TEXT_ADMIN } from "./team-texts";
import type { TeamActionData, TeamView } from "./team-types";
import { InvitationCard, MemberCard, TEAM_PATH } from "./TeamRows";
import { useHydrated } from "./use-hydrated";

const TEXT = TEAM_TEXT_ADMIN;
const INPUT =
  "mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-blue-600 aria-invalid:border-red-700";

/** The Team tab's two pages, Members and Audit log, as links: each is an address of its own. */
export function TeamPages({ current }: { current: "members" | "audit" }) {
  const item = (page: "members" | "audit", to: string, label: string) => (
    <li>
      <Link
        to={to}
        aria-current={page === current ? "page" : undefined}
        className={`inline-block rounded-lg px-4 py-2 text-sm font-medium ${
          page === current ? "bg-white text-slate-900 shadow-sm ring-1 ring-slate-500" : "text-slate-700 hover:bg-white/70 hover:text-slate-900"
        }`}
      >
        {label}
      </Link>
    </li>
  );
  return (
    <nav aria-label={TEXT.membersNav} className="mt-6">
      <ul className="inline-flex flex-wrap gap-1 rounded-xl bg-slate-200/70 p-1">
        {item("members", TEAM_PATH, TEXT.members)}
        {item("audit", AUDIT_LOG_PATH, TEXT.auditLink)}
      </ul>
    </nav>
  );
}

/**
 * The Team tab (an owner's, decision 050): the members with their role, last
 * sign-in and two-step sign-in, what can be done about each, the invitation
 * form and the pending invitations. Every form is a plain POST to the tab,
 * so it all works without JavaScript.
 */
export function TeamPanel({ view, actionData }: { view: TeamView; actionData: TeamActionData | undefined }) {
  const members = view.status === "ok" ? view.members : [];
  const invitations = view.status === "ok" ? view.invitations : [];
  return (
    <section aria-labelledby="team-heading">
      <h2 id="team-heading" className="text-2xl font-bold text-slate-900">
        {TEXT.heading}
      </h2>
      <p className="mt-1 text-slate-600">{TEXT.subtitle}</p>
      <TeamPages current="members" />

      <NoticeRegion notice={actionData?.notice} watch={members} className="mt-6" />
      {actionData?.invitationLink ? <InvitationLink {...actionData.invitationLink} /> : null}

      {view.status === "error" ? (
        <p role="alert" className="mt-6 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-red-800">
          {TEXT.loadFailure}
        </p>
      ) : (
        <>
          <h3 id="members-heading" className="sr-only">
            {TEXT.members}
          </h3>
          <ul aria-labelledby="members-heading" className="mt-6 space-y-4">
            {members.map((member) => (
              <MemberCard key={member.id} member={member} confirm={actionData?.confirm} />
            ))}
          </ul>
        </>
      )}

      <div className="mt-10 grid gap-8 lg:grid-cols-2">
        <InviteForm mailOn={view.mailOn} refused={actionData?.inviteForm} />
        {view.status === "ok" ? (
          <section aria-labelledby="pending-heading">
            <h3 id="pending-heading" className="text-xl font-semibold text-slate-900">
              {TEXT.pending.heading}
            </h3>
            {invitations.length === 0 ? (
              <p className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-8 text-center text-slate-700">{TEXT.pending.empty}</p>
            ) : (
              <ul aria-labelledby="pending-heading" className="mt-4 space-y-3">
                {invitations.map((invitation) => (
                  <InvitationCard key={invitation.id} invitation={invitation} confirm={actionData?.confirm} />
                ))}
              </ul>
            )}
          </section>
        ) : null}
      </div>
    </section>
  );
}

/** Invite by e-mail address and role; the roles say what each may do. */
function InviteForm({ mailOn, refused }: { mailOn: boolean; refused: TeamActionData["inviteForm"] }) {
  const hintId = useId();
  const emailInvalid = refused?.problem === "email";
  const roleInvalid = refused?.problem === "role";
  return (
    <section aria-labelledby="invite-heading" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h3 id="invite-heading" className="text-xl font-semibold text-slate-900">
        {TEXT.invite.heading}
      </h3>
      <p id={hintId} className="mt-1 text-sm text-slate-600">
        {mailOn ? TEXT.invite.hint : TEXT.invite.hintMailOff}
      </p>
      {/* Keyed by what was refused, so a refused form shows what was sent. */}
      <Form key={refused ? `${refused.email} ${refused.role}` : "new"} method="post" action={TEAM_PATH} preventScrollReset className="mt-4 space-y-4">
        <input type="hidden" name="intent" value="invite" />
        <div>
          <label htmlFor="invite-email" className="block text-sm font-medium text-slate-800">
            {TEXT.invite.email}
          </label>
          <input
            id="invite-email"
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            spellCheck={false}
            defaultValue={refused?.email}
            aria-invalid={emailInvalid || undefined}
            aria-describedby={hintId}
            className={INPUT}
          />
        </div>
        <fieldset aria-invalid={roleInvalid || undefined}>
          <legend className="text-sm font-medium text-slate-800">{TEXT.invite.role}</legend>
          <div className="mt-2 space-y-2">
            {ROLES.map((role) => (
              <div key={role} className="flex gap-3 rounded-lg p-2 ring-1 ring-slate-200 has-checked:bg-blue-50 has-checked:ring-blue-400">
                <input
                  id={`invite-role-${role}`}
                  type="radio"
                  name="role"
                  value={role}
                  required
                  defaultChecked={refused?.role === role}
                  aria-describedby={`invite-role-${role}-description`}
                  className="mt-1 size-4 accent-blue-700"
                />
                <div>
                  <label htmlFor={`invite-role-${role}`} className="font-medium text-slate-900">
                    {ROLE_LABELS[role]}
                  </label>
                  <p id={`invite-role-${role}-description`} className="text-sm text-slate-600">
                    {ROLE_DESCRIPTIONS[role]}
                  </p>
                </div>
              </div>
            ))}
          </div>
        </fieldset>
        <button type="submit" className="inline-flex items-center gap-2 rounded-lg bg-blue-700 px-4 py-2 font-semibold text-white shadow-sm hover:bg-blue-800">
          <Icon name="envelope" className="size-5" />
          {mailOn ? TEXT.invite.submit : TEXT.invite.submitMailOff}
        </button>
      </Form>
    </section>
  );
}

/**
 * E-mail is off: the link of the invitation just made, to pass on, and why.
 * Shown once (it is not kept anywhere the page could read it again); focus
 * comes here, to the words, and the link can be copied with a button.
 */
function InvitationLink({ email, link, message }: { email: string; link: string; message: string }) {
  const hydrated = useHydrated();
  const region = useRef<HTMLElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => region.current?.focus(), []);
  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-labelledby="invitation-link-message"
      className="mt-6 rounded-xl border-2 border-amber-600 bg-amber-50 px-4 py-4 text-amber-950 sm:px-5"
    >
      <p id="invitation-link-message" role="status">
        {message}
      </p>
      <label htmlFor="invitation-link" className="mt-3 block text-sm font-medium">
        {TEXT.link.label(email)}
      </label>
      <div className="mt-1 flex flex-wrap gap-2">
        <input
          id="invitation-link"
          type="text"
          readOnly
          value={link}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded-lg border border-slate-500 bg-white px-3 py-2 font-mono text-sm text-slate-900"
        />
        {hydrated ? (
          <button
            type="button"
            className="rounded-lg bg-white px-4 py-2 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-400 hover:bg-slate-50"
            onClick={() => {
              void navigator.clipboard?.writeText(link).then(() => setCopied(true));
            }}
          >
            {TEXT.link.copy}
          </button>
        ) : null}
      </div>
      <p aria-live="polite" className="mt-2 text-sm empty:hidden">
        {copied ? TEXT.link.copied : ""}
      </p>
    </section>
  );
}
