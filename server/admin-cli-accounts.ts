import { cliActor } from "~/audit/actor";
import { ROLE_LABELS } from "~/auth/roles";
import { createAdmin, deleteAdmin, liftLockout, listAdmins, normalizeEmail, setAdminPassword } from "~/auth/admins.server";
import { removeSignInFactors } from "~/auth/lost-factors.server";
import type { Db } from "~/platform/db/db.server";
import { isValidEmail } from "~/platform/email-address";
import { passwordProblem } from "~/platform/password-rules";

/**
 * The account commands of `npm run admin` (list, create, set-password,
 * delete, unlock, remove-sign-in-factors): how the first owner is made and how an owner who lost
 * every way in gets back. The accounts it creates are owners; each change is
 * in the audit log, as made by the command.
 */
export class UsageError extends Error {}

export type CliIo = {
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
};

export const ACCOUNT_COMMANDS = ["create", "set-password", "list", "delete", "unlock", "remove-sign-in-factors"] as const;

export async function runAccountCommand(command: string, args: string[], { io, db, say }: { io: CliIo; db: Db; say: (text: string) => void }): Promise<number> {
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
      ["EMAIL", "ROLE", "CREATED", "ACTIVE SESSIONS", "LAST SEEN"],
      ...admins.map((admin) => [admin.email, ROLE_LABELS[admin.role], when(admin.createdAt), String(admin.activeSessions), when(admin.lastSeenAt)]),
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
    await deleteAdmin(db, email, cliActor("delete"));
    say(`Deleted the admin ${email} and ended their sessions.`);
    return 0;
  }
  if (command === "unlock") {
    await liftLockout(db, email, cliActor("unlock"));
    say(`Lifted any sign-in lockout of ${email}.`);
    return 0;
  }
  if (command === "remove-sign-in-factors") {
    const removed = await removeSignInFactors(db, email, cliActor("remove-sign-in-factors"));
    const plural = (count: number, what: string) => `${count} ${what}${count === 1 ? "" : "s"}`;
    say(
      `Removed ${removed.totp ? "two-step sign-in, " : ""}${plural(removed.recoveryCodes, "unused recovery code")} and ${plural(removed.passkeys, "passkey")} ` +
        `of ${removed.email}; ended ${plural(removed.endedSessions, "session")}. They sign in with their password alone now (set-password sets a new one).`,
    );
    return 0;
  }
  const password = await readNewPassword(io, command === "create");
  if (command === "create") {
    await createAdmin(db, email, password, cliActor("create"));
    say(`Created the owner ${email}. Sign in at /admin.`);
  } else {
    const { endedSessions } = await setAdminPassword(db, email, password, cliActor("set-password"));
    say(`Set a new password for ${email}; ended ${endedSessions} session${endedSessions === 1 ? "" : "s"}.`);
  }
  return 0;
}

export function expectArguments(args: string[], count: number): void {
  if (args.length > count) {
    throw new UsageError(
      args.length === 2 && count === 1
        ? "Passwords are not taken from the command line (shells keep it in their history). Type it at the prompt, or pipe it on stdin."
        : `Unexpected argument${args.length - count > 1 ? "s" : ""}: ${args.slice(count).join(" ")}`,
    );
  }
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
