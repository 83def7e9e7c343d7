import { createHash } from "node:crypto";
import { StorageError, type ImageStorage } from "~/platform/storage/storage.server";

/**
 * `npm run admin -- migrate-images --to s3|disk` (decision 034): copies every
 * image from one bucket to the other and checks each copy byte for byte
 * (SHA-256 of what is read back). Run it again and it copies only what is
 * missing: an object already at the target is compared, never overwritten.
 * The source is left as it was.
 */
export type MigrationReport = {
  /** Copied now, and read back equal. */
  copied: string[];
  /** Already at the target with the same bytes. */
  alreadyThere: string[];
  /** At the target with other bytes, or read back different: listed, never overwritten. */
  different: string[];
  /** Gone from the source while the copy ran (a clean-up removed it). */
  vanished: string[];
};

async function readBytes(storage: ImageStorage, name: string): Promise<Buffer | undefined> {
  const bytes = await storage.read(name);
  return bytes && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export async function migrateImages(
  from: ImageStorage,
  to: ImageStorage,
  onObject: (name: string, outcome: keyof MigrationReport) => void = () => {},
): Promise<MigrationReport> {
  const report: MigrationReport = { copied: [], alreadyThere: [], different: [], vanished: [] };
  const record = (name: string, outcome: keyof MigrationReport) => {
    report[outcome].push(name);
    onObject(name, outcome);
  };
  // All names first: the target may be the same kind of listing, and copying changes none of the source's.
  const names: string[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await from.list({ limit: 1000, offset });
    names.push(...page.map((object) => object.name));
    if (page.length < 1000) break;
  }
  for (const name of names) {
    const opened = await from.open(name);
    if (!opened) {
      record(name, "vanished");
      continue;
    }
    const contentType = opened.contentType;
    await opened.close();
    const bytes = await readBytes(from, name);
    if (!bytes) {
      record(name, "vanished");
      continue;
    }
    const expected = digest(bytes);
    let existing = await readBytes(to, name);
    if (existing === undefined) {
      try {
        await to.put(name, bytes, { contentType });
      } catch (error) {
        // Another run (or instance) wrote it meanwhile: compare what is there.
        if (!(error instanceof StorageError)) throw error;
      }
      existing = await readBytes(to, name);
      record(name, existing !== undefined && digest(existing) === expected ? "copied" : "different");
      continue;
    }
    record(name, digest(existing) === expected ? "alreadyThere" : "different");
  }
  return report;
}
