import { cliActor } from "~/audit/actor";
import { auditWorkDone } from "~/audit/audit.server";
import { writeBackup } from "~/backup/backup.server";
import { type Command, count } from "./command";
import { backupServices, directoryArgument, megabytes, rowsLine } from "./backup-folder";

export const backup: Command = {
  arguments: "<dir>",
  summary: `Write a backup of the database's rows and the images to <dir> (new, or empty) while the
site runs, with a manifest of schema version, rows and checksums. Never overwrites one.
With BACKUP_KEY set, every file is encrypted and signed with it.`,
  async run({ args, say, warn, settings, site }) {
    const directory = directoryArgument("backup", args);
    const services = backupServices(settings(), await site());
    const { database, storage, key } = services;
    const { manifest, absent } = await writeBackup(services, directory);
    await auditWorkDone(database.db, { actor: cliActor("backup"), action: "backup-made" });
    say(`Backed up ${database.description} (schema ${manifest.schemaVersion}) and ${storage.description} to ${directory}:`);
    say(`  rows: ${rowsLine(manifest.database.counts)} (admin sessions are not kept: a restore ends them)`);
    say(`  images: ${count(manifest.images.count, "file")}, ${megabytes(manifest.images.bytes)}; rows: ${megabytes(manifest.database.bytes)}`);
    say(
      key
        ? `  encrypted and signed with BACKUP_KEY (key id ${key.id}): keep the key apart from the backups; without it nothing can be read.`
        : "  not encrypted: set BACKUP_KEY to encrypt and sign backups (docs/operations.md: Backup and restore).",
    );
    if (absent.length > 0)
      warn(
        `Note: ${count(absent.length, "image file")} the projects show ${absent.length === 1 ? "was" : "were"} not in the bucket before the backup either: ${absent.slice(0, 5).join(", ")}`,
      );
    say(`Check it any time with: npm run admin -- verify-backup ${directory}`);
    return 0;
  },
};
