import { spawn } from "node:child_process";
import path from "node:path";
import { repoRoot } from "./server";

export type AdminRun = { code: number | null; stdout: string; stderr: string };

/** `npm run admin -- <args>` as npm runs it (node scripts/admin.js), with `input` piped on stdin. */
export function runAdmin(env: Record<string, string | undefined>, args: string[], input = ""): Promise<AdminRun> {
  return new Promise((resolve, reject) => {
    const childEnv: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" };
    for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
    const child = spawn(process.execPath, [path.join(repoRoot, "scripts/admin.js"), ...args], {
      cwd: repoRoot,
      env: childEnv,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
    child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
    child.once("error", reject);
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
