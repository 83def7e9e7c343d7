/**
 * `npm run seed:enquiries -- <n>` (decision 058), run as npm runs it, on both
 * databases: n made-up enquiries and the one to find, all real enquiries the
 * inbox lists and its search finds; a count that is not one is refused.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { countSubmissions, listSubmissions } from "~/enquiries/inbox.server";
import { backends } from "../support/backends";
import { repoRoot } from "../support/server";
import { useDatabase } from "../support/sites";

function seed(env: Record<string, string | undefined>, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
    for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
    const child = spawn(process.execPath, [path.join(repoRoot, "scripts/seed-enquiries.ts"), ...args], { cwd: repoRoot, env: childEnv });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (output += text));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, output }));
  });
}

describe.each(backends)("npm run seed:enquiries on $name", (backend) => {
  const data = useDatabase(backend);

  it("writes that many enquiries and the one to find, which the inbox lists and finds", async () => {
    const result = await seed(data.database.env, ["120"]);
    expect(result.output).toMatch(/^121 enquiries written to /m);
    expect(result.code).toBe(0);
    const counts = await countSubmissions(data.db);
    expect(counts.all + counts.spam + counts.held).toBe(121);
    const found = await listSubmissions(data.db, { filter: "all", search: "Zebedee Quartermaine" });
    expect(found.submissions.map((submission) => submission.name)).toEqual(["Zebedee Quartermaine"]);
  });

  it("refuses a count that is not one, and writes nothing", async () => {
    const before = await countSubmissions(data.db);
    const result = await seed(data.database.env, ["lots"]);
    expect(result.code).toBe(2);
    expect(result.output).toContain("Usage: npm run seed:enquiries");
    expect(await countSubmissions(data.db)).toEqual(before);
  });
});
