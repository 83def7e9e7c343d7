import { randomBytes, randomUUID } from "node:crypto";
import { createAdmin } from "~/auth/admins.server";
import { RESET_LINK_MS } from "~/auth/password-reset.server";
import { hashToken } from "~/auth/sessions.server";
import type { Db } from "~/platform/db/db.server";
import { TEST_ACTOR } from "./actors";

/**
 * A member made for it, and a working password-reset link of theirs, by its
 * token: what the outbox worker stores when it sends the e-mail. A reset the
 * test makes through it sets this member's password, nobody else's.
 */
export async function memberWithResetLink(db: Db, email: string): Promise<string> {
  const member = await createAdmin(db, email, "a long password before the reset", TEST_ACTOR);
  const token = randomBytes(32).toString("base64url");
  const now = new Date();
  await db
    .insertInto("password_resets")
    .values({
      id: randomUUID(),
      admin_id: member.id,
      token_hash: hashToken(token),
      requested_ip: "127.0.0.1",
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + RESET_LINK_MS).toISOString(),
    })
    .execute();
  return token;
}
