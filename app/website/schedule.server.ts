import { isDatabaseUnavailable, type Db } from "~/platform/db/db.server";
import { databaseFailureText } from "~/platform/db/database-health.server";
import type { Log } from "~/platform/observe/log.server";
import { toIsoString } from "~/platform/db/db-values";
import { startRepeating, type Repeating } from "~/platform/fleet/schedule.server";
import type { Clock } from "~/platform/fleet/clock.server";
import { overDefaults, type SiteContent } from "./content";
import { publishContent, readDraft, readLive } from "./website.server";
import { audit } from "~/audit/audit.server";
import { systemActor, type Actor } from "~/audit/actor";
import { inTransaction } from "~/platform/db/transactions.server";
import { changesLegalDetails, mayChangeLegalDetails } from "./legal-sections";

/**
 * A publish set for a date and time (decision 027): the draft as it was when
 * it was scheduled is published then, whether or not anybody is signed in,
 * once, by exactly one instance: the one whose update marks it done, in the
 * same transaction as the new version (a crash in between leaves it due).
 * Times are on the database's clock (clock.server.ts).
 */
export type ScheduledPublish = { id: number; publishAt: string; scheduledBy: string; revision: number };

export async function readSchedule(db: Db): Promise<ScheduledPublish | undefined> {
  const row = await db
    .selectFrom("site_schedule")
    .select(["id", "publish_at", "scheduled_by", "revision"])
    .where("done_at", "is", null)
    .orderBy("publish_at")
    .limit(1)
    .executeTakeFirst();
  return row && { id: Number(row.id), publishAt: toIsoString(row.publish_at), scheduledBy: row.scheduled_by, revision: Number(row.revision) };
}

/**
 * Schedules the draft as it is at `baseRevision` for `publishAt`, in place of
 * any pending one. Refused as stale when the draft moved since it was read.
 */
export async function schedulePublish(
  db: Db,
  change: { defaults: SiteContent; baseRevision: number; publishAt: Date; by: string; actor: Actor; now: Date },
): Promise<{ ok: true } | { ok: false; reason: "stale" | "legal-details" }> {
  return inTransaction(db, async (trx) => {
    const draft = await readDraft(trx, change.defaults);
    if (draft.revision !== change.baseRevision) return { ok: false, reason: "stale" } as const;
    if (!mayChangeLegalDetails(change.actor) && changesLegalDetails((await readLive(trx, change.defaults)).content, draft.content)) {
      return { ok: false, reason: "legal-details" } as const;
    }
    await trx.deleteFrom("site_schedule").where("done_at", "is", null).execute();
    await trx
      .insertInto("site_schedule")
      .values({
        content: JSON.stringify(draft.content),
        revision: draft.revision,
        publish_at: change.publishAt.toISOString(),
        scheduled_by: change.by,
        created_at: change.now.toISOString(),
        done_at: null,
      })
      .execute();
    await audit(trx, { actor: change.actor, action: "website-scheduled", details: { at: change.publishAt.toISOString() }, at: change.now });
    return { ok: true } as const;
  });
}

/**
 * Cancels the pending publish; false when there was none. An Editor may not
 * cancel one that would change the legal sections: that is an owner's
 * decision, as publishing it is.
 */
export async function cancelSchedule(db: Db, change: { defaults: SiteContent; actor: Actor }): Promise<boolean | "legal-details"> {
  return inTransaction(db, async (trx) => {
    if (!mayChangeLegalDetails(change.actor)) {
      const pending = await trx.selectFrom("site_schedule").select("content").where("done_at", "is", null).execute();
      const live = (await readLive(trx, change.defaults)).content;
      const touchesLegal = pending.some((row) => changesLegalDetails(live, overDefaults(JSON.parse(row.content) as Record<string, unknown>, change.defaults)));
      if (touchesLegal) return "legal-details";
    }
    const deleted = await trx.deleteFrom("site_schedule").where("done_at", "is", null).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    await audit(trx, { actor: change.actor, action: "website-schedule-cancelled" });
    return true;
  });
}

/**
 * Publishes what is due at `now`, if anything: claims it (only one instance's
 * update finds it not done; there is one pending schedule at most) and
 * publishes it in one transaction. Returns the new version's number.
 */
export async function publishDue(db: Db, now: Date): Promise<number | undefined> {
  return inTransaction(db, async (trx) => {
    // The write comes first: of two instances, the second waits for the first's transaction and then finds it done.
    const [due] = await trx
      .updateTable("site_schedule")
      .set({ done_at: now.toISOString() })
      .where("done_at", "is", null)
      .where("publish_at", "<=", now.toISOString())
      .returning(["content", "scheduled_by"])
      .execute();
    if (!due) return undefined;
    return publishContent(trx, { content: due.content, by: `${due.scheduled_by} (scheduled)`, actor: systemActor("scheduled publish"), now });
  });
}

/** The server's check for due publishes: every 20 seconds. */
export function startScheduledPublishing({ db, clock, log }: { db: Db; clock: Clock; log: Pick<Log, "info" | "warn" | "error"> }): Repeating {
  return startRepeating(
    async () => {
      try {
        const version = await publishDue(db, clock.now());
        if (version !== undefined) log.info(`Published the scheduled website version ${version}`);
      } catch (error) {
        // The database away (restarting, unreachable): named in one line; the next check publishes it.
        if (isDatabaseUnavailable(error)) log.warn(`Could not publish the scheduled website version yet: ${databaseFailureText(error)}`);
        else log.error({ err: error }, "Could not publish the scheduled website version");
      }
    },
    { firstAfterMs: 2_000, everyMs: 20_000 },
  );
}
