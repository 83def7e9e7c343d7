import { cliActor } from "~/audit/actor";
import { auditWorkDone } from "~/audit/audit.server";
import { restoreBackup } from "~/backup/restore.server";
import type { Command } from "./command";
import { backupServices, directoryArgument, rowsLine } from "./backup-folder";

export const restore: Command = {
  arguments: "<dir>",
  summary: `Replace this site's data with the backup's and add its images, into a stopped site. Checks
the whole backup first (a bad one changes nothing), builds the tables from this site's own
migrations and copies only their rows, ends every admin session and moves the public data
version on so no cache serves the pages from before.`,
  async run({ args, say, settings, site }) {
    const directory = directoryArgument("restore", args);
    const services = backupServices(settings(), await site());
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
  },
};
