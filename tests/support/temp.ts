import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

/** A new empty directory under the system's temp dir; remove it with removeTempDir. */
export function makeTempDir(label: string): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), `pm-test-${label}-`));
}

export function removeTempDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
