import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { ADMIN_TABS, TAB_PAGES } from "./admin/tabs";

export default [
  index("routes/home.tsx"),
  route("api/contact", "routes/api.contact.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("site.webmanifest", "routes/manifest.ts"),
  route("fees", "routes/fees.tsx"),
  route("valuation", "routes/valuation.tsx"),
  // One module for the three policies, each at its own address.
  route("privacy", "routes/policy.tsx", { id: "policy-privacy" }),
  route("terms", "routes/policy.tsx", { id: "policy-terms" }),
  route("cookies", "routes/policy.tsx", { id: "policy-cookies" }),
  // Signing in is open to anybody, by nature, and so are its other steps: the two-step code (after a right
  // password) and a forgotten password (its request, and the e-mailed link's page).
  route("admin/sign-in", "routes/admin.sign-in.tsx"),
  route("admin/two-step", "routes/admin.two-step.tsx"),
  route("admin/forgot-password", "routes/admin.forgot-password.tsx"),
  route("admin/reset-password", "routes/admin.reset-password.tsx"),
  // Accepting an invitation: its link is for somebody not yet a member (decision 050).
  route("admin/join", "routes/admin.join.tsx"),
  // Joining with a passkey instead of a password, from the invitation's page (decision 054).
  route("api/join-passkey", "routes/api.join-passkey.ts"),
  // "Sign in with a passkey": open to anybody too, held to the sign-in limits.
  route("api/passkey-sign-in", "routes/api.passkey-sign-in.ts"),
  // Every other admin route: the layout checks the session before any of their loaders or
  // actions runs; tests/integration/admin-access.test.ts proves it for each route listed here.
  layout("routes/admin-guard.tsx", [
    // The dashboard: its header and tab list around each tab, a route of its own (decision 045).
    route("admin", "routes/admin.tsx", [
      index("routes/admin/index.tsx"),
      // One route per entry of app/admin/tabs.ts: /admin/projects, /admin/enquiries, /admin/website.
      ...ADMIN_TABS.map((tab) => route(tab.id, `routes/admin/${tab.id}/route.tsx`)),
      // A tab's other pages, in its folder: /admin/team/audit.
      ...TAB_PAGES.map(({ tab, page }) => route(`${tab}/${page}`, `routes/admin/${tab}/${page}/route.tsx`)),
      // The member's own account: a page under the dashboard, not a tab (decisions 045, 052).
      route("account", "routes/admin/account/route.tsx"),
    ]),
    route("admin/sign-out", "routes/admin.sign-out.tsx"),
    route("admin/enquiries.csv", "routes/admin.enquiries-csv.ts"),
    route("admin/enquiries/figures.csv", "routes/admin.enquiries-figures-csv.ts"),
    route("admin/team/audit.csv", "routes/admin.team-audit-csv.ts"),
    route("admin/data-requests", "routes/admin.data-requests.tsx"),
    route("admin/website/preview", "routes/admin.website-preview.tsx"),
    route("api/admin/enquiries", "routes/api.admin.enquiries.ts"),
    route("api/admin/images", "routes/api.admin.images.ts"),
    route("api/admin/passkeys", "routes/api.admin.passkeys.ts"),
  ]),
] satisfies RouteConfig;
