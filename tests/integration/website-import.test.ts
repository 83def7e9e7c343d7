/**
 * `import-site` checks a file as strictly as the Website tab checks a form
 * (issue 19): the content goes through the same section parsers as a save,
 * and a file holding anything a save would not store (an extra list item, a
 * value of the wrong type, a key no section has) is refused whole, saying
 * where, with nothing stored. Such files once made / and /fees answer 500.
 * On SQLite and PostgreSQL.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentProblems, siteDefaults, type SiteContent } from "~/website/content";
import { siteFile } from "~/website/transfer.server";
import { readDraft, readLive } from "~/website/website.server";
import { runAdmin } from "../support/admin-cli";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { useSite } from "../support/sites";

const DEFAULTS = siteDefaults();

/** A sound site with a fee, so /fees lists one. */
const SOUND: SiteContent = {
  ...DEFAULTS,
  fees: {
    vatStatus: "included",
    landlord: [
      {
        name: "Tenant find",
        amountPence: 60_000,
        basis: "per-property",
        covers: "Finding and referencing a tenant.",
        calculation: "Once, at the start of each tenancy.",
      },
    ],
    tenant: [],
  },
};

type Json = Record<string, unknown>;

/** Crafted files: what each changes in the sound content's JSON, and the place the refusal must name. */
const CRAFTED: Array<{ label: string; change: (live: Json) => void; names: string }> = [
  {
    label: "an extra promise, not even text (made / answer 500)",
    change: (live) => ((live.hero as Json).promises as unknown[]).push({ html: "<b>4</b>" }),
    names: "hero.promises",
  },
  {
    label: "a fee charged on an unknown basis (made /fees answer 500)",
    change: (live) => ((((live.fees as Json).landlord as Json[])[0] as Json).basis = "__proto__"),
    names: "fees.landlord.0.basis",
  },
  {
    label: "a key no section has",
    change: (live) => ((live.company as Json).colour = "red"),
    names: "company.colour",
  },
  {
    label: "a price as text",
    change: (live) => ((((live.pricing as Json).plans as Json[])[0] as Json).pricePence = "8000"),
    names: "pricing.plans.0.pricePence",
  },
  {
    label: "a section this release does not know",
    change: (live) => (live.scripts = { onload: "alert(1)" }),
    names: "scripts",
  },
];

beforeAll(() => assertBuilt());

describe.each(backends)("import-site on $name", (backend) => {
  const site = useSite(backend, { signedIn: false });
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "site-import-"));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const status = async (pathname: string) => (await site.get(pathname)).status;

  it("the sound file the crafted ones start from is one a save could have stored", () => {
    expect(contentProblems(SOUND)).toEqual([]);
  });

  it.each(CRAFTED)("refuses a file with $label, saying where, storing nothing", async ({ change, names }) => {
    const json = JSON.parse(siteFile(SOUND, undefined, new Date("2026-11-26T09:00:00Z"))) as { live: Json };
    change(json.live);
    const file = path.join(dir, "crafted.json");
    await writeFile(file, JSON.stringify(json));
    const before = await readDraft(site.db, DEFAULTS);

    const run = await runAdmin(site.database.env, ["import-site", file, "--publish"]);
    const pages = { home: await status("/"), fees: await status("/fees") };
    expect({ code: run.code, pages }, run.stdout + run.stderr).toEqual({ code: 1, pages: { home: 200, fees: 200 } });
    expect(run.stderr).toContain(names);
    expect(await readDraft(site.db, DEFAULTS)).toEqual(before);
    expect((await readLive(site.db, DEFAULTS)).version).toBeUndefined();
  });

  it("imports and publishes the sound file", async () => {
    const file = path.join(dir, "sound.json");
    await writeFile(file, siteFile(SOUND, undefined, new Date("2026-11-26T09:00:00Z")));
    const run = await runAdmin(site.database.env, ["import-site", file, "--publish"]);
    expect(run.code, run.stderr).toBe(0);
    expect((await readLive(site.db, DEFAULTS)).content).toEqual(SOUND);
    expect(await status("/")).toBe(200);
    expect(await status("/fees")).toBe(200);
  });
});
