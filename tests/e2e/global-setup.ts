import type { FullConfig } from "@playwright/test";
import { ensureAdmin } from "~/auth/admins.server";
import { migrateToLatest, openDatabase } from "~/platform/db/db.server";
import { createProject } from "~/projects/projects.server";
import { SEED_PROJECTS } from "./seed-data";
import { SITE_ADMIN, saveSignedInState } from "./signed-in";
import { TEST_ACTOR } from "../support/actors";

/**
 * Playwright starts the web servers before global setup, so each has already
 * migrated its database when this runs. Seeding through the app's own data
 * layer, over a second SQLite connection (WAL allows it), keeps the rows
 * exactly as the app writes them. The page reads projects per request, so the
 * server sees them at once. Then one sign-in per server, saved as the browser
 * state the admin specs start from (signed-in.ts).
 */
export default async function globalSetup(_config: FullConfig): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the tests through playwright.config.ts");
  const database = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await migrateToLatest(database);
    for (const project of SEED_PROJECTS) await createProject(database.db, project, TEST_ACTOR);
    await ensureAdmin(database.db, SITE_ADMIN.email, SITE_ADMIN.password);
  } finally {
    await database.close();
  }
  await Promise.all((["admin", "website", "site"] as const).map((server) => saveSignedInState(server)));
}
