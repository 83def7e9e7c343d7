import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("api/contact", "routes/api.contact.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("site.webmanifest", "routes/manifest.ts"),
  // Admin: every loader and action here starts with requireAdmin (sign-in excepted, by nature),
  // and tests/integration/admin-access.test.ts fails for one it does not know.
  route("admin", "routes/admin.tsx"),
  route("admin/sign-in", "routes/admin.sign-in.tsx"),
  route("admin/sign-out", "routes/admin.sign-out.tsx"),
  route("admin/enquiries.csv", "routes/admin.enquiries-csv.ts"),
  route("admin/data-requests", "routes/admin.data-requests.tsx"),
  route("api/admin/enquiries", "routes/api.admin.enquiries.ts"),
  route("api/admin/images", "routes/api.admin.images.ts"),
] satisfies RouteConfig;
