// Types only: app/routes.ts reads this file while the route table is built, before "~/" means anything.
import type { Permission } from "~/auth/roles";
import { DASHBOARD_TEXT, WEBSITE_TEXT_ADMIN } from "./texts";

/**
 * The dashboard's tabs, in their order on the page (decision 045). Each is a
 * route of its own, `/admin/<id>`, whose module is
 * `app/routes/admin/<id>/route.tsx` beside its server code: app/routes.ts
 * makes one route per entry, and the dashboard one tab. Adding a tab is one
 * entry here and one such folder. `/admin` itself shows the first tab.
 * Each names the permission (app/auth/roles.ts) its route requires of every
 * loader and action, and a member sees only the tabs of their role.
 */
export const ADMIN_TABS = [
  { id: "projects", label: DASHBOARD_TEXT.projectsTab, permission: "projects" },
  { id: "enquiries", label: DASHBOARD_TEXT.contactsTab, permission: "enquiries" },
  { id: "website", label: WEBSITE_TEXT_ADMIN.tab, permission: "website" },
  { id: "team", label: DASHBOARD_TEXT.teamTab, permission: "team" },
] as const satisfies ReadonlyArray<{ id: string; label: string; permission: Permission }>;

export type AdminTabId = (typeof ADMIN_TABS)[number]["id"];

/** The tabs a member may open (`allowed`: what their role may do), in their order on the page. */
export function tabsAllowed(allowed: (permission: Permission) => boolean): AdminTabId[] {
  return ADMIN_TABS.filter((tab) => allowed(tab.permission)).map((tab) => tab.id);
}

export const DASHBOARD_PATH = "/admin";

/** The member's own account page: under the dashboard, not a tab. */
export const ACCOUNT_PATH = "/admin/account";

export function tabPath(id: AdminTabId): string {
  return `${DASHBOARD_PATH}/${id}`;
}

/**
 * Pages of a tab besides its own address, each a route of its own under the
 * dashboard (app/routes.ts): the tab stays selected on them (decision 050).
 */
export const TAB_PAGES = [
  { tab: "team", page: "audit" },
  // Decision 059: the owner's reply templates, reasons and acknowledgement; a member's reply composer.
  { tab: "enquiries", page: "settings" },
  { tab: "enquiries", page: "reply" },
] as const satisfies ReadonlyArray<{ tab: AdminTabId; page: string }>;

/** Contact Submissions' settings (owners) and the reply composer (?id=…), pages of its tab. */
export const ENQUIRY_SETTINGS_PATH = `${DASHBOARD_PATH}/enquiries/settings`;
export const REPLY_PATH = `${DASHBOARD_PATH}/enquiries/reply`;

/** The Audit log, a page of the Team tab. */
export const AUDIT_LOG_PATH = `${DASHBOARD_PATH}/team/audit`;

/**
 * The tab a path shows: `/admin` the first, `/admin/<id>` and its pages
 * (TAB_PAGES) its own; undefined for any other page. React Router matches paths case-insensitively and
 * percent-decoded, so this does too.
 */
export function tabOfPath(pathname: string): AdminTabId | undefined {
  let path: string;
  try {
    path = decodeURIComponent(pathname).toLowerCase().replace(/\/+$/, "");
  } catch {
    return undefined;
  }
  if (path === DASHBOARD_PATH) return ADMIN_TABS[0].id;
  return ADMIN_TABS.find((tab) => path === tabPath(tab.id))?.id ?? TAB_PAGES.find(({ tab, page }) => path === `${tabPath(tab)}/${page}`)?.tab;
}

/** The `?tab=` values of the addresses from before the tabs were routes, and where each moved. */
const OLD_TABS: Readonly<Record<string, AdminTabId>> = { projects: "projects", contacts: "enquiries" };

/**
 * Where an old dashboard address moved (`/admin?tab=contacts&filter=unread` →
 * `/admin/enquiries?filter=unread`), the rest of its query kept; undefined for
 * an address without `?tab=`. An unknown value showed the first tab, and
 * still leads to the first (`first`: the member's own first tab).
 */
export function movedTabAddress(url: URL, first: AdminTabId = ADMIN_TABS[0].id): string | undefined {
  const old = url.searchParams.get("tab");
  if (old === null) return undefined;
  const rest = new URLSearchParams(url.search);
  rest.delete("tab");
  const query = rest.toString();
  return `${tabPath(Object.hasOwn(OLD_TABS, old) ? OLD_TABS[old]! : first)}${query ? `?${query}` : ""}`;
}

/**
 * Admin pages a signed-out admin is sent back to after signing in, with their
 * query (the sign-in action checks it again: never another site).
 */
export const RETURN_PATHS: ReadonlySet<string> = new Set([
  DASHBOARD_PATH,
  ...ADMIN_TABS.map((tab) => tabPath(tab.id)),
  ...TAB_PAGES.map(({ tab, page }) => `${tabPath(tab)}/${page}`),
  "/admin/data-requests",
  ACCOUNT_PATH,
]);

/** `returnTo` of the sign-in form, when it is one of RETURN_PATHS with a plain query; else undefined. */
export function returnPath(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const match = /^([^?]*)(\?[\w=&%.@+-]*)?$/.exec(value);
  return match && RETURN_PATHS.has(match[1]!) ? value : undefined;
}
