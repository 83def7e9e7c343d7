import type { Booted } from "~/boot.server";
import { sealingKey } from "~/platform/backup/sealed-files.server";
import type { Env } from "~/platform/config/env.server";
import { UsageError } from "./command";

/**
 * What backup, verify-backup and restore share (decisions 033 and 040): the
 * backup's folder from the arguments, the site and BACKUP_KEY they work with,
 * and how they list a backup's rows.
 */
export function directoryArgument(command: string, args: string[]): string {
  if (args.length !== 1) throw new UsageError(`Give one folder, the backup's, e.g. npm run admin -- ${command} backups/2026-11-25`);
  return args[0]!;
}

export function backupServices(env: Env, booted: Booted) {
  return { database: booted.database, storage: booted.services.storage, key: env.backupKey && sealingKey(env.backupKey) };
}

/** "renovation_projects 3, contact_submissions 12, …" */
export function rowsLine(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([table, rows]) => `${table} ${rows}`)
    .join(", ");
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}
