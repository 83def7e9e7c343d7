import { data } from "react-router";
import { PERMISSION_LABELS, ROLE_LABELS, can, roleSubject, type Permission } from "./roles";
import type { AdminSession } from "./sessions.server";

/**
 * The role check of every admin loader and action (issue 21): after the
 * session check of the admin layout (require-admin.server.ts), before any body
 * is read. Outside the member's role the answer is 403, with one log line:
 * the request's own, which says why (never a stack trace).
 */
export type Refusal = { reason: "forbidden"; message: string };

export function refusalMessage(session: Pick<AdminSession, "role">, permission: Permission): string {
  return `${roleSubject(session.role)} may not use ${PERMISSION_LABELS[permission]}.`;
}

export function requireRole(
  session: Pick<AdminSession, "role">,
  permission: Permission,
  { request, refused }: { request: Request; refused: (reason: string) => void },
): void {
  if (can(session.role, permission)) return;
  const message = refusalMessage(session, permission);
  refused(`role ${ROLE_LABELS[session.role]} may not use ${permission}`);
  // React Router matches /API/admin/… too.
  if (new URL(request.url).pathname.toLowerCase().startsWith("/api/")) {
    throw Response.json({ error: message }, { status: 403, headers: { "Cache-Control": "no-store" } });
  }
  throw data<Refusal>({ reason: "forbidden", message }, { status: 403, statusText: "Not allowed for this role" });
}
