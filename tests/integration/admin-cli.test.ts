import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findAdminByEmail } from "~/auth/admins.server";
import { verifyPassword } from "~/auth/password.server";
import { createSession, findSession } from "~/auth/sessions.server";
import { signIn } from "~/auth/sign-in.server";
import { migrateToLatest, type Database } from "~/platform/db.server";
import { backends, type TestDatabase } from "../support/backends";
import { assertBuilt, repoRoot } from "../support/server";

type Run = { code: number | null; stdout: string; stderr: string };

/** `npm run admin -- <args>` as npm runs it (node scripts/admin.js), with `input` piped on stdin. */
function admin(env: Record<string, string | undefined>, args: string[], input = ""): Promise<Run> {
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
    for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
    const child = spawn(process.execPath, [path.join(repoRoot, "scripts/admin.js"), ...args], {
      cwd: repoRoot,
      env: childEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const PASSWORD = "a long admin password";

describe.each(backends)("npm run admin on $name", (backend) => {
  let testDb: TestDatabase;
  let database: Database;
  let env: Record<string, string | undefined>;

  beforeAll(async () => {
    assertBuilt();
    testDb = await backend.createDatabase();
    env = { ...testDb.env };
    database = testDb.open();
    await migrateToLatest(database);
  });
  afterAll(() => testDb.cleanup());

  it("shows its commands, and fails on an unknown one", async () => {
    const help = await admin(env, ["help"]);
    expect(help.code).toBe(0);
    for (const command of ["create", "set-password", "list", "delete"]) expect(help.stdout).toContain(command);
    const unknown = await admin(env, ["promote", "x@example.com"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('Unknown command "promote"');
  });

  it("creates an admin with the password from stdin, stored as an Argon2id hash", async () => {
    const run = await admin(env, ["create", "Owner@Example.com"], `${PASSWORD}\n`);
    expect(run.stderr).not.toContain(PASSWORD);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Created the admin owner@example.com");
    const stored = await findAdminByEmail(database.db, "owner@example.com");
    expect(stored?.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(PASSWORD, stored!.password_hash)).toBe(true);
  });

  it("refuses a second admin with the same e-mail in another case", async () => {
    const run = await admin(env, ["create", "OWNER@example.com"], `${PASSWORD}\n`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("already exists");
  });

  it("never takes a password from the command line", async () => {
    const run = await admin(env, ["create", "argv@example.com", PASSWORD]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Passwords are not taken from the command line");
    expect(await findAdminByEmail(database.db, "argv@example.com")).toBeUndefined();
  });

  it("refuses a short password, an empty stdin and a malformed e-mail, creating nothing", async () => {
    const short = await admin(env, ["create", "short@example.com"], "hunter2\n");
    expect(short.code).toBe(1);
    expect(short.stderr).toContain("at least 12 characters");
    const empty = await admin(env, ["create", "empty@example.com"], "");
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("No password on stdin");
    const malformed = await admin(env, ["create", "not-an-address"], `${PASSWORD}\n`);
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain("is not an e-mail address");
    for (const email of ["short@example.com", "empty@example.com"]) {
      expect(await findAdminByEmail(database.db, email)).toBeUndefined();
    }
  });

  it("lists the admins with their active sessions", async () => {
    const owner = await findAdminByEmail(database.db, "owner@example.com");
    await createSession(database.db, owner!.id);
    const run = await admin(env, ["list"]);
    expect(run.code).toBe(0);
    const line = run.stdout.split("\n").find((text) => text.startsWith("owner@example.com"));
    expect(line).toMatch(/^owner@example\.com\s+\d{1,2} \w{3} \d{4}, \d{2}:\d{2}\s+1\s+/);
  });

  it("set-password changes the password and ends every session of that admin", async () => {
    const owner = await findAdminByEmail(database.db, "owner@example.com");
    const { token } = await createSession(database.db, owner!.id);
    expect(await findSession(database.db, token)).toBeDefined();
    const run = await admin(env, ["set-password", "owner@example.com"], "a brand new passphrase\n");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ended [1-9]\d* sessions?/);
    expect(await findSession(database.db, token)).toBeUndefined();
    const updated = await findAdminByEmail(database.db, "owner@example.com");
    expect(await verifyPassword("a brand new passphrase", updated!.password_hash)).toBe(true);
    expect(await verifyPassword(PASSWORD, updated!.password_hash)).toBe(false);
  });

  it("unlock lifts a lockout without changing the password", async () => {
    const attempt = { email: "owner@example.com", limit: 100 };
    for (let i = 0; i < 10; i++) {
      await signIn(database.db, { ...attempt, password: "wrong guess", clientIp: `198.51.100.${i}` });
    }
    const locked = await signIn(database.db, { ...attempt, password: "a brand new passphrase", clientIp: "203.0.113.9" });
    expect(locked).toMatchObject({ ok: false, reason: "limited" });
    const run = await admin(env, ["unlock", "owner@example.com"]);
    expect(run.code).toBe(0);
    const unlocked = await signIn(database.db, { ...attempt, password: "a brand new passphrase", clientIp: "203.0.113.9" });
    expect(unlocked.ok).toBe(true);
  });

  it("delete removes the admin and their sessions; deleting again says there is none", async () => {
    const owner = await findAdminByEmail(database.db, "owner@example.com");
    const { token } = await createSession(database.db, owner!.id);
    const run = await admin(env, ["delete", "owner@example.com"]);
    expect(run.code).toBe(0);
    expect(await findAdminByEmail(database.db, "owner@example.com")).toBeUndefined();
    expect(await findSession(database.db, token)).toBeUndefined();
    const again = await admin(env, ["delete", "owner@example.com"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("There is no admin with the e-mail owner@example.com");
  });
});
