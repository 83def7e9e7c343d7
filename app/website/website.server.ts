import { audit } from "~/audit/audit.server";
import type { Actor } from "~/audit/actor";
import type { Company } from "~/company/company";
import { findImagesByUrl, findStoredFile, responsiveImage } from "~/images/images.server";
import type { Db } from "~/platform/db/db.server";
import { toIsoString } from "~/platform/db/db-values";
import { contentProblems, overDefaults, siteDefaults, type SiteContent, type SiteSection, type VersionSummary } from "./content";
import { siteCompany } from "./sections/company";
import type { HeroPicture } from "./sections/hero";
import type { Log } from "~/platform/observe/log.server";
import { inTransaction } from "~/platform/db/transactions.server";
import { changesLegalDetails, mayChangeLegalDetails } from "./legal-sections";

/**
 * The company's site content in the database (migration 009, decision 027):
 * one draft that admins edit, and the published versions, newest live. Every
 * change is a compare-and-set on the draft's revision, so two admins editing
 * at once cannot overwrite each other unseen, and publishing commits the new
 * version with the public data version (the page cache renders once more, on
 * every instance).
 */

export type LiveSite = {
  content: SiteContent;
  /** The live version's number; undefined while nothing was published (the defaults are live). */
  version: number | undefined;
};

export type DraftSite = {
  content: SiteContent;
  /** 0 before the first save. */
  revision: number;
  /** True when the draft differs from what is live. */
  unpublished: boolean;
  updatedAt: string | undefined;
  updatedBy: string | undefined;
};

/** "legal-details": an Editor's change would touch the Fees, Legal details or Policies (legal-sections.ts). */
export type Change = { ok: true; revision: number } | { ok: false; reason: "stale" | "not-found" | "nothing-to-publish" | "legal-details" };

const LEGAL_REFUSAL = { ok: false, reason: "legal-details" } as const;

/** Kept for restore; older versions are deleted by the publish that pushes them out. */
export const KEPT_VERSIONS = 50;

/** A stored version or draft (JSON text), read over the defaults (overDefaults). */
function parseStored(json: string, defaults: SiteContent): SiteContent {
  return overDefaults(JSON.parse(json) as Record<string, unknown>, defaults);
}

export async function readLive(db: Db, defaults: SiteContent): Promise<LiveSite> {
  const row = await db.selectFrom("site_versions").select(["number", "content"]).orderBy("number", "desc").limit(1).executeTakeFirst();
  if (!row) return { content: defaults, version: undefined };
  return { content: parseStored(row.content, defaults), version: Number(row.number) };
}

export async function readDraft(db: Db, defaults: SiteContent): Promise<DraftSite> {
  const [row, live] = await Promise.all([
    db.selectFrom("site_draft").select(["content", "revision", "updated_at", "updated_by"]).where("id", "=", 1).executeTakeFirst(),
    readLive(db, defaults),
  ]);
  if (!row) return { content: live.content, revision: 0, unpublished: false, updatedAt: undefined, updatedBy: undefined };
  const content = parseStored(row.content, defaults);
  return {
    content,
    revision: Number(row.revision),
    unpublished: JSON.stringify(content) !== JSON.stringify(live.content),
    updatedAt: toIsoString(row.updated_at),
    updatedBy: row.updated_by,
  };
}

/** Writes the draft if it is still at `baseRevision`; the whole content is checked first (a bug must not store a broken site). */
async function writeDraft(db: Db, content: SiteContent, baseRevision: number, by: string, now: Date): Promise<Change> {
  const problems = contentProblems(content);
  if (problems.length) throw new Error(`Refusing to store invalid site content: ${problems.join(" ")}`);
  const json = JSON.stringify(content);
  const updatedAt = now.toISOString();
  if (baseRevision === 0) {
    const inserted = await db
      .insertInto("site_draft")
      .values({ id: 1, content: json, revision: 1, updated_at: updatedAt, updated_by: by })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1 ? { ok: true, revision: 1 } : { ok: false, reason: "stale" };
  }
  const updated = await db
    .updateTable("site_draft")
    .set({ content: json, revision: baseRevision + 1, updated_at: updatedAt, updated_by: by })
    .where("id", "=", 1)
    .where("revision", "=", baseRevision)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1 ? { ok: true, revision: baseRevision + 1 } : { ok: false, reason: "stale" };
}

/**
 * Saves an edited draft (the section named, for the audit log); refused as
 * stale when someone else saved since `baseRevision` was read, and for an
 * Editor whose content would change the legal sections.
 */
export async function saveDraft(
  db: Db,
  change: { content: SiteContent; defaults: SiteContent; section?: SiteSection; baseRevision: number; by: string; actor: Actor; now: Date },
): Promise<Change> {
  return inTransaction(db, async (trx) => {
    if (!mayChangeLegalDetails(change.actor) && changesLegalDetails((await readDraft(trx, change.defaults)).content, change.content)) return LEGAL_REFUSAL;
    const saved = await writeDraft(trx, change.content, change.baseRevision, change.by, change.now);
    if (saved.ok) await audit(trx, { actor: change.actor, action: "website-saved", target: change.section, at: change.now });
    return saved;
  });
}

async function insertVersion(db: Db, content: string, by: string, now: Date, restoredFrom: number | null): Promise<number> {
  const newest = await db
    .selectFrom("site_versions")
    .select((eb) => eb.fn.max("number").as("n"))
    .executeTakeFirst();
  const number = Number(newest?.n ?? 0) + 1;
  await db.insertInto("site_versions").values({ number, content, published_at: now.toISOString(), published_by: by, restored_from: restoredFrom }).execute();
  await db
    .deleteFrom("site_versions")
    .where("number", "<=", number - KEPT_VERSIONS)
    .execute();
  return number;
}

/**
 * Publishes a stored content (JSON text, checked when it was written) as a new
 * version: a scheduled publish. The draft is left as it is: unchanged since it
 * was scheduled, it now equals the live site; edited since, those edits stay
 * unpublished.
 */
export async function publishContent(db: Db, change: { content: string; by: string; actor: Actor; now: Date }): Promise<number> {
  return inTransaction(db, async (trx) => {
    const version = await insertVersion(trx, change.content, change.by, change.now, null);
    await audit(trx, { actor: change.actor, action: "website-published", target: String(version), details: { version }, at: change.now });
    return version;
  });
}

/**
 * Replaces the draft with an imported content (checked whole first); with
 * `publish`, publishes it too. Takes the draft's revision as it finds it: an
 * import is an operator's deliberate act.
 */
export async function importContent(
  db: Db,
  change: { content: SiteContent; defaults: SiteContent; publish: boolean; by: string; actor: Actor; now: Date },
): Promise<{ version: number | undefined }> {
  return inTransaction(db, async (trx) => {
    const draft = await readDraft(trx, change.defaults);
    const saved = await writeDraft(trx, change.content, draft.revision, change.by, change.now);
    if (!saved.ok) throw new Error("The draft changed during the import; nothing was imported. Run it again.");
    let version: number | undefined;
    if (change.publish) {
      const live = await readLive(trx, change.defaults);
      const unchanged = live.version !== undefined && JSON.stringify(live.content) === JSON.stringify(change.content);
      version = unchanged ? live.version : await insertVersion(trx, JSON.stringify(change.content), change.by, change.now, null);
    }
    await audit(trx, {
      actor: change.actor,
      action: "website-imported",
      target: version === undefined ? undefined : String(version),
      details: { version },
      at: change.now,
    });
    return { version };
  });
}

/**
 * An imported content without the uploads this installation does not hold
 * (decision 030): an export carries the files' addresses, not the files, so a
 * logo, hero image or certificate from another installation is cleared
 * (the defaults show instead) and named, for the company to upload again.
 * On the installation it came from, or one sharing its bucket and database
 * records, every reference is kept.
 */
export async function withoutMissingFiles(db: Db, content: SiteContent): Promise<{ content: SiteContent; cleared: string[] }> {
  const cleared: string[] = [];
  const keep = async (url: string, what: string) => {
    if (!url || (await findStoredFile(db, url))) return url;
    cleared.push(what);
    return "";
  };
  const logo = await keep(content.company.logo, "the logo");
  const image = await keep(content.hero.image, "the hero image");
  const cmpCertificate = await keep(content.legal.cmpCertificate, "the client money protection certificate");
  return {
    content: {
      ...content,
      company: { ...content.company, logo },
      hero: { ...content.hero, image, imageAlt: image ? content.hero.imageAlt : "" },
      legal: { ...content.legal, cmpCertificate },
    },
    cleared,
  };
}

/**
 * Publishes the draft as it was at `baseRevision`: live at once, everywhere.
 * The draft row is written in the same transaction (its revision moves), which
 * also makes two publishes at once take turns.
 */
export async function publishDraft(
  db: Db,
  change: { defaults: SiteContent; baseRevision: number; by: string; actor: Actor; now: Date },
): Promise<Change & { version?: number }> {
  return inTransaction(db, async (trx) => {
    const draft = await readDraft(trx, change.defaults);
    if (draft.revision !== change.baseRevision) return { ok: false, reason: "stale" } as const;
    if (!draft.unpublished) return { ok: false, reason: "nothing-to-publish" } as const;
    if (!mayChangeLegalDetails(change.actor) && changesLegalDetails((await readLive(trx, change.defaults)).content, draft.content)) return LEGAL_REFUSAL;
    const moved = await writeDraft(trx, draft.content, draft.revision, change.by, change.now);
    if (!moved.ok) return moved;
    const version = await insertVersion(trx, JSON.stringify(draft.content), change.by, change.now, null);
    await audit(trx, { actor: change.actor, action: "website-published", target: String(version), details: { version }, at: change.now });
    return { ok: true, revision: moved.revision, version } as const;
  });
}

/** Puts the draft back to what is live. */
export async function discardDraft(db: Db, change: { defaults: SiteContent; baseRevision: number; by: string; actor: Actor; now: Date }): Promise<Change> {
  return inTransaction(db, async (trx) => {
    const live = await readLive(trx, change.defaults);
    if (!mayChangeLegalDetails(change.actor) && changesLegalDetails((await readDraft(trx, change.defaults)).content, live.content)) return LEGAL_REFUSAL;
    const discarded = await writeDraft(trx, live.content, change.baseRevision, change.by, change.now);
    if (discarded.ok) await audit(trx, { actor: change.actor, action: "website-discarded", at: change.now });
    return discarded;
  });
}

/** Publishes an earlier version again, as a new version; the draft becomes that content too. */
export async function restoreVersion(
  db: Db,
  change: { defaults: SiteContent; number: number; baseRevision: number; by: string; actor: Actor; now: Date },
): Promise<Change & { version?: number }> {
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom("site_versions").select("content").where("number", "=", change.number).executeTakeFirst();
    if (!row) return { ok: false, reason: "not-found" } as const;
    const content = parseStored(row.content, change.defaults);
    if (!mayChangeLegalDetails(change.actor)) {
      const [draft, live] = [await readDraft(trx, change.defaults), await readLive(trx, change.defaults)];
      if (changesLegalDetails(draft.content, content) || changesLegalDetails(live.content, content)) return LEGAL_REFUSAL;
    }
    const moved = await writeDraft(trx, content, change.baseRevision, change.by, change.now);
    if (!moved.ok) return moved;
    const version = await insertVersion(trx, JSON.stringify(content), change.by, change.now, change.number);
    await audit(trx, {
      actor: change.actor,
      action: "website-restored",
      target: String(version),
      details: { version, fromVersion: change.number },
      at: change.now,
    });
    return { ok: true, revision: moved.revision, version } as const;
  });
}

export async function listVersions(db: Db): Promise<VersionSummary[]> {
  const rows = await db
    .selectFrom("site_versions")
    .select(["number", "published_at", "published_by", "restored_from"])
    .orderBy("number", "desc")
    .limit(KEPT_VERSIONS)
    .execute();
  return rows.map((row, index) => ({
    number: Number(row.number),
    publishedAt: toIsoString(row.published_at),
    publishedBy: row.published_by,
    restoredFrom: row.restored_from === null ? null : Number(row.restored_from),
    live: index === 0,
  }));
}

export async function readVersion(db: Db, number: number, defaults: SiteContent): Promise<SiteContent | undefined> {
  const row = await db.selectFrom("site_versions").select("content").where("number", "=", number).executeTakeFirst();
  return row ? parseStored(row.content, defaults) : undefined;
}

/** The hero's uploaded image, or undefined for the built-in illustration (none chosen, or its record is gone). */
export async function heroPicture(db: Db, content: SiteContent): Promise<HeroPicture | undefined> {
  const { image, imageAlt } = content.hero;
  if (!image) return undefined;
  const stored = (await findImagesByUrl(db, [image])).get(image);
  return stored && { ...responsiveImage(stored), src: stored.url, alt: imageAlt };
}

/**
 * What the public pages show: the live content, and the company as the site
 * names it (the live details over the configured ones; the logo stays
 * COMPANY_LOGO_URL's until one is uploaded here). A failure to read it
 * shows the defaults and says so (`degraded`), and such a page is never kept
 * by the page cache.
 */
export async function publishedSite({
  db,
  company,
  log,
}: {
  db: Db;
  company: Company;
  log: Pick<Log, "error">;
}): Promise<{ content: SiteContent; company: Company; hero: HeroPicture | undefined; degraded: boolean }> {
  const defaults = siteDefaults(company);
  try {
    const live = await readLive(db, defaults);
    return { content: live.content, company: siteCompany(company, live.content), hero: await heroPicture(db, live.content), degraded: false };
  } catch (error) {
    log.error({ err: error }, "Could not read the published site content");
    return { content: defaults, company, hero: undefined, degraded: true };
  }
}
