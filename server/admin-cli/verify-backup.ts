import { verifyBackup } from "~/backup/verify.server";
import { sealingKey } from "~/platform/backup/sealed-files.server";
import { loadBackupKey } from "~/platform/config/env.server";
import { type Command, count } from "./command";
import { directoryArgument, rowsLine } from "./backup-folder";

/** A backup is checked on its own: no site, database or other settings needed, only BACKUP_KEY. */
export const verifyBackupCommand: Command = {
  arguments: "<dir>",
  summary: `Check a backup: every file against its checksum (and BACKUP_KEY), every row against this
site's tables and columns, the schema version.`,
  async run({ args, say, warn }) {
    const directory = directoryArgument("verify-backup", args);
    const secret = loadBackupKey();
    const key = secret && sealingKey(secret);
    const { manifest, problems } = await verifyBackup(directory, key);
    if (!manifest || problems.length > 0) {
      warn([`${directory} is not a backup this site can restore:`, ...problems.map((problem) => `  - ${problem}`)].join("\n"));
      return 1;
    }
    say(
      `${directory} is a sound backup made ${manifest.createdAt} of a ${manifest.database.dialect === "sqlite" ? "SQLite" : "PostgreSQL"} site ` +
        `(schema ${manifest.schemaVersion}): its rows are this site's tables and columns, and they and ${count(manifest.images.count, "image file")} match their checksums.`,
    );
    say(`  rows: ${rowsLine(manifest.database.counts)}`);
    say(
      manifest.sealed
        ? `  sealed with BACKUP_KEY (key id ${key!.id}): every byte is as the key's holder wrote it.`
        : "  not sealed: anyone who could write where it is kept could have changed it (set BACKUP_KEY to seal backups).",
    );
    return 0;
  },
};
