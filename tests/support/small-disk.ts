import { execFile } from "node:child_process";
import { open, rm } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { makeTempDir, removeTempDir } from "./temp";

const run = promisify(execFile);

/**
 * A filesystem of a few megabytes of its own (tmpfs), which a test fills up
 * as a real disk fills up: the server gets ENOSPC from the kernel and SQLite
 * reports SQLITE_FULL. Mounting needs root (CI runs as root on Debian) and a
 * container allowed to mount; `mountSmallDisk` says undefined where it cannot.
 */
export type SmallDisk = {
  dir: string;
  /** Writes a file until the disk has no room left. */
  fill(): Promise<void>;
  /** Deletes that file. */
  free(): Promise<void>;
  /** Unmounts the filesystem and deletes its mount point. */
  remove(): Promise<void>;
};

const FILLER = ".filler";

export async function mountSmallDisk(sizeMb: number): Promise<SmallDisk | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const dir = await makeTempDir("small-disk");
  try {
    await run("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m,mode=0700`, "tmpfs", dir]);
  } catch {
    await removeTempDir(dir);
    return undefined;
  }
  const filler = path.join(dir, FILLER);
  return {
    dir,
    async fill() {
      const file = await open(filler, "a");
      const block = Buffer.alloc(64 * 1024);
      try {
        for (;;) await file.write(block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
        // The last partial block: what is left is smaller than 64 KB.
        for (let size = 32 * 1024; size >= 512; size /= 2) await file.write(block.subarray(0, size)).catch(() => undefined);
      } finally {
        await file.close();
      }
    },
    free: () => rm(filler, { force: true }),
    async remove() {
      await run("umount", [dir]).catch(() => run("umount", ["-l", dir]));
      await removeTempDir(dir);
    },
  };
}

/** Whether this machine lets a test mount a small disk (root, and a container that may mount). */
export async function canMountSmallDisk(): Promise<boolean> {
  const disk = await mountSmallDisk(1);
  await disk?.remove();
  return disk !== undefined;
}
