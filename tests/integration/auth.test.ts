/**
 * Admin authentication on each backend: accounts, server-side sessions,
 * sign-in with its rate limit and lockout through the domain functions (with
 * an injected clock), and the sign-in pages of the built server over HTTP.
 */
import { randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { plainLog } from "~/platform/observe/log.server";
import { LOGIN_TEXT } from "~/admin/texts";
import {
  AdminError,
  countAdmins,
  createAdmin,
  deleteAdmin,
  findAdminByEmail,
  ensureAdmin,
  liftLockout,
  listAdmins,
  setAdminPassword,
} from "~/auth/admins.server";
import { createSession, findSession, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from "~/auth/sessions.server";
import { LOCKOUT, LOGIN_WINDOW_MS, MIN_ADDRESS_ATTEMPTS, signIn, type SignInAttempt, type SignInResult } from "~/auth/sign-in.server";
import type { Database, Db } from "~/platform/db/db.server";
import { backends, type TestDatabase } from "../support/backends";
import { runAdmin } from "../support/admin-cli";
import { startServer, type SpawnedServer } from "../support/server";
import { waitFor } from "../support/wait";
import { visibleText } from "../support/html";
import { TEST_ACTOR } from "../support/actors";

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

const EMAIL = "owner@example.com";
const PASSWORD = "correct horse battery staple";
const OTHER_PASSWORD = "a different long passphrase";

/** A clock the tests move by hand: `at(90 * MINUTE)` is 90 minutes after the start. */
function clock(start = new Date()) {
  return (offsetMs = 0) => new Date(start.getTime() + offsetMs);
}

async function sessionRows(db: Db) {
  return db.selectFrom("admin_sessions").selectAll().execute();
}

async function adminId(db: Db, email: string): Promise<string> {
  const row = await db.selectFrom("admin_users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
  return row.id;
}

function expectSignedIn(result: SignInResult): asserts result is Extract<SignInResult, { ok: true }> {
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

describe.each(backends)("admin authentication on $name", (backend) => {
  describe("domain", () => {
    const created: TestDatabase[] = [];
    afterEach(async () => {
      await Promise.all(created.splice(0).map((database) => database.cleanup()));
    });

    async function migratedDatabase(): Promise<Database> {
      const testDatabase = await backend.createDatabase({ migrated: true });
      created.push(testDatabase);
      return testDatabase.open();
    }

    /** A migrated database with the admin EMAIL / PASSWORD. */
    async function withAdmin(): Promise<Db> {
      const { db } = await migratedDatabase();
      await createAdmin(db, EMAIL, PASSWORD, TEST_ACTOR);
      return db;
    }

    function attempt(db: Db, overrides: Partial<SignInAttempt>): Promise<SignInResult> {
      return signIn(db, { email: EMAIL, password: PASSWORD, clientIp: "192.0.2.1", limit: 5, log: plainLog(() => {}), ...overrides });
    }

    describe("admins", () => {
      it("creates an admin under the trimmed, lower-cased e-mail", async () => {
        const { db } = await migratedDatabase();
        const admin = await createAdmin(db, "  Owner@Example.COM ", PASSWORD, TEST_ACTOR);
        expect(admin.email).toBe(EMAIL);
        expect(await countAdmins(db)).toBe(1);
        expectSignedIn(await attempt(db, { email: EMAIL }));
        expectSignedIn(await attempt(db, { email: "OWNER@example.com" }));
      });

      it("refuses a second admin whose e-mail differs only in case", async () => {
        const db = await withAdmin();
        await expect(createAdmin(db, "OWNER@Example.com", OTHER_PASSWORD, TEST_ACTOR)).rejects.toThrow(AdminError);
        expect(await countAdmins(db)).toBe(1);
        // The first account's password still stands.
        expectSignedIn(await attempt(db, { password: PASSWORD }));
        expect(await attempt(db, { password: OTHER_PASSWORD })).toEqual({ ok: false, reason: "invalid" });
      });

      it("refuses a password shorter than 12 characters", async () => {
        const { db } = await migratedDatabase();
        await expect(createAdmin(db, EMAIL, "short pass", TEST_ACTOR)).rejects.toThrow(AdminError);
        expect(await countAdmins(db)).toBe(0);
      });

      it("ensureAdmin creates a missing admin, an owner, and never overwrites an existing one's password", async () => {
        const { db } = await migratedDatabase();
        expect(await ensureAdmin(db, EMAIL, PASSWORD)).toBe(true);
        expect((await findAdminByEmail(db, EMAIL))?.role).toBe("owner");
        const created = await db.selectFrom("audit_log").select(["actor_type", "actor_label", "action"]).execute();
        expect(created).toEqual([{ actor_type: "system", actor_label: "the server (ADMIN_EMAIL)", action: "member-created" }]);
        expect(await ensureAdmin(db, EMAIL, OTHER_PASSWORD)).toBe(false);
        expect(await ensureAdmin(db, "Owner@Example.com", OTHER_PASSWORD)).toBe(false);
        expect(await countAdmins(db)).toBe(1);
        expectSignedIn(await attempt(db, { password: PASSWORD }));
        expect(await attempt(db, { password: OTHER_PASSWORD })).toEqual({ ok: false, reason: "invalid" });
      });

      it("lists the admins by e-mail with their active sessions", async () => {
        const db = await withAdmin();
        await createAdmin(db, "assistant@example.com", OTHER_PASSWORD, TEST_ACTOR);
        expectSignedIn(await attempt(db, {}));
        expectSignedIn(await attempt(db, {}));

        const admins = await listAdmins(db);
        expect(admins.map((admin) => [admin.email, admin.activeSessions])).toEqual([
          ["assistant@example.com", 0],
          [EMAIL, 2],
        ]);
        expect(admins[0]!.lastSeenAt).toBeNull();
        expect(Date.parse(admins[1]!.lastSeenAt!)).toBeGreaterThan(Date.now() - MINUTE);
        expect(Date.parse(admins[1]!.createdAt)).toBeGreaterThan(Date.now() - MINUTE);
      });

      it("deleteAdmin removes the admin and every session of theirs", async () => {
        const db = await withAdmin();
        await createAdmin(db, "assistant@example.com", OTHER_PASSWORD, TEST_ACTOR);
        const mine = await attempt(db, {});
        const theirs = await attempt(db, { email: "assistant@example.com", password: OTHER_PASSWORD });
        expectSignedIn(mine);
        expectSignedIn(theirs);

        await deleteAdmin(db, "Owner@Example.com", TEST_ACTOR);

        expect(await findSession(db, mine.token)).toBeUndefined();
        expect((await sessionRows(db)).map((row) => row.admin_id)).toEqual([await adminId(db, "assistant@example.com")]);
        expect(await findSession(db, theirs.token)).toMatchObject({ email: "assistant@example.com" });
        expect((await listAdmins(db)).map((admin) => admin.email)).toEqual(["assistant@example.com"]);
        expect(await attempt(db, {})).toEqual({ ok: false, reason: "invalid" });
        await expect(deleteAdmin(db, EMAIL, TEST_ACTOR)).rejects.toThrow(AdminError);
      });
    });

    describe("sessions", () => {
      it("finds a session by its token, with the admin's e-mail", async () => {
        const db = await withAdmin();
        const at = clock();
        const { token, expiresAt } = await createSession(db, await adminId(db, EMAIL), at());
        expect(expiresAt).toEqual(at(SESSION_ABSOLUTE_MS));
        expect(await findSession(db, token, at(MINUTE))).toMatchObject({ email: EMAIL, expiresAt });
      });

      it("ends a session left unused for 2 hours, and deletes its row", async () => {
        expect(SESSION_IDLE_MS).toBe(2 * HOUR);
        const db = await withAdmin();
        const at = clock();
        const id = await adminId(db, EMAIL);
        const kept = await createSession(db, id, at());
        const left = await createSession(db, id, at());

        // Used after 1 h 59 min: still valid, and the idle time starts again.
        expect(await findSession(db, kept.token, at(2 * HOUR - MINUTE))).toBeDefined();
        expect(await findSession(db, left.token, at(2 * HOUR))).toBeUndefined();
        expect(await sessionRows(db)).toHaveLength(1);
        expect(await findSession(db, kept.token, at(3 * HOUR))).toBeDefined();
        expect(await findSession(db, kept.token, at(5 * HOUR))).toBeUndefined();
        expect(await sessionRows(db)).toHaveLength(0);
      });

      it("ends a session after 12 hours even when it was used every hour, and deletes its row", async () => {
        expect(SESSION_ABSOLUTE_MS).toBe(12 * HOUR);
        const db = await withAdmin();
        const at = clock();
        const { token } = await createSession(db, await adminId(db, EMAIL), at());
        for (let hour = 1; hour < 12; hour++) {
          expect(await findSession(db, token, at(hour * HOUR)), `after ${hour} h`).toBeDefined();
        }
        expect(await findSession(db, token, at(12 * HOUR))).toBeUndefined();
        expect(await sessionRows(db)).toHaveLength(0);
        expect(await findSession(db, token, at(12 * HOUR - MINUTE))).toBeUndefined();
      });

      it("finds nothing for a token that was never issued", async () => {
        const db = await withAdmin();
        await createSession(db, await adminId(db, EMAIL));
        expect(await findSession(db, randomBytes(32).toString("base64url"))).toBeUndefined();
        expect(await findSession(db, "")).toBeUndefined();
      });

      it("does not store the token itself in the database", async () => {
        const db = await withAdmin();
        const { token } = await createSession(db, await adminId(db, EMAIL));
        const rows = await sessionRows(db);
        expect(rows).toHaveLength(1);
        expect(JSON.stringify(rows)).not.toContain(token);
        expect(JSON.stringify(rows)).not.toContain(Buffer.from(token, "base64url").toString("hex"));
        expect(await findSession(db, rows[0]!.id)).toBeUndefined();
      });
    });

    describe("signIn", () => {
      it("starts a session for the right password", async () => {
        const db = await withAdmin();
        const result = await attempt(db, { email: " Owner@Example.com " });
        expectSignedIn(result);
        expect(result.email).toBe(EMAIL);
        expect(await findSession(db, result.token)).toMatchObject({ email: EMAIL });
      });

      it("answers a wrong password and an unknown e-mail alike", async () => {
        const db = await withAdmin();
        const wrongPassword = await attempt(db, { password: OTHER_PASSWORD });
        const unknownEmail = await attempt(db, { email: "nobody@example.com" });
        expect(wrongPassword).toEqual({ ok: false, reason: "invalid" });
        expect(unknownEmail).toEqual(wrongPassword);
        expect(await sessionRows(db)).toHaveLength(0);
      });

      it("ends the session the browser already had and issues a new token (no fixation)", async () => {
        const db = await withAdmin();
        const first = await attempt(db, {});
        expectSignedIn(first);
        const second = await attempt(db, { previousToken: first.token });
        expectSignedIn(second);
        expect(second.token).not.toBe(first.token);
        expect(await findSession(db, first.token)).toBeUndefined();
        expect(await findSession(db, second.token)).toMatchObject({ email: EMAIL });
        expect(await sessionRows(db)).toHaveLength(1);
      });

      it("setAdminPassword ends every session of the admin and changes the password", async () => {
        const db = await withAdmin();
        await createAdmin(db, "assistant@example.com", OTHER_PASSWORD, TEST_ACTOR);
        const one = await attempt(db, {});
        const two = await attempt(db, { clientIp: "198.51.100.7" });
        const theirs = await attempt(db, { email: "assistant@example.com", password: OTHER_PASSWORD });
        expectSignedIn(one);
        expectSignedIn(two);
        expectSignedIn(theirs);

        expect(await setAdminPassword(db, EMAIL, "the brand new passphrase", TEST_ACTOR)).toEqual({ endedSessions: 2 });

        expect(await findSession(db, one.token)).toBeUndefined();
        expect(await findSession(db, two.token)).toBeUndefined();
        expect(await findSession(db, theirs.token)).toBeDefined();
        expect(await attempt(db, {})).toEqual({ ok: false, reason: "invalid" });
        expectSignedIn(await attempt(db, { password: "the brand new passphrase" }));
      });

      it("setAdminPassword with keepSessionId keeps that session and ends the others", async () => {
        const db = await withAdmin();
        const current = await attempt(db, {});
        const elsewhere = await attempt(db, {});
        expectSignedIn(current);
        expectSignedIn(elsewhere);
        const { sessionId } = (await findSession(db, current.token))!;

        expect(await setAdminPassword(db, EMAIL, "the brand new passphrase", TEST_ACTOR, { keepSessionId: sessionId })).toEqual({
          endedSessions: 1,
        });
        expect(await findSession(db, current.token)).toMatchObject({ email: EMAIL });
        expect(await findSession(db, elsewhere.token)).toBeUndefined();
      });

      it("setAdminPassword refuses a short password and an unknown e-mail", async () => {
        const db = await withAdmin();
        await expect(setAdminPassword(db, EMAIL, "too short", TEST_ACTOR)).rejects.toThrow(AdminError);
        await expect(setAdminPassword(db, "nobody@example.com", "a long enough passphrase", TEST_ACTOR)).rejects.toThrow(AdminError);
        expectSignedIn(await attempt(db, {}));
      });
    });

    describe("rate limit per client IP and e-mail", () => {
      it("refuses even the right password after `limit` failures from one IP, but not from another IP", async () => {
        const db = await withAdmin();
        const at = clock();
        for (let i = 0; i < 3; i++) {
          expect(await attempt(db, { limit: 3, clientIp: "192.0.2.1", password: "wrong password!", now: at(i * 1000) })).toEqual({
            ok: false,
            reason: "invalid",
          });
        }
        const limited = await attempt(db, { limit: 3, clientIp: "192.0.2.1", now: at(5000) });
        expect(limited).toMatchObject({ ok: false, reason: "limited" });
        if (limited.ok || limited.reason !== "limited") throw new Error("expected limited");
        expect(limited.retryAfterSeconds).toBeGreaterThan(0);
        expect(limited.retryAfterSeconds).toBeLessThanOrEqual(LOGIN_WINDOW_MS / 1000);
        expect(await sessionRows(db)).toHaveLength(0);

        expectSignedIn(await attempt(db, { limit: 3, clientIp: "192.0.2.2", now: at(6000) }));
      });

      it("counts per e-mail: failures for one e-mail do not limit another from the same IP", async () => {
        const db = await withAdmin();
        const at = clock();
        for (let i = 0; i < 3; i++) {
          await attempt(db, { limit: 3, email: "nobody@example.com", now: at(i * 1000) });
        }
        expect(await attempt(db, { limit: 3, email: "nobody@example.com", now: at(4000) })).toMatchObject({
          reason: "limited",
        });
        expectSignedIn(await attempt(db, { limit: 3, now: at(5000) }));
      });

      it("forgets failures older than 15 minutes", async () => {
        expect(LOGIN_WINDOW_MS).toBe(15 * MINUTE);
        const db = await withAdmin();
        const at = clock();
        for (let i = 0; i < 3; i++) {
          await attempt(db, { limit: 3, password: "wrong password!", now: at(i * 1000) });
        }
        expect(await attempt(db, { limit: 3, now: at(14 * MINUTE) })).toMatchObject({ reason: "limited" });
        expectSignedIn(await attempt(db, { limit: 3, now: at(16 * MINUTE) }));
      });
    });

    describe("lockout per e-mail", () => {
      /** LOCKOUT.failures wrong passwords for the e-mail, each from another IP, one second apart. */
      async function failFromManyIps(db: Db, email: string, at: (offset?: number) => Date): Promise<void> {
        for (let i = 0; i < LOCKOUT.failures; i++) {
          const result = await attempt(db, { email, password: "wrong password!", clientIp: `10.0.0.${i + 1}`, now: at(i * 1000) });
          expect(result, `failure ${i + 1}`).toEqual({ ok: false, reason: "invalid" });
        }
      }

      it("locks the account after 10 failures from 10 IPs: the right password from a new IP is refused", async () => {
        expect(LOCKOUT.failures).toBe(10);
        const db = await withAdmin();
        await createAdmin(db, "assistant@example.com", OTHER_PASSWORD, TEST_ACTOR);
        const at = clock();
        await failFromManyIps(db, EMAIL, at);

        const locked = await attempt(db, { clientIp: "203.0.113.50", now: at(20_000) });
        expect(locked).toMatchObject({ ok: false, reason: "limited" });
        if (locked.ok || locked.reason !== "limited") throw new Error("expected limited");
        expect(locked.retryAfterSeconds).toBeGreaterThan(0);
        expect(locked.retryAfterSeconds).toBeLessThanOrEqual(LOCKOUT.durationMs / 1000);
        expect(await sessionRows(db)).toHaveLength(0);

        // Another account, from the same new IP, is not affected.
        expectSignedIn(await attempt(db, { email: "assistant@example.com", password: OTHER_PASSWORD, clientIp: "203.0.113.50", now: at(21_000) }));
      });

      it("lifts the lockout after 15 minutes", async () => {
        const db = await withAdmin();
        const at = clock();
        await failFromManyIps(db, EMAIL, at);
        expect(await attempt(db, { clientIp: "203.0.113.50", now: at(14 * MINUTE) })).toMatchObject({ reason: "limited" });
        expectSignedIn(await attempt(db, { clientIp: "203.0.113.50", now: at(16 * MINUTE) }));
      });

      it("lifts the lockout when the password is set", async () => {
        const db = await withAdmin();
        const at = clock();
        await failFromManyIps(db, EMAIL, at);
        expect(await attempt(db, { clientIp: "203.0.113.50", now: at(20_000) })).toMatchObject({ reason: "limited" });

        await setAdminPassword(db, EMAIL, "the brand new passphrase", TEST_ACTOR);

        expectSignedIn(await attempt(db, { password: "the brand new passphrase", clientIp: "203.0.113.50", now: at(30_000) }));
      });

      it("locks an unknown e-mail just like a real account, so a lockout does not reveal which accounts exist", async () => {
        const db = await withAdmin();
        const at = clock();
        await failFromManyIps(db, EMAIL, at);
        await failFromManyIps(db, "nobody@example.com", at);

        const known = await attempt(db, { clientIp: "203.0.113.50", now: at(20_000) });
        const unknown = await attempt(db, { email: "nobody@example.com", clientIp: "203.0.113.50", now: at(20_000) });
        expect(unknown).toMatchObject({ ok: false, reason: "limited" });
        expect(unknown).toEqual(known);
      });
    });

    describe("under a burst (limits are taken before the hash)", () => {
      const tally = (results: SignInResult[]) =>
        results.reduce<Record<string, number>>((counts, result) => {
          const key = result.ok ? "ok" : result.reason;
          counts[key] = (counts[key] ?? 0) + 1;
          return counts;
        }, {});

      it("gives 40 parallel wrong passwords from one address no more guesses than LOGIN_RATE_LIMIT", async () => {
        const db = await withAdmin();
        const results = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(db, { password: `wrong password ${i}`, clientIp: "192.0.2.40" })));
        const counts = tally(results);
        expect(counts.invalid ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(5);
        expect((counts.invalid ?? 0) + (counts.limited ?? 0) + (counts.busy ?? 0)).toBe(40);
      });

      it("gives 40 parallel wrong passwords from 40 addresses no more guesses than the lockout's 10", async () => {
        const db = await withAdmin();
        const results = await Promise.all(Array.from({ length: 40 }, (_, i) => attempt(db, { password: `wrong password ${i}`, clientIp: `10.1.0.${i + 1}` })));
        expect(tally(results).invalid ?? 0, JSON.stringify(tally(results))).toBeLessThanOrEqual(LOCKOUT.failures);
      });

      it("hashes at most MIN_ADDRESS_ATTEMPTS guesses from one address spread over as many e-mails", async () => {
        expect(MIN_ADDRESS_ATTEMPTS).toBe(20);
        const db = await withAdmin();
        const results: SignInResult[] = [];
        for (let i = 0; i < 60; i += 10) {
          results.push(
            ...(await Promise.all(
              Array.from({ length: 10 }, (_, j) => attempt(db, { email: `nobody-${i + j}@example.com`, password: "a guess", clientIp: "192.0.2.60" })),
            )),
          );
        }
        const counts = tally(results);
        expect(counts.invalid ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(MIN_ADDRESS_ATTEMPTS);
        expect(counts.limited ?? 0, JSON.stringify(counts)).toBeGreaterThanOrEqual(60 - MIN_ADDRESS_ATTEMPTS);
        // An IPv6 client is counted by its /64: another address in it is the same client.
        for (let i = 0; i < MIN_ADDRESS_ATTEMPTS; i++)
          await attempt(db, { email: `v6-${i}@example.com`, password: "a guess", clientIp: `2001:db8:1:2::${i + 1}` });
        expect(await attempt(db, { email: "v6-last@example.com", clientIp: "2001:db8:1:2:ffff::9" })).toMatchObject({ reason: "limited" });
      });

      it("gives a right password back its places: signing in does not use up the limits", async () => {
        const db = await withAdmin();
        for (let i = 0; i < 12; i++) expectSignedIn(await attempt(db, { limit: 3 }));
      });
    });

    describe("a browser the account signed in from before (device cookie)", () => {
      async function lockedOut(db: Db, at: (offset?: number) => Date): Promise<void> {
        for (let i = 0; i < LOCKOUT.failures; i++) {
          await attempt(db, { password: "wrong password!", clientIp: `10.0.0.${i + 1}`, now: at(i * 1000) });
        }
        expect(await attempt(db, { clientIp: "203.0.113.50", now: at(20_000) })).toMatchObject({ reason: "limited" });
      }

      it("gets through the account's lockout and the address limits with the right password", async () => {
        const db = await withAdmin();
        const at = clock();
        const device = { adminId: await adminId(db, EMAIL), deviceId: "AAAAAAAAAAAAAAAAAAAAAA" };
        await lockedOut(db, at);
        // From an address that has used up its own limit too.
        for (let i = 0; i < 5; i++) await attempt(db, { password: "wrong password!", clientIp: "192.0.2.99", now: at(21_000) });
        expectSignedIn(await attempt(db, { device, clientIp: "192.0.2.99", now: at(22_000) }));
      });

      it("does not help with another account, and has a failure limit of its own", async () => {
        const db = await withAdmin();
        await createAdmin(db, "assistant@example.com", OTHER_PASSWORD, TEST_ACTOR);
        const at = clock();
        const device = { adminId: await adminId(db, "assistant@example.com"), deviceId: "BBBBBBBBBBBBBBBBBBBBBB" };
        await lockedOut(db, at);
        expect(await attempt(db, { device, now: at(21_000) })).toMatchObject({ reason: "limited" });

        const own = { adminId: await adminId(db, EMAIL), deviceId: "CCCCCCCCCCCCCCCCCCCCCC" };
        for (let i = 0; i < 3; i++) {
          expect(await attempt(db, { device: own, limit: 3, password: "wrong password!", now: at(22_000 + i) })).toEqual({ ok: false, reason: "invalid" });
        }
        expect(await attempt(db, { device: own, limit: 3, now: at(23_000) })).toMatchObject({ reason: "limited" });
      });
    });

    describe("unlock", () => {
      it("lifts every limit on the account: its lockout and each address's failures for it", async () => {
        const db = await withAdmin();
        const at = clock();
        // The admin's own address used up LOGIN_RATE_LIMIT; then others locked the account.
        for (let i = 0; i < 3; i++) await attempt(db, { limit: 3, password: "wrong password!", clientIp: "192.0.2.7", now: at(i) });
        for (let i = 0; i < LOCKOUT.failures; i++) await attempt(db, { password: "wrong password!", clientIp: `10.0.0.${i + 1}`, now: at(1000 + i) });
        expect(await attempt(db, { limit: 3, clientIp: "192.0.2.7", now: at(5000) })).toMatchObject({ reason: "limited" });

        await liftLockout(db, EMAIL, TEST_ACTOR);

        expectSignedIn(await attempt(db, { limit: 3, clientIp: "192.0.2.7", now: at(6000) }));
      });
    });

    describe("failed sign-ins since the last one", () => {
      it("are counted for the account and handed to the next session, then start again from zero", async () => {
        const db = await withAdmin();
        const at = clock(new Date("2026-11-20T09:12:00.000Z"));
        const first = await attempt(db, { now: at() });
        expectSignedIn(first);
        expect(await findSession(db, first.token, at())).toMatchObject({ previousSignInAt: null, failedSignInsBefore: 0 });

        for (let i = 0; i < 3; i++) await attempt(db, { password: "wrong password!", clientIp: `10.2.0.${i}`, now: at(HOUR + i) });
        const second = await attempt(db, { now: at(2 * HOUR) });
        expectSignedIn(second);
        expect(await findSession(db, second.token, at(2 * HOUR))).toMatchObject({
          previousSignInAt: "2026-11-20T09:12:00.000Z",
          failedSignInsBefore: 3,
        });

        const third = await attempt(db, { now: at(3 * HOUR) });
        expectSignedIn(third);
        expect(await findSession(db, third.token, at(3 * HOUR))).toMatchObject({ failedSignInsBefore: 0 });
      });
    });

    describe("timing", () => {
      it("spends about as long on an unknown e-mail as on a wrong password (the decoy hash is used)", async () => {
        const db = await withAdmin();
        const timed = async (email: string) => {
          const started = performance.now();
          const result = await attempt(db, { email, password: "wrong password!", limit: 1000 });
          expect(result).toEqual({ ok: false, reason: "invalid" });
          return performance.now() - started;
        };
        // Warm up both paths (the decoy hash is made on first use).
        await timed(EMAIL);
        await timed("warm-up@example.com");

        const known: number[] = [];
        const unknown: number[] = [];
        // Interleaved, so a slow moment of the machine hits both; 4 failures each stay under the lockout.
        for (let i = 0; i < 4; i++) {
          known.push(await timed(EMAIL));
          unknown.push(await timed(`nobody-${i}@example.com`));
        }
        known.push(await timed("Owner@example.com"));
        unknown.push(await timed("nobody-4@example.com"));

        const summary = `known ${known.map(Math.round)} ms, unknown ${unknown.map(Math.round)} ms`;
        expect(median(unknown), summary).toBeGreaterThanOrEqual(0.5 * median(known));
      });
    });
  });

  describe("over HTTP", () => {
    let database: TestDatabase;
    let server: SpawnedServer;
    let ipCounter = 0;

    const serverEnv = (password: string) => ({
      ...database.env,
      ADMIN_EMAIL: "Owner@Example.com",
      ADMIN_PASSWORD: password,
      LOGIN_RATE_LIMIT: "3",
      TRUST_PROXY: "loopback",
    });

    beforeAll(async () => {
      database = await backend.createDatabase({ migrated: true });
      server = await startServer(serverEnv(PASSWORD));
    });

    afterAll(async () => {
      await server?.stop();
      await database?.cleanup();
    });

    /** A client address of its own for each test, so their failures do not add up. */
    function nextIp(): string {
      ipCounter += 1;
      return `198.51.100.${ipCounter}`;
    }

    function postSignIn(fields: Record<string, string>, options: { ip?: string; cookie?: string } = {}): Promise<Response> {
      const headers: Record<string, string> = { origin: server.url };
      if (options.ip) headers["x-forwarded-for"] = options.ip;
      if (options.cookie) headers.cookie = options.cookie;
      return fetch(`${server.url}/admin/sign-in`, {
        method: "POST",
        headers,
        body: new URLSearchParams(fields),
        redirect: "manual",
      });
    }

    /** Signs in and returns the Cookie header value that carries the new session. */
    async function signInCookie(options: { ip?: string; cookie?: string } = {}): Promise<string> {
      const response = await postSignIn({ email: EMAIL, password: PASSWORD }, { ...options, ip: options.ip ?? nextIp() });
      expect(response.status).toBe(302);
      await response.arrayBuffer();
      return response.headers.get("set-cookie")!.split(";")[0]!;
    }

    function getAdmin(cookie?: string): Promise<Response> {
      return fetch(`${server.url}/admin`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
    }

    /**
     * GET /admin shows the sign-in form and no admin data. The page itself
     * answers 200, as sign-in pages do (entry.server.tsx turns requireAdmin's
     * 401 into 200 for a page visit).
     */
    async function expectSignedOut(cookie: string | undefined): Promise<void> {
      const response = await getAdmin(cookie);
      const html = await response.text();
      expect(response.status).toBe(200);
      expect(visibleText(html)).toContain(LOGIN_TEXT.title);
      expect(html).toContain('action="/admin/sign-in"');
      expect(html).not.toContain("Welcome");
      expect(html).not.toContain(EMAIL);
    }

    async function expectDashboard(cookie: string): Promise<void> {
      const response = await getAdmin(cookie);
      const text = visibleText(await response.text());
      expect(response.status).toBe(200);
      expect(text).toContain(`Welcome, ${EMAIL}`);
    }

    it("shows the sign-in form, and no admin data, to a visitor without a session", async () => {
      await expectSignedOut(undefined);
    });

    it("signs in: 302 to /admin with a Secure, HttpOnly, SameSite=Lax host cookie that lasts at most 12 hours", async () => {
      const response = await postSignIn({ email: EMAIL, password: PASSWORD }, { ip: nextIp() });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/admin");
      const setCookie = response.headers.getSetCookie();
      // The session, and the device cookie that remembers this browser signed in (decision 018).
      expect(setCookie).toHaveLength(2);
      const [pair, ...attributes] = setCookie
        .find((cookie) => cookie.startsWith("__Host-admin_session="))!
        .split(";")
        .map((part) => part.trim());
      expect(pair).toMatch(/^__Host-admin_session=[A-Za-z0-9_-]{43}$/);
      const lower = attributes.map((attribute) => attribute.toLowerCase());
      expect(lower).toContain("httponly");
      expect(lower).toContain("secure");
      expect(lower).toContain("samesite=lax");
      expect(lower).toContain("path=/");
      expect(lower.some((attribute) => attribute.startsWith("domain="))).toBe(false);
      const maxAge = Number(/^max-age=(\d+)$/.exec(lower.find((attribute) => attribute.startsWith("max-age="))!)?.[1]);
      expect(maxAge).toBeGreaterThan(12 * 60 * 60 - 60);
      expect(maxAge).toBeLessThanOrEqual(12 * 60 * 60);

      await expectDashboard(pair!);

      const [devicePair, ...deviceAttributes] = setCookie
        .find((cookie) => cookie.startsWith("__Host-admin_device="))!
        .split(";")
        .map((part) => part.trim().toLowerCase());
      expect(devicePair).toMatch(/^__host-admin_device=[0-9a-f-]{36}\.[a-z0-9_-]{22}\.[a-z0-9_-]{43}$/);
      expect(deviceAttributes).toEqual(expect.arrayContaining(["httponly", "secure", "samesite=strict", "path=/"]));
    });

    it("lets 40 parallel wrong passwords from one client make no more guesses than LOGIN_RATE_LIMIT", async () => {
      const attacker = nextIp();
      const statuses = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const response = await postSignIn({ email: EMAIL, password: `wrong password ${i}` }, { ip: attacker });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      const unauthorized = statuses.filter((status) => status === 401).length;
      expect(unauthorized, statuses.join(",")).toBeLessThanOrEqual(3);
      expect(
        statuses.every((status) => status === 401 || status === 429 || status === 503),
        statuses.join(","),
      ).toBe(true);
    });

    it("lets a browser that signed in before through a lockout with the right password, and tells the admin of the failures", async () => {
      const first = await postSignIn({ email: EMAIL, password: PASSWORD }, { ip: nextIp() });
      expect(first.status).toBe(302);
      await first.arrayBuffer();
      const device = first.headers
        .getSetCookie()
        .find((cookie) => cookie.startsWith("__Host-admin_device="))!
        .split(";")[0]!;

      // Someone who knows the e-mail locks the account from ten addresses.
      for (let i = 0; i < 10; i++) {
        const response = await postSignIn({ email: EMAIL, password: `attacker guess ${i}` }, { ip: nextIp() });
        await response.arrayBuffer();
      }
      const elsewhere = await postSignIn({ email: EMAIL, password: PASSWORD }, { ip: nextIp() });
      expect(elsewhere.status).toBe(429);
      await elsewhere.arrayBuffer();

      const known = await postSignIn({ email: EMAIL, password: PASSWORD }, { ip: nextIp(), cookie: device });
      expect(known.status).toBe(302);
      await known.arrayBuffer();
      const session = known.headers
        .getSetCookie()
        .find((cookie) => cookie.startsWith("__Host-admin_session="))!
        .split(";")[0]!;
      const dashboard = visibleText(await (await getAdmin(session)).text());
      // Those whose password was checked: up to the lockout (earlier tests' failures count towards it too).
      const failed = /(\d+) failed sign-in attempts on your account since your last sign-in on \d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\./.exec(dashboard);
      expect(failed, dashboard).not.toBeNull();
      expect(Number(failed![1])).toBeGreaterThanOrEqual(5);

      const unlocked = await runAdmin(database.env, ["unlock", EMAIL]);
      expect(unlocked.code, unlocked.stderr).toBe(0);
      await expectDashboard(await signInCookie());
    });

    it("logs what was typed as the e-mail escaped, and never what does not look like an e-mail address", async () => {
      const forged = "evil@example.com\r\nAdmin owner@example.com signed in from 127.0.0.1";
      const secret = "Tr0ub4dor&3-is-my-password";
      const logBefore = server.stdout().length + server.stderr().length;
      for (const email of [forged, secret]) {
        const response = await postSignIn({ email, password: "whatever it is" }, { ip: nextIp() });
        expect(response.status).toBe(401);
        await response.arrayBuffer();
      }
      const log = () => (server.stdout() + server.stderr()).slice(logBefore);
      await waitFor("two failed sign-ins in the log", () => log().split("Sign-in failed for").length > 2);
      expect(log()).not.toContain(secret);
      expect(log()).not.toMatch(/^Admin owner@example\.com signed in/m);
      expect(log()).toContain("Sign-in failed for (not an e-mail address)");
    });

    it("returns to the dashboard view the form was on, and never to another site", async () => {
      const cases: Array<[returnTo: string, location: string]> = [
        ["/admin?tab=contacts&filter=unread", "/admin?tab=contacts&filter=unread"],
        ["/admin/enquiries?filter=unread&q=boiler", "/admin/enquiries?filter=unread&q=boiler"],
        ["/admin/website?section=legal", "/admin/website?section=legal"],
        ["/admin/enquiriesx", "/admin"],
        ["/admin/data-requests?email=ada%40example.com", "/admin/data-requests?email=ada%40example.com"],
        ["/admin/data-requestsx", "/admin"],
        ["/admin/sign-out", "/admin"],
        ["//evil.example/admin", "/admin"],
        ["https://evil.example/admin", "/admin"],
        ["/admin/../../evil", "/admin"],
        ["/\\evil.example", "/admin"],
      ];
      for (const [returnTo, location] of cases) {
        const response = await postSignIn({ email: EMAIL, password: PASSWORD, returnTo }, { ip: nextIp() });
        await response.arrayBuffer();
        expect(response.status, returnTo).toBe(302);
        expect(response.headers.get("location"), returnTo).toBe(location);
      }
    });

    it("accepts the e-mail in any case", async () => {
      const response = await postSignIn({ email: "OWNER@example.COM", password: PASSWORD }, { ip: nextIp() });
      expect(response.status).toBe(302);
      await expectDashboard(response.headers.get("set-cookie")!.split(";")[0]!);
    });

    it("signs out on the server: the same cookie is worthless afterwards", async () => {
      const cookie = await signInCookie();
      await expectDashboard(cookie);

      const response = await fetch(`${server.url}/admin/sign-out`, {
        method: "POST",
        headers: { cookie, origin: server.url },
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/admin");
      expect(response.headers.get("set-cookie")).toMatch(/^__Host-admin_session=;.*Max-Age=0/);

      // A browser would have dropped the cookie; someone who copied it still has it.
      await expectSignedOut(cookie);
    });

    it("ends the session a browser already had when it signs in again (no fixation)", async () => {
      const old = await signInCookie();
      const fresh = await signInCookie({ cookie: old });
      expect(fresh).not.toBe(old);
      await expectSignedOut(old);
      await expectDashboard(fresh);
    });

    it("answers a wrong password with 401 and the sign-in error, and sets no cookie", async () => {
      const response = await postSignIn({ email: EMAIL, password: OTHER_PASSWORD }, { ip: nextIp() });
      expect(response.status).toBe(401);
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(await response.text()).toContain(LOGIN_TEXT.failure);
      expect(LOGIN_TEXT.failure).toBe("Error signing in. Please check your credentials.");
    });

    it("answers an unknown e-mail exactly like a wrong password", async () => {
      const wrongPassword = await postSignIn({ email: EMAIL, password: OTHER_PASSWORD }, { ip: nextIp() });
      const unknownEmail = await postSignIn({ email: "nobody@example.com", password: OTHER_PASSWORD }, { ip: nextIp() });
      expect(unknownEmail.status).toBe(wrongPassword.status);
      expect(unknownEmail.headers.get("set-cookie")).toBeNull();
      expect(visibleText(await unknownEmail.text())).toBe(visibleText(await wrongPassword.text()));
    });

    it.each([
      ["the e-mail", { password: PASSWORD }],
      ["the password", { email: EMAIL }],
    ])("answers 400 without %s", async (_label, fields) => {
      const response = await postSignIn(fields, { ip: nextIp() });
      expect(response.status).toBe(400);
      expect(response.headers.get("set-cookie")).toBeNull();
      expect(await response.text()).toContain(LOGIN_TEXT.missing);
    });

    it("answers 429 with Retry-After to the 4th attempt from one client after 3 failures; another client still signs in", async () => {
      const attacker = nextIp();
      for (let i = 0; i < 3; i++) {
        const response = await postSignIn({ email: EMAIL, password: `wrong password ${i}` }, { ip: attacker });
        expect(response.status, `failure ${i + 1}`).toBe(401);
        await response.arrayBuffer();
      }
      const limited = await postSignIn({ email: EMAIL, password: PASSWORD }, { ip: attacker });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("set-cookie")).toBeNull();
      expect(await limited.text()).toContain(LOGIN_TEXT.limited);

      await expectDashboard(await signInCookie({ ip: nextIp() }));

      const retryAfter = limited.headers.get("retry-after");
      expect(retryAfter ?? "(no Retry-After header)").toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThan(0);
      expect(Number(retryAfter)).toBeLessThanOrEqual(15 * 60);
    });

    it("keeps the existing password when the server starts again with another ADMIN_PASSWORD", async () => {
      await server.stop();
      server = await startServer(serverEnv(OTHER_PASSWORD));
      expect(server.stdout()).not.toContain("Created the admin");

      await expectDashboard(await signInCookie());
      const response = await postSignIn({ email: EMAIL, password: OTHER_PASSWORD }, { ip: nextIp() });
      expect(response.status).toBe(401);
      await response.arrayBuffer();
    });
  });
});
