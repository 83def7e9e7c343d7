import { afterEach } from "vitest";
import { createAdmin } from "~/auth/admins.server";
import { signIn, type SignInAttempt, type SignInResult } from "~/auth/sign-in.server";
import { migrateToLatest, type Database, type Db } from "~/platform/db/db.server";
import { plainLog } from "~/platform/observe/log.server";
import { TEST_ACTOR } from "./actors";
import type { Backend, TestDatabase } from "./backends";

/** What the auth domain tests share: migrated databases of a backend (deleted after each test), members, a hand-moved clock. */
export const PASSWORD = "correct horse battery staple";

/** Log lines, kept out of the test output and open to assertions. */
export function quietLog() {
  const lines: string[] = [];
  return { lines, log: plainLog((line) => void lines.push(line)) };
}

/** Opens migrated databases of the backend for one test; each is closed and deleted after it. */
export function migratedDatabases(backend: Backend) {
  const created: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(created.splice(0).map((database) => database.cleanup()));
  });
  return {
    async open(): Promise<Database & { again(): Database }> {
      const testDatabase = await backend.createDatabase();
      created.push(testDatabase);
      const database = testDatabase.open();
      await migrateToLatest(database);
      // A second connection pool on the same database: another instance of the server.
      return Object.assign(database, { again: () => testDatabase.open() });
    },
  };
}

/** A clock the tests move by hand: `at(90 * MINUTE)` is 90 minutes after the start. */
export function clock(start = new Date()) {
  return (offsetMs = 0) => new Date(start.getTime() + offsetMs);
}

export async function member(db: Db, email: string, password = PASSWORD): Promise<{ id: string; email: string }> {
  const admin = await createAdmin(db, email, password, TEST_ACTOR);
  return { id: admin.id, email: admin.email };
}

export function passwordSignIn(db: Db, overrides: Partial<SignInAttempt> & { email: string }): Promise<SignInResult> {
  return signIn(db, { password: PASSWORD, clientIp: "192.0.2.1", limit: 5, log: plainLog(() => {}), ...overrides });
}

export function expectOk<T extends { ok: boolean }>(result: T): Extract<T, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result)}`);
  return result as Extract<T, { ok: true }>;
}
