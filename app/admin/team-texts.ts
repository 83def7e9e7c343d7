import { PASSWORD_RULES } from "~/platform/password-rules";

/**
 * The words of the Team tab, its Audit log and the invitation's page
 * (issue 21, decision 050). The refusals of the domain (the last owner, an
 * invitation no longer pending, a link that does not work) are its own
 * words (app/auth/team.server.ts, invitations.server.ts), shown as they are.
 */
export const TEAM_TEXT_ADMIN = {
  heading: "Team",
  subtitle: "Who can sign in to the back office, and what each of them may do.",
  members: "Members",
  membersNav: "Team pages",
  auditLink: "Audit log",
  loadFailure: "Error loading the team. Please check your database connection.",
  columns: { member: "Member", role: "Role", lastSignIn: "Last sign-in", twoStep: "Two-step sign-in", actions: "Actions" },
  you: "(you)",
  noName: "No name given",
  never: "Never",
  /** Two-step sign-in is not built yet: every member's is off (issue 21's factors). */
  twoStepOff: "Off",
  twoStepOn: "On",
  sessions: (count: number) => (count === 0 ? "Not signed in now" : `Signed in on ${count} ${count === 1 ? "browser" : "browsers"}`),
  roleOf: (email: string) => `Role of ${email}`,
  changeRole: "Change role",
  remove: "Remove",
  endSessions: "Sign out everywhere",
  cancel: "Cancel",
  confirmRemove: (email: string) =>
    `Remove ${email} from the team? They are signed out at once and can no longer sign in. Their entries in the audit log stay.`,
  confirmEndSessions: (email: string) => `Sign ${email} out everywhere? Every browser they are signed in on is signed out at its next page.`,
  confirmRevoke: (email: string) => `Revoke the invitation to ${email}? Its link stops working at once.`,
  roleChanged: (role: string, ended: number) =>
    ended > 0
      ? `Role changed to ${role}. Their ${ended === 1 ? "session has" : `${ended} sessions have`} ended: they sign in again to carry on as ${role}.`
      : `Role changed to ${role}. It applies from their next page.`,
  removed: (ended: number) => `Member removed${ended > 0 ? `; ${ended === 1 ? "their session has" : `their ${ended} sessions have`} ended` : ""}.`,
  sessionsEnded: (ended: number) =>
    ended === 0 ? "That member was not signed in anywhere." : `Signed out everywhere: ${ended} ${ended === 1 ? "session" : "sessions"} ended.`,
  failure: "Error changing the team. Please try again.",
  invalid: "The request was not understood. Please reload the page and try again.",
  invite: {
    heading: "Invite a member",
    hint: "They get a link by e-mail that works once, for 72 hours, to choose their name and password.",
    hintMailOff: "E-mail is off on this site (no SMTP_URL is set): you are given the link to pass on yourself.",
    email: "E-mail address",
    role: "Role",
    submit: "Send invitation",
    submitMailOff: "Create invitation link",
  },
  link: {
    label: (email: string) => `Invitation link for ${email}`,
    copy: "Copy link",
    copied: "Link copied.",
  },
  pending: {
    heading: "Pending invitations",
    empty: "No pending invitations.",
    columns: { email: "E-mail address", role: "Role", expires: "Expires", invitedBy: "Invited by", delivery: "Invitation e-mail", actions: "Actions" },
    expired: (when: string) => `Ran out ${when}`,
    revoke: "Revoke",
    handedOver: "Link shown to the owner (e-mail off)",
    delivery: {
      queued: "Waiting to be sent",
      sending: "Sending",
      sent: (when: string) => `Sent ${when}`,
      failed: (error: string | null) => `Not sent yet${error ? `: ${error}` : ""}; retrying`,
    },
  },
} as const;

export const AUDIT_TEXT = {
  heading: "Audit log",
  subtitle: "Every change made in the back office and by the server's commands, newest first.",
  kept: (days: number) => `Entries are kept for ${days} ${days === 1 ? "day" : "days"} (AUDIT_RETENTION_DAYS) and cannot be changed or deleted here.`,
  backToTeam: "Members",
  loadFailure: "Error loading the audit log. Please check your database connection.",
  filters: {
    legend: "Filter the log",
    person: "Person",
    anyone: "Anyone",
    action: "Action",
    anyAction: "Any action",
    from: "From (UK date)",
    to: "To (UK date)",
    submit: "Filter",
    clear: "Clear filters",
  },
  exportCsv: "Export CSV",
  caption: "Audit log entries, newest first",
  columns: { when: "When (UK time)", who: "Who", what: "What", record: "Record", details: "Details", ip: "Client address" },
  empty: "No entries match these filters.",
  emptyAll: "Nothing has been recorded yet.",
  pages: "Audit log pages",
  older: "Older entries",
  newest: "Back to the newest",
  groups: {
    team: "Team and signing in",
    projects: "Projects and files",
    website: "Website",
    enquiries: "Enquiries",
    backup: "Backups",
  },
  targets: {
    member: "Member",
    invitation: "Invitation",
    project: "Project",
    file: "File",
    website: "Website",
    enquiry: "Enquiry",
    enquiries: "Enquiries",
    address: "Address",
    files: "Files",
    backup: "Backup",
  } as Record<string, string>,
} as const;

export const JOIN_TEXT = {
  title: (company: string) => `Join the ${company} back office`,
  invited: (role: string, description: string) => `You are invited as ${role}: ${description}`,
  expires: (when: string) => `This invitation works until ${when} (UK time).`,
  email: "Email",
  name: "Your name",
  password: "Choose a password",
  passwordHint: `At least ${PASSWORD_RULES.minLength} characters. A long phrase you use nowhere else is best.`,
  submit: "Join the team",
  submitting: "Joining...",
  cannotUse: "This invitation cannot be used",
  signIn: "Go to the sign-in page",
  limited: (minutes: number) =>
    `Too many invitation links that do not work were tried from your connection. Please wait ${minutes} ${minutes === 1 ? "minute" : "minutes"} and try again.`,
  busy: "The server is busy checking other sign-ins. Please try again in a few seconds.",
  failure: "Your invitation could not be accepted just now. Please try again in a moment.",
  /** Joining with a passkey instead of a password (decision 054). */
  passkey: {
    or: "Or, instead of a password",
    button: "Join with a passkey",
    working: "Waiting for your passkey...",
    hint: "Your fingerprint, face, screen lock or security key signs you in: nothing to remember. Type your name above first.",
    needsScript: "Joining with a passkey needs JavaScript, which is off in this browser. Choose a password instead.",
    nameFirst: "Please type your name first.",
    expired: "The passkey request expired. Please try again.",
    invalid: "The passkey could not be checked. Please try again, or choose a password instead.",
  },
} as const;
