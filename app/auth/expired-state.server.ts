import { deleteExpiredEmails } from "~/enquiries/outbox.server";
import type { Db } from "~/platform/db/db.server";
import { startFleetJob } from "~/platform/fleet/job-runs.server";
import type { Log } from "~/platform/observe/log.server";
import type { Repeating } from "~/platform/fleet/schedule.server";

/** Used and expired reset links are kept this long, so a late click is told "expired" or "used" rather than "unknown". */
const KEEP_RESETS_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes what signing in leaves behind once its time is up: pending
 * sign-ins, passkey challenges, reset links, and e-mail jobs past their time
 * (a reset request not sent within 30 minutes). Each is also refused when
 * read past its time, so this is tidiness and data minimisation, not safety.
 */
export async function pruneExpiredSignInState(db: Db, now: Date): Promise<void> {
  const at = now.toISOString();
  await deleteExpiredEmails(db, now);
  await db.deleteFrom("pending_sign_ins").where("expires_at", "<=", at).execute();
  await db.deleteFrom("webauthn_challenges").where("expires_at", "<=", at).execute();
  await db
    .deleteFrom("password_resets")
    .where("expires_at", "<=", new Date(now.getTime() - KEEP_RESETS_MS).toISOString())
    .execute();
}

/** Every 10 minutes across the fleet, by one instance (platform/fleet/job-runs.server.ts). */
export function startPruningSignInState(db: Db, log: Pick<Log, "error">, now: () => Date): Repeating {
  return startFleetJob(
    { db, name: "sign-in-pruning", everyMs: 10 * 60_000, firstAfterMs: 90_000, now },
    () => pruneExpiredSignInState(db, now()),
    (error) => log.error({ err: error }, "Could not prune expired sign-in state"),
  );
}
