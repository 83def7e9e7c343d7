import type { Booted } from "~/boot.server";
import type { Env } from "~/platform/config/env.server";

/**
 * One command of `npm run admin`: its name, the usage text it adds to the
 * help, and what it does. Each command is a file of its own in this folder;
 * commands.ts lists them.
 */
export type Command = {
  /** What follows the name on the command line, e.g. "<email>" (empty when nothing does). */
  arguments: string;
  /** What the help says it does: one line, or more for the lines below it. */
  summary: string;
  run(context: CommandContext): Promise<number>;
};

/**
 * What a command is given. The settings and the site are read and booted only
 * when the command asks for them: verify-backup needs neither, and a command
 * checks its arguments first, so a mistake costs no database connection.
 */
export type CommandContext = {
  args: string[];
  io: CliIo;
  /** A line for stdout: what the command answers. */
  say: Say;
  /** A line for stderr: warnings and the log. */
  warn: Say;
  /** The server's settings (an EnvError when they are wrong). */
  settings(): Env;
  /** The site on those settings, booted once; the CLI closes it when the command ends. */
  site(): Promise<Booted>;
};

export type Say = (text: string) => void;

export type CliIo = {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
};

/** A mistake in how the command was called: its message is all the CLI says. */
export class UsageError extends Error {}

export function expectArguments(args: string[], count: number): void {
  if (args.length > count) {
    throw new UsageError(
      args.length === 2 && count === 1
        ? "Passwords are not taken from the command line (shells keep it in their history). Type it at the prompt, or pipe it on stdin."
        : `Unexpected argument${args.length - count > 1 ? "s" : ""}: ${args.slice(count).join(" ")}`,
    );
  }
}

/** "1 file", "2 files". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
