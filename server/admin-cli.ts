import { readFile, stat, writeFile } from "node:fs/promises";
import { plainLog } from "~/platform/observe/log.server";
import { boot } from "~/boot.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { BackupError } from "~/backup/backup.server";
import { RestoreError } from "~/backup/restore.server";
import { DatabaseBackupError } from "~/platform/backup/database-backup.server";
import { sealingKey } from "~/platform/backup/sealed-files.server";
import { collectUnusedImages } from "~/images/images.server";
import { migrateImages } from "~/images/migrate.server";
import { openImageStorage } from "~/platform/config/services.server";
import { seedDemoProjects } from "~/projects/demo.server";
import { EnvError, loadBackupKey, loadEnv } from "~/platform/config/env.server";
import { backupCommand, restoreCommand, verifyBackupCommand } from "./admin-backup";
import { AdminError } from "~/auth/admins.server";
import { UsageError, expectArguments, runAccountCommand, type CliIo } from "./admin-cli-accounts";
import { auditWorkDone } from "~/audit/audit.server";
import { cliActor } from "~/audit/actor";
import { siteDefaults } from "~/website/content";
import { SiteFileError, readSiteFile, siteFile } from "~/website/transfer.server";
import { importContent, readDraft, readLive, withoutMissingFiles } from "~/website/website.server";

/**
 * `npm run admin -- <command>`: admin accounts from the command line. There
 * is no sign-up page; this (or ADMIN_EMAIL + ADMIN_PASSWORD at start) is how
 * an account comes to exist. Passwords are typed at a hidden prompt or piped
 * on stdin, never taken from the arguments, which shells keep in history.
 */
export type { CliIo } from "./admin-cli-accounts";

const USAGE = `Usage: npm run admin -- <command>

Commands:
  create <email>        Create an owner (the first, or a way back in). Asks for the password (or reads it from stdin).
  set-password <email>  Set a new password; signs the admin out everywhere and lifts a lockout.
  list                  List the team's members, with their roles and active sessions.
  delete <email>        Delete a member and end their sessions (never the last owner).
  unlock <email>        Lift a sign-in lockout without changing the password.
  remove-sign-in-factors <email>
                        For a member who lost their authenticator app, recovery codes and passkeys: removes them
                        and ends their sessions, so the password alone signs in (then set-password if need be).
  seed-demo             Add three example renovation projects with their photos (made here, no download).
  gc-images [--min-age=<hours>]
                        Remove uploaded images no project uses, older than 24 hours (or <hours>).
  migrate-images --to s3|disk
                        Copy every image from DATA_DIR/images to the S3 bucket (--to s3) or back (--to disk),
                        checking each copy byte for byte. Needs S3_BUCKET (and S3_ENDPOINT, keys… as needed).
                        Run it again: what is there already is compared, never overwritten.
  export-site <file>    Write the website's content (what is live, and the draft when it has unpublished
                        changes) to <file> as JSON, for another installation. Never overwrites a file.
  import-site <file> [--publish]
                        Read such a file into the draft (and publish it with --publish). The whole file is
                        checked first: a bad file changes nothing.
  backup <dir>          Write a backup of the database's rows and the images to <dir> (new, or empty) while the
                        site runs, with a manifest of schema version, rows and checksums. Never overwrites one.
                        With BACKUP_KEY set, every file is encrypted and signed with it.
  verify-backup <dir>   Check a backup: every file against its checksum (and BACKUP_KEY), every row against this
                        site's tables and columns, the schema version.
  restore <dir>         Replace this site's data with the backup's and add its images, into a stopped site. Checks
                        the whole backup first (a bad one changes nothing), builds the tables from this site's own
                        migrations and copies only their rows, ends every admin session and moves the public data
                        version on so no cache serves the pages from before.
  help                  Show this text.

The database and images are the ones the server uses: DATA_DIR (SQLite, images) or DATABASE_URL (PostgreSQL),
and the S3 bucket of S3_BUCKET when it is set.
Passwords: at least 12 characters. Never put one on the command line.`;

/** A site export is a few hundred KB at most (three policies of 30,000 characters are the most of it). */
const SITE_FILE_LIMIT = 2 * 1024 * 1024;

export async function runAdminCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...args] = argv;
  const say = (text: string) => io.stdout.write(`${text}\n`);
  const warn = (text: string) => io.stderr.write(`${text}\n`);

  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    say(USAGE);
    return command === undefined ? 1 : 0;
  }
  const known = [
    "create",
    "set-password",
    "list",
    "delete",
    "unlock",
    "remove-sign-in-factors",
    "seed-demo",
    "gc-images",
    "migrate-images",
    "export-site",
    "import-site",
    "backup",
    "verify-backup",
    "restore",
  ];
  if (!known.includes(command)) {
    warn(`Unknown command "${command}".\n\n${USAGE}`);
    return 1;
  }
  // A backup is checked on its own: no site, database or settings needed.
  if (command === "verify-backup") {
    try {
      const secret = loadBackupKey();
      return await verifyBackupCommand(directoryArgument(command, args), secret && sealingKey(secret), say, warn);
    } catch (error) {
      if (error instanceof UsageError || error instanceof EnvError) {
        warn(error.message);
        return 1;
      }
      throw error;
    }
  }

  let env;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      warn(error.message);
      return 1;
    }
    throw error;
  }
  let migrateTo: "s3" | "disk" | undefined;
  if (command === "migrate-images") {
    const [flag, where, ...rest] = args.length === 1 && args[0]!.startsWith("--to=") ? ["--to", args[0]!.slice(5)] : args;
    if (flag !== "--to" || (where !== "s3" && where !== "disk") || rest.length > 0) {
      warn("Expected --to s3 or --to disk, e.g. npm run admin -- migrate-images --to s3");
      return 1;
    }
    if (!env.s3) {
      warn(
        "Set S3_BUCKET (and S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE as needed) to the bucket to copy " +
          (where === "s3" ? "to." : "from."),
      );
      return 1;
    }
    migrateTo = where;
  }
  // The CLI's log goes to stderr: stdout is for what a command answers.
  const booted = await boot(env, { role: "cli", log: plainLog(warn) });
  try {
    const { db, storage } = booted.services;

    if (command === "seed-demo") {
      expectArguments(args, 0);
      const { created, skipped } = await seedDemoProjects({ db, storage, log: booted.services.log }, cliActor("seed-demo"));
      for (const title of created) say(`Added "${title}".`);
      for (const title of skipped) say(`"${title}" is already there; left as it is.`);
      say(created.length > 0 ? "Open / to see them in the gallery, and /admin to edit them." : "Nothing to add.");
      return 0;
    }
    if (command === "gc-images") {
      const minAgeHours = minAgeArgument(args);
      const report = await collectUnusedImages({ db, storage }, { minAgeMs: minAgeHours * 3_600_000 }, cliActor("gc-images"));
      say(
        `Removed ${report.removed.length} unused file${report.removed.length === 1 ? "" : "s"}; ` +
          `${report.inUse} in use; ${report.keptRecent} unused but younger than ${minAgeHours} hour${minAgeHours === 1 ? "" : "s"} kept.`,
      );
      return 0;
    }

    if (migrateTo) {
      const disk = openImageStorage(env, IMAGE_NAMING, "disk");
      const s3 = openImageStorage(env, IMAGE_NAMING, "s3");
      const [from, to] = migrateTo === "s3" ? [disk, s3] : [s3, disk];
      say(`Copying images from the ${from.description} to the ${to.description}.`);
      const report = await migrateImages(from, to, (name, outcome) => {
        if (outcome === "different") warn(`${name}: the target has other bytes under this name; left as it is.`);
      });
      await auditWorkDone(db, { actor: cliActor("migrate-images"), action: "files-copied", details: { count: report.copied.length } });
      const total = report.copied.length + report.alreadyThere.length;
      say(
        `Copied ${report.copied.length} file${report.copied.length === 1 ? "" : "s"}; ${report.alreadyThere.length} already there; ` +
          `all ${total} read back and identical.` +
          (report.vanished.length ? ` ${report.vanished.length} removed from the source meanwhile.` : ""),
      );
      if (report.different.length > 0) {
        warn(`${report.different.length} file${report.different.length === 1 ? "" : "s"} differ at the target (listed above): nothing was overwritten.`);
        return 1;
      }
      return 0;
    }

    if (command === "backup" || command === "restore") {
      const directory = directoryArgument(command, args);
      const services = { database: booted.database, storage, key: env.backupKey && sealingKey(env.backupKey) };
      return await (command === "backup" ? backupCommand(services, directory, say, warn) : restoreCommand(services, directory, say));
    }

    if (command === "export-site" || command === "import-site") {
      const publish = command === "import-site" && args.includes("--publish");
      const rest = args.filter((arg) => arg !== "--publish" || command !== "import-site");
      if (rest.length === 0) throw new UsageError(`Give the file, e.g. npm run admin -- ${command} site.json`);
      expectArguments(rest, 1);
      const file = rest[0]!;
      const defaults = siteDefaults(booted.services.company);
      if (command === "export-site") {
        const [live, draft] = await Promise.all([readLive(db, defaults), readDraft(db, defaults)]);
        try {
          // The server's user's alone, like a backup: it holds the draft as well as what is live.
          await writeFile(file, siteFile(live.content, draft.unpublished ? draft.content : undefined, new Date()), { flag: "wx", mode: 0o600 });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new UsageError(`${file} exists already; choose another name.`);
          throw error;
        }
        say(
          `Wrote the website's content to ${file}${live.version === undefined ? " (nothing published yet: the standard texts)" : ` (live: version ${live.version})`}${draft.unpublished ? ", with the unpublished draft" : ""}.`,
        );
        return 0;
      }
      let text: string;
      try {
        if ((await stat(file)).size > SITE_FILE_LIMIT) throw new UsageError(`${file} is larger than a site export can be (2 MB).`);
        text = await readFile(file, "utf8");
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`Could not read ${file}: ${(error as Error).message}`);
      }
      const read = readSiteFile(text, defaults);
      const { from, exportedAt } = read;
      const { content, cleared } = await withoutMissingFiles(db, read.content);
      if (cleared.length) say(`Not on this installation, so left out (upload again in the Website tab): ${cleared.join(", ")}.`);
      const { version } = await importContent(db, { content, defaults, publish, by: "import", actor: cliActor("import-site"), now: new Date() });
      say(
        `Imported the ${from === "draft" ? "draft" : "live content"} exported ${exportedAt} into the draft.` +
          (publish ? ` Published: version ${version} is live.` : " Preview it in the Website tab, then publish it there (or run again with --publish)."),
      );
      return 0;
    }

    return await runAccountCommand(command, args, { io, db, say });
  } catch (error) {
    if (error instanceof UsageError || error instanceof AdminError || error instanceof SiteFileError) {
      warn(error.message);
      return 1;
    }
    if (error instanceof RestoreError) {
      warn([error.message, ...error.problems.map((problem) => `  - ${problem}`)].join("\n"));
      return 1;
    }
    if (error instanceof BackupError) {
      warn(error.message);
      return 1;
    }
    if (error instanceof DatabaseBackupError) {
      warn(`The backup failed, and nothing of it was kept: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await booted.close();
  }
}

function directoryArgument(command: string, args: string[]): string {
  if (args.length !== 1) throw new UsageError(`Give one folder, the backup's, e.g. npm run admin -- ${command} backups/2026-11-25`);
  return args[0]!;
}

/** `--min-age=<hours>` (a whole number, 0 or more), 24 when absent. */
function minAgeArgument(args: string[]): number {
  expectArguments(args, 1);
  if (args.length === 0) return 24;
  const match = /^--min-age=(\d{1,6})$/.exec(args[0]!);
  if (!match) throw new UsageError(`Expected --min-age=<hours> (a whole number), got "${args[0]}".`);
  return Number(match[1]);
}
