import { STORED_ROLES, type StoredRole } from "~/platform/db/schema";

/**
 * Who may do what in the back office (issue 21, docs/decisions/042): three
 * roles, and the one table that maps each to what it may do. The server asks
 * `can` (through requireRole, require-role.server.ts) before any handler reads
 * a body; the screens ask it to show a member only the tabs of their role.
 * Shared by server and browser: no secrets, only names.
 */

/** As the database stores them (migration 012's CHECK): a fourth role starts there. */
export const ROLES = STORED_ROLES;
export type Role = StoredRole;

/** The names the interface uses, exactly (issue 21). */
export const ROLE_LABELS: Record<Role, string> = { owner: "Owner", editor: "Editor", enquiries: "Enquiries" };

/** One line per role for the invitation form and the Team tab. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  owner: "Everything, including the Team tab, the audit log and the site's legal details.",
  editor: "Renovation Projects and the Website tab (not the Fees, Legal details and Policies sections).",
  enquiries: "Contact Submissions, its CSV export and the data requests.",
};

/**
 * What can be allowed. `legal-details` is the Website tab's Fees, Legal details
 * and Policies sections (app/website/legal-sections.ts): what the law makes
 * the company answer for, so an owner's alone.
 */
export const PERMISSIONS = [
  "projects",
  "website",
  "legal-details",
  "enquiries",
  "enquiries-export",
  "enquiry-settings",
  "data-requests",
  "team",
  "audit-log",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** What each permission is, for a refusal's words ("An Editor may not use the Team tab."). */
export const PERMISSION_LABELS: Record<Permission, string> = {
  projects: "Renovation Projects",
  website: "the Website tab",
  "legal-details": "the site's legal details",
  enquiries: "Contact Submissions",
  "enquiries-export": "the CSV export of Contact Submissions",
  "enquiry-settings": "the reply templates, reasons and acknowledgement of Contact Submissions",
  "data-requests": "the data requests",
  team: "the Team tab",
  "audit-log": "the audit log",
};

const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(PERMISSIONS),
  editor: new Set<Permission>(["projects", "website"]),
  enquiries: new Set<Permission>(["enquiries", "enquiries-export", "data-requests"]),
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].has(permission);
}

export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((permission) => can(role, permission));
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/**
 * A change of role that takes anything away (owner → editor, editor →
 * enquiries, …). The member's sessions end with it: a page open in their
 * browser must not keep what the role no longer allows. A change that only
 * adds keeps them: the role is read afresh at every request anyway.
 */
export function takesAway(from: Role, to: Role): boolean {
  return permissionsOf(from).some((permission) => !can(to, permission));
}

/** "An Owner", "An Editor", "An Enquiries member": the subject of a refusal. */
export function roleSubject(role: Role): string {
  return role === "enquiries" ? "An Enquiries member" : `An ${ROLE_LABELS[role]}`;
}
