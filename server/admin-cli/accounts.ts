import { normalizeEmail } from "~/auth/admins.server";
import { isValidEmail } from "~/platform/email-address";
import { passwordProblem } from "~/platform/password-rules";
import { type CliIo, UsageError, expectArguments } from "./command";

/**
 * What the account commands (create, set-password, delete, unlock) share:
 * the member's address from the arguments, and a new password from a hidden
 * prompt or stdin, never from the arguments, which shells keep in history.
 */
export function emailArgument(args: string[]): string {
  if (args.length === 0) throw new UsageError("Give the admin's e-mail address, e.g. npm run admin -- create you@example.com");
  expectArguments(args, 1);
  const email = normalizeEmail(args[0]!);
  if (!isValidEmail(email)) throw new UsageError(`"${args[0]}" is not an e-mail address.`);
  return email;
}

/** From a terminal: asked twice, hidden. From a pipe: the first line of stdin. */
export async function readNewPassword(io: CliIo, isNew: boolean): Promise<string> {
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
