import type { Db } from "~/platform/db/db.server";
import { ipLimitSubject, takeSlot, type RefusalMemory } from "~/platform/limits/rate-limit.server";
import type { Tally } from "~/platform/limits/tally.server";
import type { CookieSettings } from "~/platform/http/cookies.server";
import { checkInvitation, type LinkRefusal, type PendingInvitation } from "./invitations.server";
import { LOGIN_WINDOW_MS, MIN_ADDRESS_ATTEMPTS } from "./sign-in.server";

/**
 * The invitation's page (/admin/join?token=…, decision 050): the link is
 * looked up only after a place under a limit per client address, as a
 * sign-in is checked only after its places (decision 018). A link that names
 * an invitation (open, used, run out or withdrawn) gives its place back; one
 * that names none keeps it, so one connection can try at most JOIN_LIMIT of
 * them in 15 minutes, and is then refused without a query until a place
 * frees up. Each refusal is counted for the dashboard's banner, where the
 * company sees what the limit turned away. The tokens are 256 random bits:
 * the limit keeps guessing from costing lookups, not from succeeding.
 */

/** Links that name no invitation, per client address (an IPv6 /64) in 15 minutes: as many as sign-in attempts from one address. */
export function joinLimit(loginRateLimit: number): number {
  return Math.max(MIN_ADDRESS_ATTEMPTS, 4 * loginRateLimit);
}

export type LinkCheck = ({ ok: true } & PendingInvitation) | LinkRefusal | { ok: false; reason: "limited"; retryAfterSeconds: number };

/** The HTTP status of a link that cannot be used, on the invitation's page and its passkey endpoint: 404 names none, 410 used, withdrawn or run out, 409 a member already, 429 the limit. */
export const LINK_REFUSAL_STATUS: Record<Exclude<LinkCheck, { ok: true }>["reason"], number> = {
  unknown: 404,
  expired: 410,
  used: 410,
  revoked: 410,
  "member-exists": 409,
  limited: 429,
};

export type JoinServices = { db: Db; refusals: RefusalMemory; tally: Pick<Tally, "count"> };

/** What the link stands for, or why it cannot be used; "limited" before any lookup when the address has tried too many. */
export async function checkInvitationLink(
  { db, refusals, tally }: JoinServices,
  { token, clientIp, loginRateLimit, now = new Date() }: { token: string; clientIp: string; loginRateLimit: number; now?: Date },
): Promise<LinkCheck> {
  const subject = ipLimitSubject(clientIp);
  const key = `join-link ${subject}`;
  const limited = (retryAfterSeconds: number): LinkCheck => {
    tally.count("join-refused-limit", now);
    return { ok: false, reason: "limited", retryAfterSeconds };
  };
  const remembered = refusals.refusedFor(key, now);
  if (remembered !== undefined) return limited(remembered);
  const place = await takeSlot(db, "join-link", subject, { limit: joinLimit(loginRateLimit), windowMs: LOGIN_WINDOW_MS, now });
  if (!place.ok) {
    refusals.remember(key, new Date(now.getTime() + place.retryAfterSeconds * 1000));
    return limited(place.retryAfterSeconds);
  }
  const found = await checkInvitation(db, token, now);
  if (found.ok || found.reason !== "unknown") await place.release();
  return found;
}

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A Secure cookie sent over plain HTTP to anything but this machine is
 * dropped by the browser: the invitation would be used and nobody signed in.
 * The page says why instead (as the sign-in form does).
 */
export function sessionCookieWouldBeDropped(request: Request, cookie: CookieSettings): boolean {
  const url = new URL(request.url);
  return cookie.secure && url.protocol === "http:" && !LOOPBACK_HOSTS.has(url.hostname);
}
