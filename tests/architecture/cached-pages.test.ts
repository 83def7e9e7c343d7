/**
 * The page cache keys a page by its path alone (app/platform/http/page-cache.server.ts):
 * `/terms?x=1` is answered with `/terms`. That holds only while no page it
 * keeps reads its query string, which this test checks in the route modules.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/server";

const ROUTES = path.join(repoRoot, "app/routes");

describe("the pages the page cache keeps", () => {
  const cached = readdirSync(ROUTES)
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => ({ file, source: readFileSync(path.join(ROUTES, file), "utf8") }))
    .filter(({ source }) => /cacheDocument:\s*true/.test(source));

  it("include the public pages (so the checks below look at something)", () => {
    expect(cached.map(({ file }) => file)).toEqual(expect.arrayContaining(["fees.tsx", "home.tsx", "policy.tsx"]));
  });

  it.each(["searchParams", ".search", "useLocation", "useSearchParams"])("never read the query string (%s)", (reader) => {
    expect(cached.filter(({ source }) => source.includes(reader)).map(({ file }) => file)).toEqual([]);
  });
});
