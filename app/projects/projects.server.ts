import { randomUUID } from "node:crypto";
import type { SelectQueryBuilder, Selectable } from "kysely";
import { linkImageUrl } from "~/images/image-files";
import { findImagesByUrl, responsiveImage, type StoredImage } from "~/images/images.server";
import { dialectOf, type Db } from "~/platform/db/db.server";
import { toBoolean, toIsoString } from "~/platform/db/db-values";
import type { DatabaseSchema, RenovationProjectTable } from "~/platform/db/schema";
import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import { inTransaction } from "~/platform/db/transactions.server";
import { defaultAlt, type RenovationProject } from "./types";

type Row = Selectable<RenovationProjectTable>;

/** How a list links its images: PUBLIC_IMAGES_URL for the public pages (undefined: `/images/<name>`). */
export type ImageLinks = { publicImagesUrl?: string | undefined };

function toProject(row: Row, images: Map<string, StoredImage>, { publicImagesUrl }: ImageLinks = {}): RenovationProject {
  const before = images.get(row.before_image_url);
  const after = images.get(row.after_image_url);
  return {
    id: row.id,
    title: row.title,
    category: row.category,
    description: row.description,
    duration: row.duration,
    budget: row.budget,
    before_image_url: linkImageUrl(row.before_image_url, publicImagesUrl),
    after_image_url: linkImageUrl(row.after_image_url, publicImagesUrl),
    before_image_alt: row.before_image_alt ?? defaultAlt("before", row.title),
    after_image_alt: row.after_image_alt ?? defaultAlt("after", row.title),
    before_image_sources: before ? responsiveImage(before, publicImagesUrl) : null,
    after_image_sources: after ? responsiveImage(after, publicImagesUrl) : null,
    is_active: toBoolean(row.is_active),
    display_order: Number(row.display_order),
    created_at: toIsoString(row.created_at),
    updated_at: toIsoString(row.updated_at),
  };
}

async function withImages(db: Db, rows: Row[], links?: ImageLinks): Promise<RenovationProject[]> {
  const images = await findImagesByUrl(
    db,
    rows.flatMap((row) => [row.before_image_url, row.after_image_url]),
  );
  return rows.map((row) => toProject(row, images, links));
}

/** The order everyone sees: display order, then age, then id (so ties are stable). */
function inDisplayOrder<O>(query: SelectQueryBuilder<DatabaseSchema, "renovation_projects", O>) {
  return query.orderBy("display_order", "asc").orderBy("created_at", "asc").orderBy("id", "asc");
}

/**
 * The public gallery: active projects, in display order. The pages pass
 * PUBLIC_IMAGES_URL; the JSON API keeps the stored `/images/<name>`, the
 * address that identifies an image and always works.
 */
export async function listActiveProjects(db: Db, links?: ImageLinks): Promise<RenovationProject[]> {
  const rows = await inDisplayOrder(db.selectFrom("renovation_projects").selectAll().where("is_active", "=", true)).execute();
  return withImages(db, rows, links);
}

/** The admin's list: every project, active or not, in display order. */
export async function listAllProjects(db: Db): Promise<RenovationProject[]> {
  const rows = await inDisplayOrder(db.selectFrom("renovation_projects").selectAll()).execute();
  return withImages(db, rows);
}

export async function getProject(db: Db, id: string): Promise<RenovationProject | undefined> {
  const row = await db.selectFrom("renovation_projects").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? (await withImages(db, [row]))[0] : undefined;
}

/** What the project form saves (alt text: null for the default). */
export type ProjectFields = Pick<RenovationProject, "title" | "category" | "description" | "duration" | "budget" | "before_image_url" | "after_image_url"> & {
  before_image_alt?: string | null;
  after_image_alt?: string | null;
  display_order?: number;
};

/** The columns a create and an edit both write, from the form's fields. */
function formColumns(fields: ProjectFields) {
  return {
    title: fields.title,
    category: fields.category,
    description: fields.description,
    duration: fields.duration,
    budget: fields.budget,
    before_image_url: fields.before_image_url,
    after_image_url: fields.after_image_url,
    before_image_alt: fields.before_image_alt ?? null,
    after_image_alt: fields.after_image_alt ?? null,
  };
}

export type NewProject = ProjectFields & { is_active?: boolean };

/** Adds a project: active unless told otherwise; without a display order it goes last (SPEC: order = current count). */
export async function createProject(db: Db, project: NewProject, actor: Actor): Promise<RenovationProject> {
  const now = new Date().toISOString();
  const row = await inTransaction(db, async (trx) => {
    const row: Row = {
      id: randomUUID(),
      ...formColumns(project),
      is_active: project.is_active ?? true,
      display_order: project.display_order ?? (await countProjects(trx)),
      created_at: now,
      updated_at: now,
    };
    await trx.insertInto("renovation_projects").values(row).execute();
    await audit(trx, { actor, action: "project-created", target: row.id });
    return row;
  });
  return (await withImages(db, [row]))[0]!;
}

/** Saves an edit. Returns the project before and after, or undefined when it does not exist. */
export async function updateProject(
  db: Db,
  id: string,
  fields: ProjectFields,
  actor: Actor,
): Promise<{ previous: RenovationProject; project: RenovationProject } | undefined> {
  const result = await inTransaction(db, async (trx) => {
    const previous = await trx.selectFrom("renovation_projects").selectAll().where("id", "=", id).executeTakeFirst();
    if (!previous) return undefined;
    const changes = {
      ...formColumns(fields),
      display_order: fields.display_order ?? Number(previous.display_order),
      updated_at: new Date().toISOString(),
    };
    await trx.updateTable("renovation_projects").set(changes).where("id", "=", id).execute();
    await audit(trx, { actor, action: "project-updated", target: id });
    return { previous, current: { ...previous, ...changes } };
  });
  if (!result) return undefined;
  const [previous, project] = await withImages(db, [result.previous, result.current]);
  return { previous: previous!, project: project! };
}

/** Shows or hides a project on the homepage. False when it does not exist. */
export async function setProjectActive(db: Db, id: string, active: boolean, actor: Actor): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const result = await trx
      .updateTable("renovation_projects")
      .set({ is_active: active, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await audit(trx, { actor, action: active ? "project-shown" : "project-hidden", target: id });
    return true;
  });
}

export type MoveResult = "moved" | "not-found" | "at-edge";

/**
 * Moves a project one place up or down the list (docs/decisions/010-gallery-uploads.md).
 * It trades places with its neighbour in one transaction, so the order seen
 * everywhere changes by exactly one place. With distinct display orders the
 * two swap values (gaps an admin chose are kept); when some share a value,
 * the whole list is renumbered 0, 1, 2… in its visible order first, since a
 * swap of equal values would change nothing. The first project cannot move
 * up, the last cannot move down.
 */
export async function moveProject(db: Db, id: string, direction: "up" | "down", actor: Actor): Promise<MoveResult> {
  return inTransaction(db, async (trx) => {
    // PostgreSQL: one reorder at a time, so two admins' moves cannot interleave
    // (rows locked in one fixed order, so two moves cannot deadlock).
    // (SQLite runs one write transaction at a time anyway.)
    if (dialectOf(db) === "postgres") await trx.selectFrom("renovation_projects").select("id").orderBy("id").forUpdate().execute();
    const rows = await inDisplayOrder(trx.selectFrom("renovation_projects").select(["id", "display_order"])).execute();
    const index = rows.findIndex((row) => row.id === id);
    if (index === -1) return "not-found";
    const neighbour = direction === "up" ? index - 1 : index + 1;
    if (neighbour < 0 || neighbour >= rows.length) return "at-edge";

    const now = new Date().toISOString();
    const orders = rows.map((row) => Number(row.display_order));
    const distinct = orders.every((order, position) => position === 0 || order > orders[position - 1]!);
    const wanted = rows.map((row) => ({ id: row.id, from: Number(row.display_order), to: Number(row.display_order) }));
    if (distinct) {
      wanted[index]!.to = orders[neighbour]!;
      wanted[neighbour]!.to = orders[index]!;
    } else {
      const reordered = [...wanted];
      [reordered[index], reordered[neighbour]] = [reordered[neighbour]!, reordered[index]!];
      reordered.forEach((entry, position) => {
        entry.to = position;
      });
    }
    for (const entry of wanted) {
      if (entry.to === entry.from) continue;
      await trx.updateTable("renovation_projects").set({ display_order: entry.to, updated_at: now }).where("id", "=", entry.id).execute();
    }
    await audit(trx, { actor, action: "project-moved", target: id });
    return "moved";
  });
}

/** Deletes a project; returns it (its image URLs are for the clean-up), or undefined when there was none. */
export async function deleteProject(db: Db, id: string, actor: Actor): Promise<RenovationProject | undefined> {
  const row = await inTransaction(db, async (trx) => {
    const existing = await trx.selectFrom("renovation_projects").selectAll().where("id", "=", id).executeTakeFirst();
    if (!existing) return undefined;
    await trx.deleteFrom("renovation_projects").where("id", "=", id).execute();
    await audit(trx, { actor, action: "project-deleted", target: id });
    return existing;
  });
  return row ? (await withImages(db, [row]))[0] : undefined;
}

export async function countProjects(db: Db): Promise<number> {
  const { count } = await db
    .selectFrom("renovation_projects")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(count);
}
