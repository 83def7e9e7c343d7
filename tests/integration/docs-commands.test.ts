/**
 * Every command the docs show (the fenced `sh` blocks, and inline code that starts with
 * `npm `, of README.md and docs/*.md; the decision records are history, kept as written)
 * is run here, run by CI or by another test, or checked by name here, so none goes stale
 * unnoticed:
 *
 * - Run here, as written, each on a fresh SQLite site of its own (what they do on
 *   PostgreSQL and S3 is admin-cli.test.ts's, backup.test.ts's and images-s3.test.ts's):
 *   `npm run admin -- help | create | list | set-password | unlock | remove-sign-in-factors | delete | gc-images |
 *   export-site | import-site | backup | verify-backup | restore` from the `sh` blocks. A
 *   password goes in on stdin; a file or folder argument is taken inside an empty temporary
 *   folder, as if run there; what the command reads first (an admin, a backup, a site file)
 *   the test makes with the command that makes it. Each must exit 0.
 * - Run by CI (`.ci/run`, checked to call `npm ci` and `npm test`): `npm ci`, `npm test` and
 *   every script `npm test` runs (found by reading package.json: typecheck, build, test:unit,
 *   test:e2e, test:lighthouse, …), `.ci/run` itself, and the start and stop of
 *   scripts/test-postgres.sh and scripts/test-s3.sh.
 * - Run by other tests: `npm start` (stop-signals.test.ts and rolling-restart.test.ts start it).
 * - Checked by name only: the other scripts (NOT_RUN below, each with why); the admin commands
 *   in NOT_RUN_ADMIN and every admin command named in inline code; openssl and apt-get; the
 *   shell's own `set`, `.`, `eval` and `export`.
 *   "By name" means: the script is in package.json, each `--option` given to it appears in the
 *   file it runs or the files that file imports, each path given exists; the admin command is
 *   one `npm run admin -- help` lists (a `<placeholder>` is not checked); a script's
 *   subcommand is one of its `case` arms. A command of any other kind fails
 *   the test until it is put in one of these classes.
 *
 * And around the commands: every variable a command sets or reads is a setting of
 * env.server.ts or one our scripts, tests or configs read; every setting is in
 * docs/configuration.md's tables and in .env.example and nothing else is; every admin command
 * is in docs/operations.md and every npm script in docs/development.md; every repository path
 * in inline code and every local link (with its #anchor) exists.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTING_NAMES } from "~/platform/config/settings.server";
import { runAdmin, type AdminRun } from "../support/admin-cli";
import {
  adminCommandsIn,
  anchorsOf,
  codeSpans,
  documentFiles,
  localLinks,
  parseShellLine,
  repoText,
  shellLines,
  type ShownLine,
  type SimpleCommand,
} from "../support/doc-commands";
import { assertBuilt, repoRoot } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";

const packageJson = JSON.parse(repoText("package.json")) as { scripts: Record<string, string> };
const scripts = packageJson.scripts;

/** Scripts the docs show that neither CI nor a test runs, and why. */
const NOT_RUN: Record<string, string> = {
  dev: "a development server that runs until stopped",
  lighthouse: "npm test runs the same file as test:lighthouse",
  lantern: "reads the trace a Lighthouse run kept (npm run lighthouse -- --save-assets); a measurement, not a test",
  bench: "minutes of load on the machine; a measurement, not a test",
  "bench:images": "needs an S3 server and minutes of load",
  format: "rewrites files; npm run lint, which npm test runs, checks the same formatting",
};
/** Scripts run by another test. */
const RUN_BY_TESTS: Record<string, string> = { start: "stop-signals.test.ts, rolling-restart.test.ts", "seed:enquiries": "seed-enquiries.test.ts" };
/** Admin commands the docs show that are checked by name only, and why. */
const NOT_RUN_ADMIN: Record<string, string> = {
  "migrate-images": "needs a second storage, an S3 bucket (images-s3.test.ts runs it there)",
  "seed-demo": "half a minute of image encoding; demo.test.ts, backup.test.ts and test:lighthouse run it",
};
/** Programs that are not ours, and the shell's own words. */
const OTHER_PROGRAMS = new Set(["openssl", "apt-get", "set", ".", "eval", "export"]);
/** Variables named in the docs that neither we nor our scripts read, and whose they are. */
const OTHERS_VARIABLES: Record<string, string> = {
  NODE_EXTRA_CA_CERTS: "Node's own",
  NODE_COMPILE_CACHE: "Node's own",
  "AWS_*": "the AWS SDK's",
};

const PASSWORD = "a long documented password";
const ADMIN = "docs-admin@example.com";

/** The admin commands run here: which argument is a file or folder, and what must exist before. */
/** "owners": the member named and another owner, since the last owner is never deleted. */
type Before = "admin" | "owners" | "backup" | "site file";
const RUN_ADMIN: Record<string, { pathArgument?: boolean; before?: Before; stdin?: string }> = {
  help: {},
  create: { stdin: `${PASSWORD}\n` },
  list: { before: "admin" },
  "set-password": { before: "admin", stdin: `${PASSWORD}\n` },
  unlock: { before: "admin" },
  "remove-sign-in-factors": { before: "admin" },
  delete: { before: "owners" },
  "gc-images": {},
  "export-site": { pathArgument: true },
  "import-site": { pathArgument: true, before: "site file" },
  backup: { pathArgument: true },
  "verify-backup": { pathArgument: true, before: "backup" },
  restore: { pathArgument: true, before: "backup" },
};

const documents = documentFiles().map((file) => ({ file, text: repoText(file) }));
const shown = documents.flatMap(({ file, text }) => shellLines(file, text));
const inlineCommands = documents.flatMap(({ file, text }) => codeSpans(file, text)).filter((span) => /^npm /.test(span.text));
const operations = repoText("docs/operations.md");
const where = (line: ShownLine) => `${line.file}:${line.line}: ${line.text}`;

/** `npm run admin -- <command> …` lines of the sh blocks, once each. */
const adminLines = [
  ...new Map(
    shown.flatMap((line) =>
      parseShellLine(line.text)
        .commands.map((command) => adminArguments(command.words))
        .filter((args): args is string[] => args !== undefined)
        .map((args) => [args.join(" "), { ...line, args }] as const),
    ),
  ).values(),
];

function adminArguments(words: string[]): string[] | undefined {
  return words[0] === "npm" && words[1] === "run" && words[2] === "admin" && words[3] === "--" ? words.slice(4) : undefined;
}

/** The scripts `npm test` runs, following `npm run x` inside scripts. */
function scriptsRunBy(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name) || scripts[name] === undefined) return seen;
  seen.add(name);
  for (const match of scripts[name].matchAll(/\bnpm run ([\w:-]+)/g)) scriptsRunBy(match[1]!, seen);
  return seen;
}
const runByCi = scriptsRunBy("test");

/** Text of our own code, scripts, tests and configuration, where a variable the docs name must be read. */
const ourCode = (() => {
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(repoRoot, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (/\.(ts|tsx|js|sh)$/.test(entry.name)) texts.push(repoText(relative));
    }
  };
  for (const dir of ["app", "server", "scripts", "tests", "bench"]) walk(dir);
  for (const file of [".ci/run", "package.json", "server.js", "playwright.config.ts", "vitest.config.ts", "vite.config.ts"]) texts.push(repoText(file));
  return texts.join("\n");
})();

let adminCommands: string[] = [];

beforeAll(async () => {
  assertBuilt();
  const help = await runAdmin({}, ["help"]);
  adminCommands = adminCommandsIn(help.stdout);
  expect(adminCommands, help.stdout + help.stderr).toContain("create");
});

describe("the commands the docs show", () => {
  it("finds commands to check in the README and in docs/", () => {
    expect(shown.map((line) => line.text)).toEqual(expect.arrayContaining(["npm ci && npm run build && npm start", "npm test"]));
    expect(adminLines.length).toBeGreaterThan(5);
  });

  it("names only scripts, admin commands, files and programs that exist", () => {
    const problems: string[] = [];
    const lines = [...shown, ...inlineCommands];
    for (const line of lines) {
      const { commands, variables } = parseShellLine(line.text);
      for (const command of commands) for (const problem of commandProblems(command, line)) problems.push(`${where(line)}: ${problem}`);
      for (const name of variables) {
        if (!SETTING_NAMES.includes(name) && !ourCode.includes(name))
          problems.push(`${where(line)}: ${name} is neither a setting of env.server.ts nor read by our scripts or tests`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("has CI run npm ci and npm test", () => {
    const ci = repoText(".ci/run");
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
    expect(statSync(path.join(repoRoot, ".ci/run")).mode & 0o111).not.toBe(0);
  });
});

function commandProblems({ words }: SimpleCommand, line: ShownLine): string[] {
  const [program, ...args] = words;
  if (program === undefined || OTHER_PROGRAMS.has(program)) return [];
  if (program.startsWith("scripts/") || program.startsWith(".ci/")) {
    const script = repoText(program);
    if (script === "") return [`${program} does not exist`];
    const subcommand = args[0];
    if (subcommand !== undefined && !new RegExp(`^\\s*${subcommand}\\)`, "m").test(script)) return [`${program} has no subcommand "${subcommand}"`];
    return [];
  }
  if (program !== "npm") return [`"${program}" is a program this test does not know: run it, or add it to a class in the header`];
  const [verb, name, separator, ...rest] = args;
  if (verb === "ci") return existsSync(path.join(repoRoot, "package-lock.json")) ? [] : ["npm ci needs package-lock.json"];
  if (verb === "test" || verb === "start") return scriptProblems(verb, []);
  if (verb !== "run" || name === undefined) return [`npm ${verb ?? ""} is not a command the docs may show`];
  if (separator !== undefined && separator !== "--") return [`arguments to a script go after "--"`];
  if (name === "admin") {
    const command = rest[0];
    if (command === undefined || command.startsWith("<")) return [];
    if (!adminCommands.includes(command)) return [`"${command}" is not a command of npm run admin -- help`];
    const inBlock = shown.includes(line);
    if (inBlock && !(command in RUN_ADMIN) && !(command in NOT_RUN_ADMIN))
      return [`admin command "${command}" is neither run here nor listed as checked by name`];
    return [];
  }
  return scriptProblems(name, rest);
}

/** A file's text and that of the files it imports by relative path (the options of bench/run.ts are read in bench/lib/). */
function withImports(file: string, seen = new Set<string>()): string {
  if (seen.has(file)) return "";
  seen.add(file);
  const text = repoText(file);
  const imported = [...text.matchAll(/\bfrom ["'](\.{1,2}\/[^"']+)["']/g)].map((match) => path.posix.join(path.posix.dirname(file), match[1]!));
  return [text, ...imported.map((next) => withImports(next, seen))].join("\n");
}

function scriptProblems(name: string, args: string[]): string[] {
  const body = scripts[name];
  if (body === undefined) return [`package.json has no script "${name}"`];
  if (!runByCi.has(name) && !(name in NOT_RUN) && !(name in RUN_BY_TESTS))
    return [`script "${name}" is run by neither CI nor a test, nor listed as checked by name`];
  const problems: string[] = [];
  const entries = [...body.matchAll(/\bnode (\S+\.(?:ts|js))/g)].map((match) => withImports(match[1]!)).join("\n");
  for (const arg of args) {
    if (arg.startsWith("--")) {
      const option = arg.split("=")[0]!;
      if (!entries.includes(option.slice(2))) problems.push(`npm run ${name} has no option ${option}`);
    } else if (/\//.test(arg) && !existsSync(path.join(repoRoot, arg))) {
      problems.push(`${arg} does not exist`);
    }
  }
  return problems;
}

describe("the admin commands the docs show, run", () => {
  const sites: string[] = [];
  afterAll(() => Promise.all(sites.map((dir) => removeTempDir(dir))));

  const runnable = adminLines.filter((line) => line.args[0]! in RUN_ADMIN);
  it("runs some", () => expect(runnable.map((line) => line.args[0])).toEqual(expect.arrayContaining(["create", "backup", "verify-backup", "restore", "help"])));

  // Each on a site of its own, so side by side: most of their time is Node starting and the
  // migrations. Up to three runs each (with what it needs first): minutes on a crowded machine.
  const cases = runnable.map((line) => ({ name: `${line.file}:${line.line}: npm run admin -- ${line.args.join(" ")}`, line }));
  it.concurrent.for(cases)("$name", { timeout: 180_000 }, async ({ line }, { expect }) => {
    const dir = await makeTempDir("docs");
    sites.push(dir);
    const env = { DATA_DIR: path.join(dir, "data") };
    await mkdir(path.join(dir, "work"));
    const [command, ...rest] = line.args as [string, ...string[]];
    const plan = RUN_ADMIN[command]!;
    const args = [command, ...rest.map((arg, index) => (plan.pathArgument && index === 0 ? path.join(dir, "work", arg) : arg))];
    const must = async (run: Promise<AdminRun>, what: string) => {
      const result = await run;
      expect(result.code, `${what}\n${result.stdout}\n${result.stderr}`).toBe(0);
      return result;
    };
    if (plan.before === "admin" || plan.before === "owners")
      await must(runAdmin(env, ["create", rest[0] ?? ADMIN], `${PASSWORD}\n`), "creating the admin first");
    if (plan.before === "owners") await must(runAdmin(env, ["create", `other-${ADMIN}`], `${PASSWORD}\n`), "creating another owner first");
    if (plan.before === "backup") await must(runAdmin(env, ["backup", args[1]!]), "making the backup first");
    if (plan.before === "site file") await must(runAdmin(env, ["export-site", args[1]!]), "exporting the site first");
    const result = await must(runAdmin(env, args, plan.stdin ?? ""), where(line));
    if (command === "list") expect(result.stdout).toContain(rest[0] ?? ADMIN);
  });
});

describe("what the docs name", () => {
  it("lists every admin command in docs/operations.md and every npm script in docs/development.md", () => {
    const development = repoText("docs/development.md");
    expect(adminCommands.filter((command) => !new RegExp("`" + command + "[` ]").test(operations))).toEqual([]);
    const missing = Object.keys(scripts).filter(
      (name) => !development.includes(name === "test" || name === "start" ? `\`npm ${name}\`` : `\`npm run ${name}\``),
    );
    expect(missing).toEqual([]);
  });

  it("documents exactly the settings env.server.ts reads, in docs/configuration.md and .env.example", () => {
    const configuration = repoText("docs/configuration.md");
    const rows = new Set(
      configuration
        .split("\n")
        .filter((line) => line.startsWith("| `"))
        .flatMap((line) => [...line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!)),
    );
    const example = new Set([...repoText(".env.example").matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!));
    expect([...rows].sort()).toEqual([...SETTING_NAMES].sort());
    expect([...example].sort()).toEqual([...SETTING_NAMES].sort());
  });

  it("names only variables the code reads", () => {
    const problems = documents.flatMap(({ file, text }) =>
      codeSpans(file, text).flatMap((span) => {
        const name = /^([A-Z][A-Z0-9]*_[A-Z0-9_]*\*?)(=|$)/.exec(span.text)?.[1];
        if (name === undefined || name in OTHERS_VARIABLES) return [];
        const known = name.endsWith("*")
          ? SETTING_NAMES.some((setting) => setting.startsWith(name.slice(0, -1)))
          : SETTING_NAMES.includes(name) || ourCode.includes(name);
        return known ? [] : [`${where(span)}: ${name} is read nowhere in the code`];
      }),
    );
    expect(problems).toEqual([]);
  });

  it("names only paths that exist, and links only to files and headings that exist, in code spans it can read", () => {
    const repoPath =
      /^(?:(?:app|server|tests|scripts|bench|docs|public|\.ci)\/[\w./-]*|package\.json|package-lock\.json|server\.js|tsconfig\.json|[\w-]+\.config\.ts|\.env\.example)$/;
    const problems: string[] = [];
    for (const { file, text } of documents) {
      for (const span of codeSpans(file, text)) {
        if (span.text === "`") problems.push(`${where(span)}: a code span that does not close on its line, which these checks cannot read`);
        if (repoPath.test(span.text) && !existsSync(path.join(repoRoot, span.text))) problems.push(`${where(span)}: no such file or folder`);
      }
      for (const link of localLinks(file, text)) {
        const [target, anchor] = link.text.split("#") as [string, string | undefined];
        const resolved = target === "" ? file : path.posix.join(path.posix.dirname(file), target);
        if (!existsSync(path.join(repoRoot, resolved))) problems.push(`${where(link)}: no such file or folder`);
        else if (anchor !== undefined && !anchorsOf(readFileSync(path.join(repoRoot, resolved), "utf8")).has(anchor))
          problems.push(`${where(link)}: no heading #${anchor}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
