import { randomUUID } from "node:crypto";
import type { Selectable } from "kysely";
import type { Db } from "~/platform/db.server";
import { toBoolean, toIsoString } from "~/platform/db-values";
import type { RenovationProjectTable } from "~/platform/schema";
import type { RenovationProject } from "./types";

function toProject(row: Selectable<RenovationProjectTable>): RenovationProject {
  return {
    id: row.id,
    title: row.title,
    category: row.category,
    description: row.description,
    duration: row.duration,
    budget: row.budget,
    before_image_url: row.before_image_url,
    after_image_url: row.after_image_url,
    is_active: toBoolean(row.is_active),
    display_order: Number(row.display_order),
    created_at: toIsoString(row.created_at),
    updated_at: toIsoString(row.updated_at),
  };
}

/** The public gallery: active projects, in display order (ties by age, so the order is stable). */
export async function listActiveProjects(db: Db): Promise<RenovationProject[]> {
  const rows = await db
    .selectFrom("renovation_projects")
    .selectAll()
    .where("is_active", "=", true)
    .orderBy("display_order", "asc")
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(toProject);
}

/** The admin's list: every project, active or not, in display order. */
export async function listAllProjects(db: Db): Promise<RenovationProject[]> {
  const rows = await db
    .selectFrom("renovation_projects")
    .selectAll()
    .orderBy("display_order", "asc")
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map(toProject);
}

export type NewProject = Pick<
  RenovationProject,
  "title" | "category" | "description" | "duration" | "budget" | "before_image_url" | "after_image_url"
> &
  Partial<Pick<RenovationProject, "is_active" | "display_order">>;

/** Adds a project; without a display order it goes to the end (SPEC: order = current count). */
export async function createProject(db: Db, project: NewProject): Promise<RenovationProject> {
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    let displayOrder = project.display_order;
    if (displayOrder === undefined) {
      const { count } = await trx
        .selectFrom("renovation_projects")
        .select((eb) => eb.fn.countAll<number | string>().as("count"))
        .executeTakeFirstOrThrow();
      displayOrder = Number(count);
    }
    const row = {
      id: randomUUID(),
      ...project,
      is_active: project.is_active ?? true,
      display_order: displayOrder,
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto("renovation_projects").values(row).execute();
    return toProject(row);
  });
}
