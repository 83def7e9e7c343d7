import { type RouteConfig, index, layout, route } from "@react-router/dev/routes";
import { ADMIN_TABS } from "./admin/tabs";

export default [
  index("routes/home.tsx"),
  route("api/contact", "routes/api.contact.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("site.webmanifest", "routes/manifest.ts"),
  route("fees", "routes/fees.tsx"),
  // One module for the three policies, each at its own address.
  route("privacy", "routes/policy.tsx", { id: "policy-privacy" }),
  route("terms", "routes/policy.tsx", { id: "policy-terms" }),
  route("cookies", "routes/policy.tsx", { id: "policy-cookies" }),
  // Signing in is the one admin route open to anybody, by nature.
  route("admin/sign-in", "routes/admin.sign-in.tsx"),
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
      // The member's own account: a page under the dashboard, not a tab (decisions 045, 052).
      route("account", "routes/admin/account/route.tsx"),
    ]),
    route("admin/sign-out", "routes/admin.sign-out.tsx"),
    route("admin/enquiries.csv", "routes/admin.enquiries-csv.ts"),
    route("admin/data-requests", "routes/admin.data-requests.tsx"),
    route("admin/website/preview", "routes/admin.website-preview.tsx"),
    route("api/admin/enquiries", "routes/api.admin.enquiries.ts"),
    route("api/admin/images", "routes/api.admin.images.ts"),
    route("api/admin/passkeys", "routes/api.admin.passkeys.ts"),
  ]),
] satisfies RouteConfig;
