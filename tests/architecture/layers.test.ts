/**
 * The rule the README states, checked: requests travel down the floors of the
 * house (edge → screens → components → domains → platform), never back up,
 * and no two rooms import each other round in a loop. A regular-expression
 * reader of imports, not dependency-cruiser: it needs TypeScript's compiler
 * API, which TypeScript 7 no longer has (decision 023).
 */
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/server";
import { FLOORS, importsOf, resolveSpecifier, roomCycles, sourceFiles, upwardImports } from "./layers";

describe("the layers of the code", () => {
  const files = sourceFiles(repoRoot);

  it("places every source file of app/ and server/ on a floor", () => {
    expect(files.length).toBeGreaterThan(100);
    const unplaced = files.filter((file) => !FLOORS.some((floor) => floor.paths.test(file)));
    expect(unplaced).toEqual([]);
  });

  it("has no import that runs back up a floor", () => {
    expect(upwardImports(repoRoot, files).map((v) => `${v.from} (${v.fromFloor}) → ${v.to} (${v.toFloor})`)).toEqual([]);
  });

  it("has no loop of imports between rooms", () => {
    expect(roomCycles(repoRoot, files).map((cycle) => cycle.join(" → "))).toEqual([]);
  });

  it("catches an upward import and a loop when one is added", () => {
    const planted = new Map([
      ["app/platform/db/planted.ts", 'import { submitEnquiry } from "~/enquiries/submit.server";\n'],
      ["app/enquiries/planted.ts", 'import { x } from "../projects/planted";\n'],
      ["app/projects/planted.ts", 'import type { y } from "~/enquiries/planted";\n'],
    ]);
    const read = (file: string) => planted.get(file) ?? "";
    expect(upwardImports(repoRoot, [...planted.keys()], read)).toEqual([
      { from: "app/platform/db/planted.ts", to: "app/enquiries/submit.server.ts", fromFloor: "platform", toFloor: "domains" },
    ]);
    expect(roomCycles(repoRoot, [...planted.keys()], read)).toEqual([["app/enquiries", "app/projects", "app/enquiries"]]);
  });

  it("resolves a specifier to the file it names, so an import of a single top-level file is judged too", () => {
    const planted = new Map([
      ["app/admin/planted.tsx", 'import type { AppServices } from "~/services";\nimport { boot } from "~/boot.server";\n'],
      ["app/platform/db/planted.ts", 'import { migrations } from "./migrations";\n'],
    ]);
    const read = (file: string) => planted.get(file) ?? "";
    expect(upwardImports(repoRoot, [...planted.keys()], read)).toEqual([
      { from: "app/admin/planted.tsx", to: "app/services.ts", fromFloor: "screens", toFloor: "edge" },
      { from: "app/admin/planted.tsx", to: "app/boot.server.ts", fromFloor: "screens", toFloor: "edge" },
    ]);
    expect(resolveSpecifier("app/platform/db/planted.ts", "./migrations")).toBe("app/platform/db/migrations/index.ts");
  });

  it("knows the platform's rooms: a new platform file must choose one", () => {
    const unplaced = ["app/platform/planted.server.ts", "app/platform/db/planted.ts", "app/platform/observe/planted.ts", "app/platform/dates.ts"].filter(
      (file) => !FLOORS.some((floor) => floor.paths.test(file)),
    );
    expect(unplaced).toEqual(["app/platform/planted.server.ts"]);
  });

  it("reads every form of import", () => {
    expect(
      importsOf(`import a from "./a";
import {
  b,
  type c,
} from "~/b";
import "./side-effect";
export { d } from "../d";
const e = await import("./e");`),
    ).toEqual(["./a", "~/b", "../d", "./side-effect", "./e"]);
  });
});
