import { auditWorkDone } from "~/audit/audit.server";
import { cliActor } from "~/audit/actor";
import { writeBackup, type BackupServices } from "~/backup/backup.server";
import { restoreBackup, type RestoreServices } from "~/backup/restore.server";
import { verifyBackup } from "~/backup/verify.server";
import type { SealingKey } from "~/platform/backup/sealed-files.server";

/**
 * What `npm run admin -- backup | verify-backup | restore` say (admin-cli.ts
 * reads the arguments and the settings, and turns errors into messages):
 * what was written, checked or restored, and whether BACKUP_KEY sealed it
 * (decisions 033 and 040).
 */
type Say = (text: string) => void;

export async function backupCommand(services: BackupServices, directory: string, say: Say, warn: Say): Promise<number> {
  const { database, storage, key } = services;
  const { manifest, absent } = await writeBackup(services, directory);
  await auditWorkDone(database.db, { actor: cliActor("backup"), action: "backup-made" });
  say(`Backed up ${database.description} (schema ${manifest.schemaVersion}) and ${storage.description} to ${directory}:`);
  say(`  rows: ${rowsLine(manifest.database.counts)} (admin sessions are not kept: a restore ends them)`);
  say(
    `  images: ${manifest.images.count} file${manifest.images.count === 1 ? "" : "s"}, ${megabytes(manifest.images.bytes)}; rows: ${megabytes(manifest.database.bytes)}`,
  );
  say(
    key
      ? `  encrypted and signed with BACKUP_KEY (key id ${key.id}): keep the key apart from the backups; without it nothing can be read.`
      : "  not encrypted: set BACKUP_KEY to encrypt and sign backups (docs/operations.md: Backup and restore).",
  );
  if (absent.length > 0)
    warn(
      `Note: ${absent.length} image file${absent.length === 1 ? "" : "s"} the projects show ${absent.length === 1 ? "was" : "were"} not in the bucket before the backup either: ${absent.slice(0, 5).join(", ")}`,
    );
  say(`Check it any time with: npm run admin -- verify-backup ${directory}`);
  return 0;
}

export async function restoreCommand(services: RestoreServices, directory: string, say: Say): Promise<number> {
  const report = await restoreBackup(services, directory);
  // Into the restored log: the entries after the backup was made are gone with the rest of that data.
  await auditWorkDone(services.database.db, { actor: cliActor("restore"), action: "backup-restored" });
  const { manifest } = report;
  say(
    `Restored the backup made ${manifest.createdAt} (schema ${manifest.schemaVersion}) into ${services.database.description} and ${services.storage.description}:`,
  );
  say(`  rows: ${rowsLine(report.counts)}`);
  say(`  images: ${report.images.added} copied into the bucket, ${report.images.alreadyThere} already there`);
  say(`  admin sessions: ended ${report.endedSessions}; every admin signs in again`);
  say(`  public data version: ${report.dataVersion.before} → ${report.dataVersion.after}, so no cache serves the pages from before`);
  if (report.migrated.length > 0) say(`  migrated to this code's schema: ${report.migrated.join(", ")}`);
  say("Start the site again.");
  return 0;
}

export async function verifyBackupCommand(directory: string, key: SealingKey | undefined, say: Say, warn: Say): Promise<number> {
  const { manifest, problems } = await verifyBackup(directory, key);
  if (!manifest || problems.length > 0) {
    warn([`${directory} is not a backup this site can restore:`, ...problems.map((problem) => `  - ${problem}`)].join("\n"));
    return 1;
  }
  say(
    `${directory} is a sound backup made ${manifest.createdAt} of a ${manifest.database.dialect === "sqlite" ? "SQLite" : "PostgreSQL"} site ` +
      `(schema ${manifest.schemaVersion}): its rows are this site's tables and columns, and they and ${manifest.images.count} image file${manifest.images.count === 1 ? "" : "s"} match their checksums.`,
  );
  say(`  rows: ${rowsLine(manifest.database.counts)}`);
  say(
    manifest.sealed
      ? `  sealed with BACKUP_KEY (key id ${key!.id}): every byte is as the key's holder wrote it.`
      : "  not sealed: anyone who could write where it is kept could have changed it (set BACKUP_KEY to seal backups).",
  );
  return 0;
}

/** "renovation_projects 3, contact_submissions 12, …" */
function rowsLine(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([table, rows]) => `${table} ${rows}`)
    .join(", ");
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}
