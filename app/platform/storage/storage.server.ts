import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";

/**
 * Where uploaded images live: the `images` bucket (SPEC §3, §7). Today a
 * folder under DATA_DIR; an S3-compatible store will implement the same
 * interface. Every method takes a bare object name and refuses anything that
 * is not a name the bucket hands out (the images module says which: see
 * ObjectNaming), so no path from a request can reach the filesystem.
 */
export interface ImageStorage {
  /** For logs. */
  readonly description: string;
  /** Stores a new object. Never overwrites: a name that exists is an error. */
  put(name: string, data: Uint8Array, options: { contentType: string }): Promise<void>;
  /** Removes an object; false when there was none. */
  delete(name: string): Promise<boolean>;
  /** The public URL of an object. */
  url(name: string): string;
  /** Objects by name (SPEC §9: limit 100, offset 0, sorted by name ascending). */
  list(options?: ListOptions): Promise<StoredObject[]>;
  /** An object's bytes to serve, or undefined when there is none (local storage; S3 serves its own). */
  open(name: string): Promise<OpenedObject | undefined>;
  /**
   * An object's whole bytes, or undefined when there is none: for copying
   * the bucket (a backup, a restore), never for serving. Images are under
   * 10 MB, so one buffer is fine.
   */
  read(name: string): Promise<Uint8Array | undefined>;
}

export type ListOptions = {
  limit?: number;
  offset?: number;
  sortBy?: { column: "name"; order: "asc" | "desc" };
};

export type StoredObject = { name: string; size: number; modifiedAt: Date };

export type OpenedObject = {
  size: number;
  contentType: string;
  modifiedAt: Date;
  stream(): Readable;
  close(): Promise<void>;
};

export class StorageError extends Error {
  override name = "StorageError";
}

export const LIST_DEFAULTS = { limit: 100, offset: 0, sortBy: { column: "name", order: "asc" } } as const;

/** What the bucket's owner (app/images) says of its names: which are valid, the type of each, where it is served. */
export type ObjectNaming = {
  isValidName(name: string): boolean;
  contentTypeOf(name: string): string;
  urlOf(name: string): string;
};

/** The bucket as a folder. Writes are atomic (a temporary file, flushed, then linked in place). */
export class LocalDiskStorage implements ImageStorage {
  readonly description: string;

  constructor(
    readonly directory: string,
    private readonly naming: ObjectNaming,
  ) {
    this.description = `local disk at ${directory}`;
  }

  private pathOf(name: string): string {
    if (!this.naming.isValidName(name)) throw new StorageError(`Not an image name: ${JSON.stringify(name)}`);
    return path.join(this.directory, name);
  }

  async put(name: string, data: Uint8Array, _options: { contentType: string }): Promise<void> {
    const target = this.pathOf(name);
    // The server's user only: uploads are the company's until a project shows them (decision 021).
    await fs.mkdir(this.directory, { recursive: true, mode: 0o700 });
    // A name no listing or request accepts, so a half-written file is never served.
    const temporary = path.join(this.directory, `.upload-${randomBytes(8).toString("hex")}`);
    const handle = await fs.open(temporary, "wx", 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      // link() fails when the target exists, where rename() would replace it.
      await fs.link(temporary, target);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new StorageError(`An image named ${name} already exists`);
      throw error;
    } finally {
      await fs.rm(temporary, { force: true });
    }
  }

  async delete(name: string): Promise<boolean> {
    try {
      await fs.unlink(this.pathOf(name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  url(name: string): string {
    this.pathOf(name);
    return this.naming.urlOf(name);
  }

  async list(options: ListOptions = {}): Promise<StoredObject[]> {
    const limit = options.limit ?? LIST_DEFAULTS.limit;
    const offset = options.offset ?? LIST_DEFAULTS.offset;
    const order = options.sortBy?.order ?? LIST_DEFAULTS.sortBy.order;
    let names: string[];
    try {
      names = (await fs.readdir(this.directory)).filter((name) => this.naming.isValidName(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    names.sort();
    if (order === "desc") names.reverse();
    const page = names.slice(offset, offset + limit);
    const objects: StoredObject[] = [];
    for (const name of page) {
      let stats: Stats;
      try {
        stats = await fs.lstat(path.join(this.directory, name));
      } catch {
        continue; // removed meanwhile
      }
      if (stats.isFile()) objects.push({ name, size: stats.size, modifiedAt: stats.mtime });
    }
    return objects;
  }

  async read(name: string): Promise<Uint8Array | undefined> {
    const file = await this.openFile(name);
    if (!file) return undefined;
    try {
      return await file.handle.readFile();
    } finally {
      await file.handle.close();
    }
  }

  async open(name: string): Promise<OpenedObject | undefined> {
    const file = await this.openFile(name);
    if (!file) return undefined;
    const { handle, stats } = file;
    return {
      size: stats.size,
      contentType: this.naming.contentTypeOf(name),
      modifiedAt: stats.mtime,
      stream: () => handle.createReadStream({ autoClose: true }),
      close: () => handle.close(),
    };
  }

  /** A regular file of the folder, open for reading; undefined for a name that is not one. */
  private async openFile(name: string): Promise<{ handle: fs.FileHandle; stats: Stats } | undefined> {
    if (!this.naming.isValidName(name)) return undefined;
    let handle: fs.FileHandle;
    try {
      // O_NOFOLLOW: a symlink placed in the folder is not followed out of it.
      handle = await fs.open(this.pathOf(name), constants.O_RDONLY | constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ELOOP" || code === "ENOTDIR") return undefined;
      throw error;
    }
    let stats: Stats;
    try {
      stats = await handle.stat();
    } catch (error) {
      await handle.close();
      throw error;
    }
    if (!stats.isFile()) {
      await handle.close();
      return undefined;
    }
    return { handle, stats };
  }
}
