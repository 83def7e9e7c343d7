/**
 * The team at module level, on each backend (issue 21): roles read afresh at
 * every request, a member's sessions ending with their removal or demotion
 * (on another connection, as on another instance), and the last owner kept,
 * also when two owners demote each other at the same moment.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cliActor, memberActor, type MemberActor } from "~/audit/actor";
import { insertMember } from "~/auth/admins.server";
import type { Role } from "~/auth/roles";
import { createSession, findSession } from "~/auth/sessions.server";
import { TEAM_TEXT, changeRole, endMemberSessions, listMembers, removeMember } from "~/auth/team.server";
import { migrateToLatest, type Database } from "~/platform/db/db.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { backends, type TestDatabase } from "../support/backends";

describe.each(backends)("the team on $name", (backend) => {
  let testDb: TestDatabase;
  let database: Database;
  /** A second connection to the same database: another instance of the site. */
  let other: Database;
  /**
   * Where a second instance writes at the same moment: its own connection on
   * PostgreSQL. On SQLite, connections in one process block each other's
   * thread (node:sqlite is synchronous), so the second writer shares the
   * connection, whose transactions Kysely runs one at a time; other
   * processes take turns through BEGIN IMMEDIATE (sqlite-driver.server.ts).
   */
  const concurrent = () => (backend.name === "postgres" ? other : database);

  beforeAll(async () => {
    testDb = await backend.createDatabase();
    database = testDb.open();
    await migrateToLatest(database);
    other = testDb.open();
  });
  afterAll(() => testDb.cleanup());

  beforeEach(async () => {
    await database.db.deleteFrom("audit_log").execute();
    await database.db.deleteFrom("admin_sessions").execute();
    await database.db.deleteFrom("admin_users").execute();
  });

  /** A member with a role (the password is not what these tests are about). */
  async function member(email: string, role: Role): Promise<MemberActor> {
    const id = randomUUID();
    await inTransaction(database.db, (trx) => insertMember(trx, { id, email, passwordHash: "$argon2id$unused", role, name: null, now: new Date() }));
    return memberActor({ adminId: id, email, role }, "192.0.2.10");
  }

  async function owners(): Promise<string[]> {
    const rows = await database.db.selectFrom("admin_users").select("email").where("role", "=", "owner").orderBy("email").execute();
    return rows.map((row) => row.email);
  }

  async function entries() {
    return database.db.selectFrom("audit_log").select(["action", "actor_id", "target_id", "details"]).orderBy("id").execute();
  }

  it("lists the members with their role and name", async () => {
    const owner = await member("owner@example.com", "owner");
    await member("editor@example.com", "editor");
    const members = await listMembers(database.db);
    expect(members.map(({ email, role, name }) => ({ email, role, name }))).toEqual([
      { email: "editor@example.com", role: "editor", name: null },
      { email: "owner@example.com", role: "owner", name: null },
    ]);
    expect(members.find((entry) => entry.id === owner.id)?.lastSignInAt).toBeNull();
  });

  it("reads the role afresh at every request: a demoted member's sessions end at once, on another instance too", async () => {
    const owner = await member("owner@example.com", "owner");
    const editor = await member("editor@example.com", "editor");
    const { token } = await createSession(database.db, editor.id);
    expect((await findSession(other.db, token))?.role).toBe("editor");

    // Promoted: nothing is taken away, so the session stays, with the new role at its next request.
    expect(await changeRole(database.db, editor.id, "owner", owner)).toEqual({ ok: true, endedSessions: 0 });
    expect((await findSession(other.db, token))?.role).toBe("owner");

    // Demoted: the session ends with the change.
    expect(await changeRole(database.db, editor.id, "enquiries", owner)).toEqual({ ok: true, endedSessions: 1 });
    expect(await findSession(other.db, token)).toBeUndefined();
    expect((await entries()).map((entry) => [entry.action, entry.actor_id, entry.target_id, entry.details])).toEqual([
      ["role-changed", owner.id, editor.id, JSON.stringify({ role: "owner", previousRole: "editor", count: 0 })],
      ["role-changed", owner.id, editor.id, JSON.stringify({ role: "enquiries", previousRole: "owner", count: 1 })],
    ]);
  });

  it("ends a removed member's sessions with their account; their audit entries stay", async () => {
    const owner = await member("owner@example.com", "owner");
    const editor = await member("editor@example.com", "editor");
    const sessions = [await createSession(database.db, editor.id), await createSession(database.db, editor.id)];
    expect(await removeMember(database.db, editor.id, owner)).toEqual({ ok: true, endedSessions: 2 });
    for (const { token } of sessions) expect(await findSession(other.db, token)).toBeUndefined();
    expect((await listMembers(database.db)).map((entry) => entry.email)).toEqual(["owner@example.com"]);
    expect(await removeMember(database.db, editor.id, owner)).toMatchObject({ ok: false, reason: "not-found", message: TEAM_TEXT.notFound });
    expect((await entries()).map((entry) => entry.action)).toEqual(["member-removed"]);
  });

  it("lets an owner end every session of a member, who stays on the team", async () => {
    const owner = await member("owner@example.com", "owner");
    const editor = await member("editor@example.com", "editor");
    const { token } = await createSession(database.db, editor.id);
    const own = await createSession(database.db, owner.id);
    expect(await endMemberSessions(database.db, editor.id, owner)).toEqual({ ok: true, endedSessions: 1 });
    expect(await findSession(other.db, token)).toBeUndefined();
    expect(await findSession(other.db, own.token), "only that member's").toBeDefined();
    expect((await listMembers(database.db)).map((entry) => entry.email)).toContain("editor@example.com");
  });

  it("refuses to remove or demote the last owner, with a message, and changes nothing", async () => {
    const owner = await member("owner@example.com", "owner");
    const { token } = await createSession(database.db, owner.id);
    for (const refused of [await changeRole(database.db, owner.id, "editor", owner), await removeMember(database.db, owner.id, owner)]) {
      expect(refused).toEqual({ ok: false, reason: "last-owner", message: "There must always be at least one owner. Make another member an owner first." });
    }
    expect(await owners()).toEqual(["owner@example.com"]);
    expect(await findSession(database.db, token)).toBeDefined();
    expect(await entries(), "a refused change leaves no entry").toEqual([]);

    // With a second owner, either may go.
    const second = await member("second@example.com", "owner");
    expect((await changeRole(database.db, owner.id, "editor", second)).ok).toBe(true);
    expect(await owners()).toEqual(["second@example.com"]);
    expect(await removeMember(database.db, second.id, second)).toMatchObject({ ok: false, reason: "last-owner" });
  });

  it("lets only an owner (or the command line) change the team", async () => {
    const owner = await member("owner@example.com", "owner");
    const editor = await member("editor@example.com", "editor");
    expect(await changeRole(database.db, owner.id, "enquiries", editor)).toEqual({ ok: false, reason: "not-allowed", message: TEAM_TEXT.notAllowed });
    expect(await removeMember(database.db, owner.id, editor)).toMatchObject({ ok: false, reason: "not-allowed" });
    expect(await endMemberSessions(database.db, owner.id, editor)).toMatchObject({ ok: false, reason: "not-allowed" });
    expect((await changeRole(database.db, editor.id, "enquiries", cliActor("delete"))).ok).toBe(true);
    expect(await changeRole(database.db, editor.id, "enquiries", owner)).toMatchObject({ ok: false, reason: "unchanged" });
  });

  it("keeps an owner when two owners demote each other at the same moment, from two instances", async () => {
    for (let round = 0; round < 12; round++) {
      await database.db.deleteFrom("admin_users").execute();
      const a = await member(`a${round}@example.com`, "owner");
      const b = await member(`b${round}@example.com`, "owner");
      // Each from its own connection, as two instances would; the order they start in alternates.
      const moves = [() => changeRole(database.db, b.id, "editor", a), () => changeRole(concurrent().db, a.id, "editor", b)];
      if (round % 2) moves.reverse();
      const results = await Promise.all(moves.map((move) => move()));
      expect(
        results.filter((result) => result.ok),
        `round ${round}: one goes through`,
      ).toHaveLength(1);
      expect(results.find((result) => !result.ok)).toMatchObject({ reason: "last-owner" });
      expect(await owners(), `round ${round}: one owner left`).toHaveLength(1);
    }
  });

  it("keeps an owner when two owners remove each other at the same moment", async () => {
    for (let round = 0; round < 6; round++) {
      await database.db.deleteFrom("admin_users").execute();
      const a = await member(`a${round}@example.com`, "owner");
      const b = await member(`b${round}@example.com`, "owner");
      const results = await Promise.all([removeMember(database.db, b.id, a), removeMember(concurrent().db, a.id, b)]);
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(await owners()).toHaveLength(1);
    }
  });
});
