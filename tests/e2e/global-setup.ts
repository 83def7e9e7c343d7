import type { FullConfig } from "@playwright/test";
import { migrateToLatest, openDatabase } from "~/platform/db/db.server";
import { createProject } from "~/projects/projects.server";
import { SEED_PROJECTS } from "./seed-data";
import { TEST_ACTOR } from "../support/actors";

/**
 * Playwright starts the web server before global setup, so the server has
 * already migrated the database when this runs. Seeding through the app's own
 * data layer, over a second SQLite connection (WAL allows it), keeps the rows
 * exactly as the app writes them. The page reads projects per request, so the
 * server sees them at once.
 */
export default async function globalSetup(_config: FullConfig): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set: run the tests through playwright.config.ts");
  const database = openDatabase({ dataDir, databaseUrl: undefined });
  try {
    await migrateToLatest(database);
    for (const project of SEED_PROJECTS) await createProject(database.db, project, TEST_ACTOR);
  } finally {
    await database.close();
  }
}
