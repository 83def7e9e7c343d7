import type { Role } from "~/auth/roles";
import type { Notice } from "./types";

/** A member as the Team tab shows them, its words made on the server (times in UK time). */
export type TeamMemberRow = {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  /** "22 Nov 2026, 14:05", or null before their first sign-in. */
  lastSignIn: string | null;
  /** Whether two-step sign-in is on: off for everyone until it is built (issue 21's factors). */
  twoStep: boolean;
  activeSessions: number;
  /** The member looking at the page. */
  you: boolean;
};

export type TeamInvitationRow = {
  id: string;
  email: string;
  role: Role;
  /** When its link stops working, in UK time. */
  expires: string;
  expired: boolean;
  invitedBy: string;
  /** Its e-mail, in words; null when e-mail was off and the link was shown to the owner. */
  delivery: string | null;
  /** The e-mail is failing: shown as a problem. */
  deliveryFailing: boolean;
};

export type TeamView = { status: "ok"; members: TeamMemberRow[]; invitations: TeamInvitationRow[]; mailOn: boolean } | { status: "error"; mailOn: boolean };

/** What a Team action needs confirmed before it is done, without JavaScript. */
export type TeamConfirmation = { intent: "remove-member" | "end-sessions" | "revoke-invitation"; id: string };

/** What a Team action answers (decision 009's notices and confirmations). */
export type TeamActionData = {
  notice?: Notice;
  /** E-mail is off: the link of the invitation just made, shown once, and why. */
  invitationLink?: { email: string; link: string; message: string };
  /** Without JavaScript a removal, sign-out or revocation first asks on the page. */
  confirm?: TeamConfirmation;
  /** The invitation form, refused: shown again as it was sent, with its problem. */
  inviteForm?: { email: string; role: string; problem: "email" | "role" | "other" };
};

/** An entry of the Audit log as its view shows it (times in UK time). */
export type AuditRow = {
  id: number;
  when: string;
  /** ISO 8601 (UTC), for a <time> element. */
  at: string;
  who: string;
  what: string;
  record: string;
  details: string;
  ip: string;
};

export type AuditFilters = { person: string; kind: string; from: string; to: string };

export type AuditView =
  | {
      status: "ok";
      entries: AuditRow[];
      filters: AuditFilters;
      filtered: boolean;
      people: Array<{ id: string; email: string }>;
      /** The next (older) page's address; undefined on the last page. */
      olderHref: string | undefined;
      /** The first page's address, when this is a later one. */
      newestHref: string | undefined;
      exportHref: string;
      retentionDays: number;
    }
  | { status: "error"; filters: AuditFilters; retentionDays: number };
