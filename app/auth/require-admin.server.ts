import { data, isRouteErrorResponse, type RouterContextProvider } from "react-router";
import { requestContext } from "~/platform/http/context";
import type { CookieSettings } from "~/platform/http/cookies.server";
import type { Db } from "~/platform/db/db.server";
import { CROSS_SITE_MESSAGE, SAFE_METHODS, isSameOrigin } from "./same-origin";
import { findSession, readSessionToken, type AdminSession } from "./sessions.server";

type Context = Readonly<RouterContextProvider>;

function isApi(request: Request): boolean {
  // React Router matches /API/admin/… too.
  return new URL(request.url).pathname.toLowerCase().startsWith("/api/");
}

/**
 * Express refuses cross-site writes to the whole site before they get here
 * (server/app.ts); this is the same check where the admin's handlers can see it.
 */
export function isSameOriginRequest(request: Request): boolean {
  const headers = { origin: request.headers.get("origin"), secFetchSite: request.headers.get("sec-fetch-site") };
  return isSameOrigin(headers, new URL(request.url).host);
}

/** Refuses (403) a state-changing request that another site sent. */
export function assertSameOrigin(request: Request): void {
  if (SAFE_METHODS.has(request.method) || isSameOriginRequest(request)) return;
  if (isApi(request)) throw Response.json({ error: CROSS_SITE_MESSAGE }, { status: 403 });
  throw data({ reason: "cross-site" as const }, { status: 403, statusText: "Cross-site request refused" });
}

/**
 * The signed-in admin of a request, or a refusal: 403 for a change another
 * site sent, 401 for anybody not signed in (JSON for /api/ routes; for pages
 * an error the admin routes render as the sign-in form). The admin routes'
 * layout (routes/admin-guard.tsx) calls it once, before any of their loaders
 * or actions runs and before any body is read.
 */
export async function authenticateAdmin(request: Request, { db, cookie }: { db: Db; cookie: CookieSettings }): Promise<AdminSession> {
  assertSameOrigin(request);
  const token = readSessionToken(request, cookie);
  const admin = token ? await findSession(db, token) : undefined;
  if (admin) return admin;
  if (isApi(request)) {
    throw Response.json({ error: "Sign in required." }, { status: 401, headers: { "Cache-Control": "no-store" } });
  }
  throw data({ reason: "signed-out" as const }, { status: 401, statusText: "Sign in required" });
}

/** The client's IP address as the server sees it (the socket, or X-Forwarded-For under TRUST_PROXY). */
export function clientIp(context: Context): string {
  return context.get(requestContext).clientIp;
}

/**
 * A page visit whose only refusal is requireAdmin's "not signed in" is the
 * sign-in page: answered 200, as sign-in pages are (a 401 document is logged
 * as an error by browsers). Writes, data requests and APIs keep their 401.
 */
export function isSignInPage(request: Request, status: number, errors: Record<string, unknown> | null | undefined): boolean {
  if (status !== 401 || (request.method !== "GET" && request.method !== "HEAD") || !errors) return false;
  const refusals = Object.values(errors);
  return (
    refusals.length > 0 &&
    refusals.every((error) => isRouteErrorResponse(error) && error.status === 401 && (error.data as { reason?: unknown } | null)?.reason === "signed-out")
  );
}
