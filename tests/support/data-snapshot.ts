import type { Database } from "~/platform/db/db.server";
import { filesIn } from "./images";

/**
 * What a request can change, to show that a refused one changed nothing: every
 * table a request writes (the job schedule is left out: the fleet's jobs move
 * it on their own) and the images on disk. Sessions leave out last_seen_at,
 * which using a session touches.
 */
export async function dataSnapshot(reader: Database, imagesDir: string) {
  const { db } = reader;
  const [
    enquiries,
    outbox,
    admins,
    sessions,
    limits,
    projects,
    images,
    files,
    siteDraft,
    siteVersions,
    siteSchedule,
    publicVersion,
    invitations,
    replies,
    enquirySettings,
  ] = await Promise.all([
    db.selectFrom("contact_submissions").selectAll().orderBy("id").execute(),
    db.selectFrom("email_outbox").select(["id", "submission_id", "kind", "message"]).orderBy("id").execute(),
    db.selectFrom("admin_users").selectAll().orderBy("id").execute(),
    db.selectFrom("admin_sessions").select(["id", "admin_id", "created_at", "expires_at"]).orderBy("id").execute(),
    db.selectFrom("rate_limit_events").selectAll().orderBy("id").execute(),
    db.selectFrom("renovation_projects").selectAll().orderBy("id").execute(),
    db.selectFrom("images").selectAll().orderBy("name").execute(),
    filesIn(imagesDir),
    db.selectFrom("site_draft").selectAll().execute(),
    db.selectFrom("site_versions").selectAll().orderBy("number").execute(),
    db.selectFrom("site_schedule").selectAll().execute(),
    db.selectFrom("public_data_version").selectAll().execute(),
    db.selectFrom("admin_invitations").selectAll().orderBy("id").execute(),
    // Replies and the owner's settings for them (decision 059).
    db.selectFrom("enquiry_replies").selectAll().orderBy("id").execute(),
    db.selectFrom("enquiry_settings").selectAll().execute(),
  ]);
  return {
    enquiries,
    outbox,
    admins,
    sessions,
    limits,
    projects,
    images,
    files,
    siteDraft,
    siteVersions,
    siteSchedule,
    publicVersion,
    invitations,
    replies,
    enquirySettings,
  };
}

export type DataSnapshot = Awaited<ReturnType<typeof dataSnapshot>>;
