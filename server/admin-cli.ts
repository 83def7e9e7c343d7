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
import { AdminError, createAdmin, deleteAdmin, liftLockout, listAdmins, normalizeEmail, setAdminPassword } from "~/auth/admins.server";
import { passwordProblem } from "~/platform/password-rules";
import { isValidEmail } from "~/platform/email-address";
import { siteDefaults } from "~/website/content";
import { SiteFileError, readSiteFile, siteFile } from "~/website/transfer.server";
import { importContent, readDraft, readLive, withoutMissingFiles } from "~/website/website.server";

/**
 * `npm run admin -- <command>`: admin accounts from the command line. There
 * is no sign-up page; this (or ADMIN_EMAIL + ADMIN_PASSWORD at start) is how
 * an account comes to exist. Passwords are typed at a hidden prompt or piped
 * on stdin, never taken from the arguments, which shells keep in history.
 */
export type CliIo = {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
};

const USAGE = `Usage: npm run admin -- <command>

Commands:
  create <email>        Create an admin. Asks for the password (or reads it from stdin).
  set-password <email>  Set a new password; signs the admin out everywhere and lifts a lockout.
  list                  List the admins, with their active sessions.
  delete <email>        Delete an admin and end their sessions.
  unlock <email>        Lift a sign-in lockout without changing the password.
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

class UsageError extends Error {}

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
      const { created, skipped } = await seedDemoProjects({ db, storage, log: booted.services.log });
      for (const title of created) say(`Added "${title}".`);
      for (const title of skipped) say(`"${title}" is already there; left as it is.`);
      say(created.length > 0 ? "Open / to see them in the gallery, and /admin to edit them." : "Nothing to add.");
      return 0;
    }
    if (command === "gc-images") {
      const minAgeHours = minAgeArgument(args);
      const report = await collectUnusedImages({ db, storage }, { minAgeMs: minAgeHours * 3_600_000 });
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
      const { version } = await importContent(db, { content, defaults, publish, by: "import", now: new Date() });
      say(
        `Imported the ${from === "draft" ? "draft" : "live content"} exported ${exportedAt} into the draft.` +
          (publish ? ` Published: version ${version} is live.` : " Preview it in the Website tab, then publish it there (or run again with --publish)."),
      );
      return 0;
    }

    if (command === "list") {
      expectArguments(args, 0);
      const admins = await listAdmins(db);
      if (admins.length === 0) {
        say("No admin accounts yet. Create one with: npm run admin -- create <email>");
        return 0;
      }
      const when = (iso: string | null) =>
        iso === null ? "-" : new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "Europe/London" }).format(new Date(iso));
      const rows = [
        ["EMAIL", "CREATED", "ACTIVE SESSIONS", "LAST SEEN"],
        ...admins.map((admin) => [admin.email, when(admin.createdAt), String(admin.activeSessions), when(admin.lastSeenAt)]),
      ];
      const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
      for (const row of rows)
        say(
          row
            .map((cell, column) => cell.padEnd(widths[column]!))
            .join("  ")
            .trimEnd(),
        );
      return 0;
    }

    const email = emailArgument(args);
    if (command === "delete") {
      await deleteAdmin(db, email);
      say(`Deleted the admin ${email} and ended their sessions.`);
      return 0;
    }
    if (command === "unlock") {
      await liftLockout(db, email);
      say(`Lifted any sign-in lockout of ${email}.`);
      return 0;
    }
    const password = await readNewPassword(io, command === "create");
    if (command === "create") {
      await createAdmin(db, email, password);
      say(`Created the admin ${email}. Sign in at /admin.`);
    } else {
      const { endedSessions } = await setAdminPassword(db, email, password);
      say(`Set a new password for ${email}; ended ${endedSessions} session${endedSessions === 1 ? "" : "s"}.`);
    }
    return 0;
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

function expectArguments(args: string[], count: number): void {
  if (args.length > count) {
    throw new UsageError(
      args.length === 2 && count === 1
        ? "Passwords are not taken from the command line (shells keep it in their history). Type it at the prompt, or pipe it on stdin."
        : `Unexpected argument${args.length - count > 1 ? "s" : ""}: ${args.slice(count).join(" ")}`,
    );
  }
}

/** `--min-age=<hours>` (a whole number, 0 or more), 24 when absent. */
function minAgeArgument(args: string[]): number {
  expectArguments(args, 1);
  if (args.length === 0) return 24;
  const match = /^--min-age=(\d{1,6})$/.exec(args[0]!);
  if (!match) throw new UsageError(`Expected --min-age=<hours> (a whole number), got "${args[0]}".`);
  return Number(match[1]);
}

function emailArgument(args: string[]): string {
  if (args.length === 0) throw new UsageError("Give the admin's e-mail address, e.g. npm run admin -- create you@example.com");
  expectArguments(args, 1);
  const email = normalizeEmail(args[0]!);
  if (!isValidEmail(email)) throw new UsageError(`"${args[0]}" is not an e-mail address.`);
  return email;
}

/** From a terminal: asked twice, hidden. From a pipe: the first line of stdin. */
async function readNewPassword(io: CliIo, isNew: boolean): Promise<string> {
  const assertUsable = (password: string) => {
    const problem = passwordProblem(password);
    if (problem) throw new UsageError(`The password ${problem}.`);
  };
  if (!io.stdin.isTTY) {
    const password = (await readAll(io.stdin)).split(/\r?\n/)[0] ?? "";
    if (password === "") throw new UsageError("No password on stdin. Pipe one line, e.g. from your password manager's CLI.");
    assertUsable(password);
    return password;
  }
  const password = await promptHidden(io, isNew ? "Password for the new admin: " : "New password: ");
  // Said before the repeat, so nobody types a weak password twice.
  assertUsable(password);
  if ((await promptHidden(io, "Repeat the password: ")) !== password) throw new UsageError("The passwords do not match.");
  return password;
}

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  let text = "";
  stream.setEncoding("utf8");
  for await (const chunk of stream) text += chunk as string;
  return text;
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(io: CliIo, question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { stdin } = io;
    io.stderr.write(question);
    let value = "";
    stdin.setRawMode(true);
    stdin.setEncoding("utf8");
    stdin.resume();
    const done = (result: () => void) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off("data", onData);
      io.stderr.write("\n");
      result();
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === "\r" || character === "\n") return done(() => resolve(value));
        if (character === "\u0003") return done(() => reject(new UsageError("Cancelled.")));
        if (character === "\u007f" || character === "\b") value = [...value].slice(0, -1).join("");
        else if (character >= " ") value += character;
      }
    };
    stdin.on("data", onData);
  });
}
