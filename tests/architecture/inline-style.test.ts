import { readFileSync } from "node:fs";
import path from "node:path";
import { globSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * A page hydrated as islands is styled by the inlined landing.css alone
 * (root.tsx), whose Tailwind utilities come only from the files its @source
 * lines name (decision 039). A page left out renders without the classes no
 * other listed file uses: /fees lost its tables' sideways scrolling so.
 */
const APP = path.resolve(__dirname, "../../app");

function sources(): string[] {
  const css = readFileSync(path.join(APP, "landing.css"), "utf8");
  return [...css.matchAll(/@source\s+"([^"]+)"/g)].map((match) => path.resolve(APP, match[1]!));
}

describe("the inlined stylesheet", () => {
  it("takes its utilities from every page hydrated as islands", () => {
    const islandPages = globSync("**/*.tsx", { cwd: APP })
      .map((file) => path.join(APP, file))
      .filter((file) => /hydrate:\s*"islands"/.test(readFileSync(file, "utf8")) && !file.endsWith("root.tsx"));
    expect(islandPages.length).toBeGreaterThanOrEqual(4);
    const covered = (file: string) => sources().some((source) => file === source || file.startsWith(`${source}${path.sep}`));
    expect(islandPages.filter((file) => !covered(file)).map((file) => path.relative(APP, file))).toEqual([]);
  });
});
