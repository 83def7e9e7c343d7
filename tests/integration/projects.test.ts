/**
 * Renovation projects in the database, on each backend: what the admin's
 * actions do to the list the homepage shows (create, edit, show/hide, move
 * up/down, delete), through the domain functions the actions call.
 */
import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import {
  countProjects,
  createProject,
  deleteProject,
  getProject,
  listActiveProjects,
  listAllProjects,
  moveProject,
  setProjectActive,
  updateProject,
  type NewProject,
} from "~/projects/projects.server";
import { backends } from "../support/backends";
import { useDatabase } from "../support/sites";
import { TEST_ACTOR } from "../support/actors";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function fields(title: string, overrides: Partial<NewProject> = {}): NewProject {
  return {
    title,
    category: "Kitchen Refit",
    description: `${title}: stripped out and refitted.`,
    duration: "4 weeks",
    budget: "£12,000",
    before_image_url: "/samples/kitchen-before.svg",
    after_image_url: "/samples/kitchen-after.svg",
    ...overrides,
  };
}

describe.each(backends)("renovation projects on $name", (backend) => {
  const data = useDatabase(backend);
  beforeEach(async () => {
    await data.db.deleteFrom("renovation_projects").execute();
  });

  /** Creates projects one after another (distinct created_at, so ties sort in creation order). */
  async function createAll(projects: NewProject[]) {
    const created = [];
    for (const project of projects) {
      created.push(await createProject(data.db, project, TEST_ACTOR));
      await sleep(3);
    }
    return created;
  }

  /** The admin's list as [title, display_order]. */
  async function adminOrder() {
    return (await listAllProjects(data.db)).map((project) => [project.title, project.display_order] as const);
  }
  const titles = async () => (await listAllProjects(data.db)).map((project) => project.title);

  describe("create", () => {
    it("is active and goes last (display order = how many there were) unless told otherwise", async () => {
      const [first, second, third] = await createAll([fields("Alpha"), fields("Bravo"), fields("Charlie")]);
      expect([first!.display_order, second!.display_order, third!.display_order]).toEqual([0, 1, 2]);
      for (const project of [first!, second!, third!]) {
        expect(project.is_active).toBe(true);
        expect(project.created_at).toBe(project.updated_at);
        expect(Date.parse(project.created_at)).toBeGreaterThan(Date.now() - 60_000);
      }
      expect(first).toMatchObject({
        title: "Alpha",
        category: "Kitchen Refit",
        description: "Alpha: stripped out and refitted.",
        duration: "4 weeks",
        budget: "£12,000",
        before_image_url: "/samples/kitchen-before.svg",
        after_image_url: "/samples/kitchen-after.svg",
        before_image_alt: "Before: Alpha",
        after_image_alt: "After: Alpha",
        // Not uploads of ours: no resized copies.
        before_image_sources: null,
        after_image_sources: null,
      });
      expect(await getProject(data.db, first!.id)).toEqual(first);
      expect(await countProjects(data.db)).toBe(3);
    });

    it("keeps a display order, hidden state and alt text it is given", async () => {
      const project = await createProject(
        data.db,
        fields("Delta", { display_order: 42, is_active: false, before_image_alt: "Damp kitchen", after_image_alt: "New kitchen" }),
        TEST_ACTOR,
      );
      expect(project).toMatchObject({ display_order: 42, is_active: false, before_image_alt: "Damp kitchen", after_image_alt: "New kitchen" });
      expect(await listActiveProjects(data.db)).toEqual([]);
      expect((await listAllProjects(data.db)).map((p) => p.id)).toEqual([project.id]);
    });
  });

  describe("edit", () => {
    it("saves the fields and moves updated_at, never created_at", async () => {
      const original = await createProject(data.db, fields("Echo"), TEST_ACTOR);
      await sleep(15);
      const result = await updateProject(
        data.db,
        original.id,
        {
          ...fields("Echo Revised", { before_image_url: "/samples/bathroom-before.svg", before_image_alt: "Old bathroom" }),
        },
        TEST_ACTOR,
      );
      expect(result).toBeDefined();
      expect(result!.previous).toEqual(original);
      const saved = await getProject(data.db, original.id);
      expect(saved).toEqual(result!.project);
      expect(saved).toMatchObject({
        title: "Echo Revised",
        before_image_url: "/samples/bathroom-before.svg",
        before_image_alt: "Old bathroom",
        after_image_alt: "After: Echo Revised",
        // Not given: kept.
        display_order: original.display_order,
        is_active: true,
      });
      expect(saved!.created_at).toBe(original.created_at);
      expect(Date.parse(saved!.updated_at)).toBeGreaterThan(Date.parse(original.updated_at));
    });

    it("answers undefined for a project that does not exist, changing nothing", async () => {
      const kept = await createProject(data.db, fields("Foxtrot"), TEST_ACTOR);
      expect(await updateProject(data.db, randomUUID(), fields("Ghost"), TEST_ACTOR)).toBeUndefined();
      expect(await listAllProjects(data.db)).toEqual([kept]);
    });
  });

  describe("show and hide", () => {
    it("hides a project from the homepage and shows it again, in its place", async () => {
      const [a, b, c] = await createAll([fields("Golf"), fields("Hotel"), fields("India")]);
      expect(await setProjectActive(data.db, b!.id, false, TEST_ACTOR)).toBe(true);
      expect((await listActiveProjects(data.db)).map((p) => p.title)).toEqual(["Golf", "India"]);
      const hidden = await getProject(data.db, b!.id);
      expect(hidden!.is_active).toBe(false);
      expect(Date.parse(hidden!.updated_at)).toBeGreaterThanOrEqual(Date.parse(b!.updated_at));
      // Still in the admin's list.
      expect(await titles()).toEqual(["Golf", "Hotel", "India"]);

      expect(await setProjectActive(data.db, b!.id, true, TEST_ACTOR)).toBe(true);
      expect((await listActiveProjects(data.db)).map((p) => p.id)).toEqual([a!.id, b!.id, c!.id]);
      expect((await getProject(data.db, b!.id))!.is_active).toBe(true);
    });

    it("answers false for a project that does not exist", async () => {
      await createProject(data.db, fields("Juliet"), TEST_ACTOR);
      expect(await setProjectActive(data.db, randomUUID(), false, TEST_ACTOR)).toBe(false);
      expect((await listActiveProjects(data.db)).map((p) => p.title)).toEqual(["Juliet"]);
    });
  });

  describe("move up and down", () => {
    it("swaps a project in the middle with its neighbour, up and down", async () => {
      await createAll([fields("A"), fields("B"), fields("C"), fields("D")]);
      const byTitle = async (title: string) => (await listAllProjects(data.db)).find((p) => p.title === title)!;

      expect(await moveProject(data.db, (await byTitle("C")).id, "up", TEST_ACTOR)).toBe("moved");
      expect(await adminOrder()).toEqual([
        ["A", 0],
        ["C", 1],
        ["B", 2],
        ["D", 3],
      ]);

      expect(await moveProject(data.db, (await byTitle("C")).id, "down", TEST_ACTOR)).toBe("moved");
      expect(await adminOrder()).toEqual([
        ["A", 0],
        ["B", 1],
        ["C", 2],
        ["D", 3],
      ]);

      expect(await moveProject(data.db, (await byTitle("B")).id, "down", TEST_ACTOR)).toBe("moved");
      expect(await adminOrder()).toEqual([
        ["A", 0],
        ["C", 1],
        ["B", 2],
        ["D", 3],
      ]);
      // The homepage shows the same order.
      expect((await listActiveProjects(data.db)).map((p) => p.title)).toEqual(["A", "C", "B", "D"]);
    });

    it("cannot move the first up or the last down: at-edge, and nothing changes", async () => {
      const [first, , last] = await createAll([fields("A"), fields("B"), fields("C")]);
      const before = await listAllProjects(data.db);
      await sleep(5);
      expect(await moveProject(data.db, first!.id, "up", TEST_ACTOR)).toBe("at-edge");
      expect(await moveProject(data.db, last!.id, "down", TEST_ACTOR)).toBe("at-edge");
      // Not even updated_at.
      expect(await listAllProjects(data.db)).toEqual(before);
    });

    it("a single project is both first and last", async () => {
      const only = await createProject(data.db, fields("Solo"), TEST_ACTOR);
      expect(await moveProject(data.db, only.id, "up", TEST_ACTOR)).toBe("at-edge");
      expect(await moveProject(data.db, only.id, "down", TEST_ACTOR)).toBe("at-edge");
      expect(await adminOrder()).toEqual([["Solo", 0]]);
    });

    it("with gaps (0, 5, 9): one swap of the two values, the gaps kept, the third untouched", async () => {
      const [a, b, c] = await createAll([fields("A", { display_order: 0 }), fields("B", { display_order: 5 }), fields("C", { display_order: 9 })]);
      await sleep(5);
      expect(await moveProject(data.db, b!.id, "down", TEST_ACTOR)).toBe("moved");
      expect(await adminOrder()).toEqual([
        ["A", 0],
        ["C", 5],
        ["B", 9],
      ]);
      const untouched = await getProject(data.db, a!.id);
      expect(untouched!.updated_at).toBe(a!.updated_at);
      expect(Date.parse((await getProject(data.db, c!.id))!.updated_at)).toBeGreaterThan(Date.parse(c!.updated_at));

      expect(await moveProject(data.db, b!.id, "up", TEST_ACTOR)).toBe("moved");
      expect(await moveProject(data.db, b!.id, "up", TEST_ACTOR)).toBe("moved");
      expect(await adminOrder()).toEqual([
        ["B", 0],
        ["A", 5],
        ["C", 9],
      ]);
    });

    it("with ties (0, 1, 1, 1): the visible order changes by exactly one place, and the list is renumbered", async () => {
      // Equal orders show in creation order: A, B, C, D.
      const [, , c, d] = await createAll([
        fields("A", { display_order: 0 }),
        fields("B", { display_order: 1 }),
        fields("C", { display_order: 1 }),
        fields("D", { display_order: 1 }),
      ]);
      expect(await titles()).toEqual(["A", "B", "C", "D"]);

      expect(await moveProject(data.db, d!.id, "up", TEST_ACTOR)).toBe("moved");
      expect(await adminOrder()).toEqual([
        ["A", 0],
        ["B", 1],
        ["D", 2],
        ["C", 3],
      ]);

      // Ties again, this time moving down from the middle of them.
      await data.db.updateTable("renovation_projects").set({ display_order: 1 }).where("title", "!=", "A").execute();
      expect(await titles()).toEqual(["A", "B", "C", "D"]);
      expect(await moveProject(data.db, c!.id, "down", TEST_ACTOR)).toBe("moved");
      expect(await adminOrder()).toEqual([
        ["A", 0],
        ["B", 1],
        ["D", 2],
        ["C", 3],
      ]);
    });

    it("answers not-found for an id that does not exist, changing nothing", async () => {
      await createAll([fields("A"), fields("B")]);
      const before = await listAllProjects(data.db);
      expect(await moveProject(data.db, randomUUID(), "up", TEST_ACTOR)).toBe("not-found");
      expect(await moveProject(data.db, randomUUID(), "down", TEST_ACTOR)).toBe("not-found");
      expect(await listAllProjects(data.db)).toEqual(before);
    });

    it("counts hidden projects as places too (the admin's list is what moves)", async () => {
      const [, hidden, c] = await createAll([fields("A"), fields("B", { is_active: false }), fields("C")]);
      expect(await moveProject(data.db, c!.id, "up", TEST_ACTOR)).toBe("moved");
      expect(await adminOrder()).toEqual([
        ["A", 0],
        ["C", 1],
        ["B", 2],
      ]);
      expect((await listActiveProjects(data.db)).map((p) => p.title)).toEqual(["A", "C"]);
      expect(await moveProject(data.db, hidden!.id, "down", TEST_ACTOR)).toBe("at-edge");
    });

    /**
     * Starts moves a millisecond apart, so they overlap in every way: some wait for a
     * lock another holds, some start after another has committed. Waits for every one;
     * each must succeed (moved, or at-edge), none may fail.
     */
    async function movesAtOnce(moves: Array<[string, "up" | "down"]>) {
      const running: Promise<string>[] = [];
      for (const [id, direction] of moves) {
        running.push(moveProject(data.db, id, direction, TEST_ACTOR));
        await sleep(1);
      }
      const settled = await Promise.allSettled(running);
      const failures = settled.flatMap((outcome) => (outcome.status === "rejected" ? [String((outcome.reason as Error).message)] : []));
      expect(failures, "moves that failed").toEqual([]);
      return settled.map((outcome) => (outcome as PromiseFulfilledResult<string>).value);
    }

    it("moves made at the same moment all succeed and leave every project in a place of its own", async () => {
      const projects = await createAll(["A", "B", "C", "D", "E", "F", "G", "H"].map((title) => fields(title)));
      const ids = projects.map((project) => project.id);
      for (let round = 0; round < 40; round++) {
        // Neighbours moving towards each other, and moves at both ends.
        const list = await listAllProjects(data.db);
        const at = (index: number) => list[index]!.id;
        const results = await movesAtOnce([
          [at(2), "down"],
          [at(3), "up"],
          [at(1), "up"],
          [at(4), "down"],
          [at(6), "up"],
          [at(0), "down"],
          [at(5), "down"],
          [at(7), "up"],
        ]);
        for (const result of results) expect(["moved", "at-edge"]).toContain(result);
        const after = await listAllProjects(data.db);
        expect([...after.map((project) => project.id)].sort()).toEqual([...ids].sort());
        const orders = after.map((project) => project.display_order);
        expect(new Set(orders).size, `distinct positions after round ${round}: ${orders.join(", ")}`).toBe(orders.length);
      }
    });

    it("moves at the same moment on a list with ties also end with distinct positions", async () => {
      const projects = await createAll(["A", "B", "C", "D", "E"].map((title) => fields(title, { display_order: 3 })));
      const results = await movesAtOnce([
        [projects[1]!.id, "up"],
        [projects[3]!.id, "down"],
        [projects[2]!.id, "up"],
      ]);
      expect(results).toEqual(["moved", "moved", "moved"]);
      const orders = (await listAllProjects(data.db)).map((project) => project.display_order);
      expect(orders).toEqual([0, 1, 2, 3, 4]);
    });
  });

  describe("delete", () => {
    it("removes the project and answers it; a second delete answers undefined", async () => {
      const [a, b] = await createAll([fields("A"), fields("B")]);
      const deleted = await deleteProject(data.db, a!.id, TEST_ACTOR);
      expect(deleted).toEqual(a);
      expect(await getProject(data.db, a!.id)).toBeUndefined();
      expect(await deleteProject(data.db, a!.id, TEST_ACTOR)).toBeUndefined();
      expect((await listAllProjects(data.db)).map((p) => p.id)).toEqual([b!.id]);
      expect((await listActiveProjects(data.db)).map((p) => p.id)).toEqual([b!.id]);
    });
  });

  describe("the homepage's list", () => {
    it("shows exactly the active projects, by display order (then age)", async () => {
      await createAll([
        fields("Late", { display_order: 7 }),
        fields("Hidden First", { display_order: 0, is_active: false }),
        fields("Early", { display_order: 1 }),
        fields("Tied Older", { display_order: 4 }),
        fields("Hidden Middle", { display_order: 4, is_active: false }),
        fields("Tied Newer", { display_order: 4 }),
      ]);
      const active = await listActiveProjects(data.db);
      expect(active.map((p) => p.title)).toEqual(["Early", "Tied Older", "Tied Newer", "Late"]);
      expect(active.every((p) => p.is_active)).toBe(true);
      expect((await listAllProjects(data.db)).map((p) => p.title)).toEqual(["Hidden First", "Early", "Tied Older", "Hidden Middle", "Tied Newer", "Late"]);
    });
  });
});
