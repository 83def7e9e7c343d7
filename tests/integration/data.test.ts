import { sql } from "kysely";
import { afterEach, describe, expect, it, vi } from "vitest";
import { saveEnquiry } from "~/enquiries/enquiries.server";
import { NO_MAIL } from "../support/enquiries";
import { publicDataVersion } from "~/platform/db/data-version.server";
import { migrateToLatest, pingDatabase, type Database } from "~/platform/db/db.server";
import { toBoolean, toIsoString } from "~/platform/db/db-values";
import { createProject, deleteProject, listActiveProjects, moveProject, setProjectActive, updateProject, type NewProject } from "~/projects/projects.server";
import { backends, type TestDatabase } from "../support/backends";
import { TEST_ACTOR } from "../support/actors";

const ALL_MIGRATIONS = [
  "001-initial",
  "002-admin-auth",
  "003-gallery-images",
  "004-enquiry-delivery",
  "005-public-data-version",
  "006-sign-in-history",
  "007-possible-spam",
  "008-folded-emails",
  "009-site-content",
  "010-job-runs",
  "011-limit-counts",
  "012-team-and-audit",
  "013-sign-in-factors",
  "014-join-with-a-passkey",
  "015-enquiry-status",
  "016-enquiry-notes",
  "017-valuation-requests",
  "018-enquiry-search",
  "019-enquiry-replies",
  "020-first-response",
  "021-assignment-and-follow-up",
  "022-enquiry-counts",
  "023-search-the-property",
  "024-search-index-per-commit",
  "025-less-written-per-enquiry",
];

const ISO_8601_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function project(title: string, extra: Partial<NewProject> = {}): NewProject {
  return {
    title,
    category: "Kitchen Renovation",
    description: `${title}: new units, worktops and lighting.`,
    duration: "3 weeks",
    budget: "£15,000",
    before_image_url: `/images/${title.toLowerCase().replaceAll(" ", "-")}-before.jpg`,
    after_image_url: `/images/${title.toLowerCase().replaceAll(" ", "-")}-after.jpg`,
    ...extra,
  };
}

/** The column lists of every index on a table, as the database reports them. */
async function indexColumns(database: Database, table: string): Promise<string[][]> {
  if (database.dialect === "sqlite") {
    const { rows: indexes } = await sql<{ name: string }>`select name from pragma_index_list(${table})`.execute(database.db);
    const result: string[][] = [];
    for (const { name } of indexes) {
      const { rows } = await sql<{ name: string }>`select name from pragma_index_info(${name}) order by seqno`.execute(database.db);
      result.push(rows.map((row) => row.name));
    }
    return result;
  }
  const { rows } = await sql<{ indexdef: string }>`
    select indexdef from pg_indexes where schemaname = current_schema() and tablename = ${table}`.execute(database.db);
  return rows.map(({ indexdef }) =>
    /\((.*)\)\s*$/
      .exec(indexdef)![1]!
      .split(",")
      .map((column) => column.trim().replace(/^"|"$/g, "")),
  );
}

async function appliedMigrations(database: Database): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
  return rows.map((row) => row.name);
}

describe.each(backends)("data layer on $name", (backend) => {
  const created: TestDatabase[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    await Promise.all(created.splice(0).map((database) => database.cleanup()));
  });

  async function freshDatabase(): Promise<TestDatabase> {
    const database = await backend.createDatabase();
    created.push(database);
    return database;
  }

  async function migratedDatabase(): Promise<Database> {
    const database = (await freshDatabase()).open();
    await migrateToLatest(database);
    return database;
  }

  describe("migrations", () => {
    it("create both tables with the specification's columns", async () => {
      const database = (await freshDatabase()).open();
      expect(await migrateToLatest(database)).toEqual(ALL_MIGRATIONS);

      const tables = await database.db.introspection.getTables();
      const columns = (name: string) =>
        tables
          .find((table) => table.name === name)
          ?.columns.map((column) => column.name)
          .sort();
      expect(columns("renovation_projects")).toEqual(
        [
          "id",
          "title",
          "category",
          "description",
          "duration",
          "budget",
          "before_image_url",
          "after_image_url",
          "before_image_alt",
          "after_image_alt",
          "is_active",
          "display_order",
          "created_at",
          "updated_at",
        ].sort(),
      );
      expect(columns("site_versions")).toEqual(["number", "content", "published_at", "published_by", "restored_from"].sort());
      expect(columns("site_draft")).toEqual(["id", "content", "revision", "updated_at", "updated_by"].sort());
      expect(columns("contact_submissions")).toEqual(
        [
          ...["id", "name", "email", "phone", "user_type", "message", "is_read", "created_at", "spam_reason", "spam_signals", "email_folded"],
          // The pipeline (migration 015).
          ...["status", "status_reason", "status_changed_at", "status_changed_by"],
          // Who deals with it and when to follow it up (migration 021).
          ...["assigned_to", "assigned_at", "follow_up_on"],
          // The first response (migration 020).
          "first_response_at",
          // The kind and a valuation request's details (migration 017).
          ...["kind", "details"],
        ].sort(),
      );
    });

    it("create indexes for the gallery and the inbox queries", async () => {
      const database = await migratedDatabase();
      // The public gallery filters on is_active and sorts by display_order.
      expect(await indexColumns(database, "renovation_projects")).toContainEqual(["is_active", "display_order"]);
      // The inbox lists newest first (the keyset order), optionally only unread ones (never spam: decision 086).
      const inbox = await indexColumns(database, "contact_submissions");
      expect(inbox).toContainEqual(["created_at", "id"]);
      expect(inbox).toContainEqual(["spam_reason", "is_read", "created_at"]);
    });

    it("are idempotent: a second run applies nothing and keeps the data", async () => {
      const database = await migratedDatabase();
      await createProject(database.db, project("Kept Project"), TEST_ACTOR);
      expect(await migrateToLatest(database)).toEqual([]);
      expect(await appliedMigrations(database)).toEqual(ALL_MIGRATIONS);
      expect((await listActiveProjects(database.db)).map((p) => p.title)).toEqual(["Kept Project"]);
    });

    if (backend.name === "sqlite") {
      it("leave SQLite fsyncing every commit afterwards (synchronous=FULL, decision 003)", async () => {
        const database = await migratedDatabase();
        const { rows } = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db);
        // 2 is FULL.
        expect(rows[0]?.synchronous).toBe(2);
      });
    }

    it("apply nothing when a second instance opens a migrated database", async () => {
      const testDatabase = await freshDatabase();
      await migrateToLatest(testDatabase.open());
      expect(await migrateToLatest(testDatabase.open())).toEqual([]);
    });

    it("apply the one missing when the database holds all but the last, and refuse to start on one they do not know", async () => {
      const database = await migratedDatabase();
      const last = ALL_MIGRATIONS.at(-1)!;
      // Undone by hand as far as the record goes: the migration runs again (it drops what it makes first).
      await sql`delete from kysely_migration where name = ${last}`.execute(database.db);
      expect(await migrateToLatest(database)).toEqual([last]);
      expect(await appliedMigrations(database)).toEqual(ALL_MIGRATIONS);
      // A newer build's migration on this database: an older build must not start on it.
      await sql`insert into kysely_migration (name, timestamp) values ('999-from-a-newer-build', ${new Date().toISOString()})`.execute(database.db);
      await expect(migrateToLatest(database)).rejects.toThrow(/999-from-a-newer-build/);
    });

    it("refuse a value outside the user types at the database level too", async () => {
      const database = await migratedDatabase();
      await expect(
        database.db
          .insertInto("contact_submissions")
          .values({ id: "x", name: "n", email: "e@x.y", phone: null, user_type: "admin" as "other", message: "m", is_read: false })
          .execute(),
      ).rejects.toThrow();
    });
  });

  if (backend.name === "postgres") {
    it("two instances migrating the same PostgreSQL database at once both succeed and apply each migration once", async () => {
      const testDatabase = await freshDatabase();
      const first = testDatabase.open();
      const second = testDatabase.open();
      const [a, b] = await Promise.all([migrateToLatest(first), migrateToLatest(second)]);
      expect([...a, ...b].sort()).toEqual(ALL_MIGRATIONS);
      expect(await appliedMigrations(first)).toEqual(ALL_MIGRATIONS);
      expect(await migrateToLatest(second)).toEqual([]);
    });
  }

  describe("the public data version", () => {
    it("changes with every write to the projects or the images, by any connection, and with nothing else", async () => {
      const testDatabase = await freshDatabase();
      const reader = testDatabase.open();
      await migrateToLatest(reader);
      const writer = testDatabase.open();
      let last = await publicDataVersion(reader.db);
      /** Runs a write on the other connection; true when the reader then sees a new version. */
      const changes = async (write: () => Promise<unknown>) => {
        await write();
        const now = await publicDataVersion(reader.db);
        const changed = now !== last;
        if (changed) expect(now).toBeGreaterThan(last);
        last = now;
        return changed;
      };

      let id = "";
      expect(await changes(async () => (id = (await createProject(writer.db, project("Versioned Villa"), TEST_ACTOR)).id))).toBe(true);
      const fields = { ...project("Versioned Villa, Renamed") };
      expect(await changes(() => updateProject(writer.db, id, fields, TEST_ACTOR))).toBe(true);
      expect(await changes(() => setProjectActive(writer.db, id, false, TEST_ACTOR))).toBe(true);
      await createProject(writer.db, project("Second Versioned Villa"), TEST_ACTOR);
      last = await publicDataVersion(reader.db);
      expect(await changes(() => moveProject(writer.db, id, "down", TEST_ACTOR))).toBe(true);
      expect(await changes(() => deleteProject(writer.db, id, TEST_ACTOR))).toBe(true);
      const image = { name: "1700000000000-versioned0001.jpg", content_type: "image/jpeg", width: 10, height: 10, bytes: 10, variants: "[]" };
      expect(await changes(() => writer.db.insertInto("images").values(image).execute())).toBe(true);
      expect(await changes(() => writer.db.deleteFrom("images").where("name", "=", image.name).execute())).toBe(true);

      // Enquiries are not public: they leave the version alone.
      expect(
        await changes(() => saveEnquiry(writer.db, { name: "Ada", email: "ada@example.com", phone: undefined, userType: "tenant", message: "Hello" }, NO_MAIL)),
      ).toBe(false);
      // Nor does a write that is rolled back.
      const rolledBack = writer.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("images")
          .values({ ...image, name: "1700000000000-versioned0002.jpg" })
          .execute();
        throw new Error("changed my mind");
      });
      expect(await changes(() => rolledBack.catch(() => undefined))).toBe(false);
    });
  });

  describe("saveEnquiry", () => {
    it("stores every field, unread, with an ISO 8601 creation time", async () => {
      const database = await migratedDatabase();
      const before = Date.now();
      const stored = await saveEnquiry(
        database.db,
        {
          name: "Ada Lovelace",
          email: "ada@example.com",
          phone: "020 7946 0001",
          userType: "investor",
          message: "Two flats in Camden.\nPlease call after 5pm — thanks! £ € ✓",
        },
        NO_MAIL,
      );
      expect(stored.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(stored.createdAt).toMatch(ISO_8601_UTC);
      expect(Date.parse(stored.createdAt)).toBeGreaterThanOrEqual(before - 1000);

      const row = await database.db.selectFrom("contact_submissions").selectAll().where("id", "=", stored.id).executeTakeFirstOrThrow();
      expect({ ...row, is_read: toBoolean(row.is_read), created_at: toIsoString(row.created_at) }).toEqual({
        id: stored.id,
        name: "Ada Lovelace",
        email: "ada@example.com",
        phone: "020 7946 0001",
        user_type: "investor",
        message: "Two flats in Camden.\nPlease call after 5pm — thanks! £ € ✓",
        is_read: false,
        created_at: stored.createdAt,
        spam_reason: null,
        spam_signals: null,
        email_folded: "ada@example.com",
        // New in the pipeline until a member moves it.
        status: "new",
        status_reason: null,
        status_changed_at: null,
        status_changed_by: null,
        // Nobody's, with no follow-up day, until a member says.
        assigned_to: null,
        assigned_at: null,
        follow_up_on: null,
        first_response_at: null,
        kind: "contact",
        details: null,
      });
    });

    it("stores a missing phone as null and gives every enquiry its own id", async () => {
      const database = await migratedDatabase();
      const enquiry = { name: "Bo", email: "bo@example.com", phone: undefined, userType: "tenant" as const, message: "Hi" };
      const first = await saveEnquiry(database.db, enquiry, NO_MAIL);
      const second = await saveEnquiry(database.db, enquiry, NO_MAIL);
      expect(first.id).not.toBe(second.id);
      const rows = await database.db.selectFrom("contact_submissions").select(["id", "phone"]).execute();
      expect(rows).toHaveLength(2);
      expect(rows.map((row) => row.phone)).toEqual([null, null]);
    });
  });

  describe("projects", () => {
    it("listActiveProjects returns only active projects, in display order", async () => {
      const database = await migratedDatabase();
      await createProject(database.db, project("Third", { display_order: 2 }), TEST_ACTOR);
      await createProject(database.db, project("Hidden", { display_order: 0, is_active: false }), TEST_ACTOR);
      await createProject(database.db, project("First", { display_order: 0 }), TEST_ACTOR);
      await createProject(database.db, project("Second", { display_order: 1 }), TEST_ACTOR);
      await createProject(database.db, project("Hidden Last", { display_order: 9, is_active: false }), TEST_ACTOR);

      const projects = await listActiveProjects(database.db);
      expect(projects.map((p) => p.title)).toEqual(["First", "Second", "Third"]);
      expect(projects.map((p) => p.display_order)).toEqual([0, 1, 2]);
      expect(projects.every((p) => p.is_active === true)).toBe(true);
    });

    it("listActiveProjects returns the fields of a project as they were created", async () => {
      const database = await migratedDatabase();
      const created = await createProject(database.db, project("Loft Conversion", { budget: "£42,500", duration: "8 weeks" }), TEST_ACTOR);
      const [listed] = await listActiveProjects(database.db);
      expect(listed).toEqual(created);
      expect(listed).toMatchObject({
        title: "Loft Conversion",
        category: "Kitchen Renovation",
        duration: "8 weeks",
        budget: "£42,500",
        before_image_url: "/images/loft-conversion-before.jpg",
        after_image_url: "/images/loft-conversion-after.jpg",
        is_active: true,
        display_order: 0,
      });
      expect(listed!.created_at).toMatch(ISO_8601_UTC);
      expect(listed!.updated_at).toBe(listed!.created_at);
    });

    it("listActiveProjects breaks display-order ties by age, the same way every time", async () => {
      const database = await migratedDatabase();
      vi.useFakeTimers({ toFake: ["Date"] });
      const titles = ["Tie One", "Tie Two", "Tie Three", "Tie Four", "Tie Five"];
      for (const [index, title] of titles.entries()) {
        vi.setSystemTime(new Date(Date.UTC(2025, 0, 1, 12, 0, index)));
        await createProject(database.db, project(title, { display_order: 1 }), TEST_ACTOR);
      }
      vi.setSystemTime(new Date(Date.UTC(2025, 0, 2)));
      await createProject(database.db, project("Before The Ties", { display_order: 0 }), TEST_ACTOR);
      vi.useRealTimers();

      const expected = ["Before The Ties", ...titles];
      expect((await listActiveProjects(database.db)).map((p) => p.title)).toEqual(expected);
      expect((await listActiveProjects(database.db)).map((p) => p.title)).toEqual(expected);
    });

    it("listActiveProjects returns a stable order for projects created at the same instant", async () => {
      const database = await migratedDatabase();
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(new Date(Date.UTC(2025, 0, 1)));
      for (const title of ["Same A", "Same B", "Same C", "Same D"]) {
        await createProject(database.db, project(title, { display_order: 3 }), TEST_ACTOR);
      }
      vi.useRealTimers();
      const first = (await listActiveProjects(database.db)).map((p) => p.id);
      expect(first).toHaveLength(4);
      for (let i = 0; i < 3; i++) {
        expect((await listActiveProjects(database.db)).map((p) => p.id)).toEqual(first);
      }
    });

    it("listActiveProjects returns an empty list when there are none", async () => {
      const database = await migratedDatabase();
      expect(await listActiveProjects(database.db)).toEqual([]);
    });

    it("createProject puts a new project last: its display order is the current number of projects", async () => {
      const database = await migratedDatabase();
      const first = await createProject(database.db, project("Alpha"), TEST_ACTOR);
      expect(first.display_order).toBe(0);
      expect(first.is_active).toBe(true);
      await createProject(database.db, project("Bravo"), TEST_ACTOR);
      // Hidden projects count too: the admin list orders every project.
      await createProject(database.db, project("Charlie", { is_active: false }), TEST_ACTOR);
      const fourth = await createProject(database.db, project("Delta"), TEST_ACTOR);
      expect(fourth.display_order).toBe(3);
      expect((await listActiveProjects(database.db)).map((p) => [p.title, p.display_order])).toEqual([
        ["Alpha", 0],
        ["Bravo", 1],
        ["Delta", 3],
      ]);
    });

    it("createProject keeps an explicit display order and visibility", async () => {
      const database = await migratedDatabase();
      await createProject(database.db, project("One"), TEST_ACTOR);
      const explicit = await createProject(database.db, project("Explicit", { display_order: 7, is_active: false }), TEST_ACTOR);
      expect(explicit).toMatchObject({ display_order: 7, is_active: false });
      const row = await database.db
        .selectFrom("renovation_projects")
        .select(["display_order", "is_active"])
        .where("id", "=", explicit.id)
        .executeTakeFirstOrThrow();
      expect({ display_order: Number(row.display_order), is_active: toBoolean(row.is_active) }).toEqual({
        display_order: 7,
        is_active: false,
      });
    });
  });

  describe("pingDatabase", () => {
    it("is true while the database answers and false once it is closed", async () => {
      const database = await migratedDatabase();
      expect(await pingDatabase(database.db)).toBe(true);
      await database.close();
      expect(await pingDatabase(database.db)).toBe(false);
    });

    if (backend.name === "postgres") {
      it("is false when the PostgreSQL database is gone", async () => {
        const testDatabase = await freshDatabase();
        const database = testDatabase.open();
        expect(await pingDatabase(database.db)).toBe(true);
        await testDatabase.dropNow!();
        expect(await pingDatabase(database.db)).toBe(false);
      });
    }
  });
});
