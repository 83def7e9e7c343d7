import type { Kysely } from "kysely";
import type { MigrationDialect } from "./types";

/**
 * Joining the team with a passkey instead of a password (issue 21, decision
 * 054): the challenge of a passkey made on the invitation's page belongs to
 * the invitation, not yet to a member. One nullable column; a challenge
 * goes with its invitation. Adding a column rebuilds nothing, so this runs
 * as it is inside a restore's one transaction (decision 040).
 */
export async function up(db: Kysely<unknown>, _dialect: MigrationDialect): Promise<void> {
  await db.schema
    .alterTable("webauthn_challenges")
    .addColumn("invitation_id", "text", (col) => col.references("admin_invitations.id").onDelete("cascade"))
    .execute();
}
