import type { Kysely } from "kysely";
import { timestampType, type MigrationDialect } from "./types";

/**
 * Work a fleet does once, not once per instance (issue 16): retention and the
 * pruning of rate-limit events. Each job's next run is one row; an instance
 * runs the job only when it moves next_run_at on from a time that has come,
 * which one UPDATE does for exactly one instance (platform/fleet/job-runs.server.ts).
 */
export async function up(db: Kysely<unknown>, dialect: MigrationDialect): Promise<void> {
  await db.schema
    .createTable("job_runs")
    .addColumn("name", "text", (col) => col.primaryKey())
    .addColumn("next_run_at", timestampType(dialect), (col) => col.notNull())
    .execute();
}
