import { AdminError } from "~/auth/admins.server";
import { BackupError } from "~/backup/backup.server";
import { RestoreError } from "~/backup/restore.server";
import { type Booted, boot } from "~/boot.server";
import { DatabaseBackupError } from "~/platform/backup/database-backup.server";
import { EnvError, type Env, loadEnv } from "~/platform/config/env.server";
import { plainLog } from "~/platform/observe/log.server";
import { SiteFileError } from "~/website/transfer.server";
import { type CliIo, type CommandContext, UsageError } from "./admin-cli/command";
import { COMMANDS } from "./admin-cli/commands";

/**
 * `npm run admin -- <command>`: the site's work from the command line (the
 * accounts, images, the website's content, backups). There is no sign-up
 * page; `create` (or ADMIN_EMAIL + ADMIN_PASSWORD at start) is how the first
 * owner comes to exist. Each command is a file in admin-cli/ (commands.ts
 * lists them); this file reads the command line, gives the command the
 * settings and the site when it asks, and turns the errors a user can cause
 * into one message and exit code 1.
 */
export type { CliIo } from "./admin-cli/command";

const HELP = ["help", "--help", "-h"];

function usage(): string {
  const commands = Object.entries(COMMANDS).flatMap(([name, command]) => {
    const head = `${name} ${command.arguments}`.trimEnd();
    const [first, ...more] = command.summary.split("\n");
    const lines = head.length <= 20 ? [`  ${head.padEnd(22)}${first}`] : [`  ${head}`, `${" ".repeat(24)}${first}`];
    return [...lines, ...more.map((line) => `${" ".repeat(24)}${line}`)];
  });
  return `Usage: npm run admin -- <command>

Commands:
${commands.join("\n")}
  help                  Show this text.

The database and images are the ones the server uses: DATA_DIR (SQLite, images) or DATABASE_URL (PostgreSQL),
and the S3 bucket of S3_BUCKET when it is set.
Passwords: at least 12 characters. Never put one on the command line.`;
}

export async function runAdminCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  const say = (text: string) => io.stdout.write(`${text}\n`);
  const warn = (text: string) => io.stderr.write(`${text}\n`);

  if (name === undefined || HELP.includes(name)) {
    say(usage());
    return name === undefined ? 1 : 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    warn(`Unknown command "${name}".\n\n${usage()}`);
    return 1;
  }

  let env: Env | undefined;
  let booted: Booted | undefined;
  const settings = () => (env ??= loadEnv());
  const context: CommandContext = {
    args,
    io,
    say,
    warn,
    settings,
    // The CLI's log goes to stderr: stdout is for what a command answers.
    site: async () => (booted ??= await boot(settings(), { role: "cli", log: plainLog(warn) })),
  };
  try {
    return await command.run(context);
  } catch (error) {
    const message = messageOf(error);
    if (message === undefined) throw error;
    warn(message);
    return 1;
  } finally {
    await booted?.close();
  }
}

/** What the CLI says for an error its user can cause and put right; undefined for any other (a bug, a fault: it is thrown). */
function messageOf(error: unknown): string | undefined {
  if (
    error instanceof UsageError ||
    error instanceof EnvError ||
    error instanceof AdminError ||
    error instanceof SiteFileError ||
    error instanceof BackupError
  ) {
    return error.message;
  }
  if (error instanceof RestoreError) return [error.message, ...error.problems.map((problem) => `  - ${problem}`)].join("\n");
  if (error instanceof DatabaseBackupError) return `The backup failed, and nothing of it was kept: ${error.message}`;
  return undefined;
}
