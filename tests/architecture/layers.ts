import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root, which specifiers are resolved against. */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The house's floors, top to bottom (README, "Map of the code"). A request
 * travels down: a file may import files of its own floor or of the floors
 * below, never of one above. Tests are not rooms of the house.
 */
export const FLOORS: ReadonlyArray<{ name: string; paths: RegExp }> = [
  {
    name: "edge",
    paths:
      /^(server\/|server\.js$|app\/(routes\/|routes\.ts$|root\.tsx$|entry\.(server|client)\.tsx$|hydrate-router\.client\.tsx$|boot\.server\.ts$|services\.ts$))/,
  },
  { name: "screens", paths: /^app\/(admin|landing)\// },
  { name: "components", paths: /^app\/components\// },
  { name: "domains", paths: /^app\/(auth|audit|enquiries|projects|images|company|website|backup)\// },
  // The platform's rooms, each named for what it holds; a new file chooses one (or is a small text rule at the top).
  {
    name: "platform",
    paths:
      /^app\/platform\/((db|backup|http|storage|fleet|observe|limits|mail|config)\/|(dates|email-address|email-fold\.server|ids|numbers|password-rules)\.ts$)/,
  },
];

const SOURCE = /\.(ts|tsx|js|mjs)$/;
const IGNORED = /(^|\/)(node_modules|build|data|test-results)\/|\.test\.tsx?$|\.d\.ts$/;

/** Every import a file makes: static (`from "x"`, `import "x"`, `export … from "x"`) and dynamic (`import("x")`). */
export function importsOf(source: string): string[] {
  const specifiers: string[] = [];
  const patterns = [/\bfrom\s*["']([^"']+)["']/g, /^\s*import\s*["']([^"']+)["']/gm, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) specifiers.push(match[1]!);
  return specifiers;
}

/** How a specifier without its extension may name a file: as written, with an extension, or a folder's index. */
const CANDIDATES = ["", ".ts", ".tsx", ".js", "/index.ts", "/index.tsx"];

/**
 * A specifier as the path of the file it names, from the repository's root
 * (`~/services` is `app/services.ts`, `./migrations` its `index.ts`), or
 * undefined for a package. `exists` is asked about each candidate in turn;
 * where none exists the specifier is returned as written, so a planted import
 * of a file that is not there is still judged by its folder.
 */
export function resolveSpecifier(
  fromFile: string,
  specifier: string,
  exists: (file: string) => boolean = (file) => existsSync(path.join(ROOT, file)) && statSync(path.join(ROOT, file)).isFile(),
): string | undefined {
  let base: string;
  if (specifier.startsWith("~/")) base = path.posix.join("app", specifier.slice(2));
  else if (specifier.startsWith(".")) base = path.posix.join(path.posix.dirname(fromFile), specifier);
  else return undefined;
  base = base.replace(/\?.*$/, "");
  return CANDIDATES.map((suffix) => base + suffix).find(exists) ?? base;
}

export function floorOf(file: string): number | undefined {
  const index = FLOORS.findIndex((floor) => floor.paths.test(file));
  return index === -1 ? undefined : index;
}

export type Violation = { from: string; to: string; fromFloor: string; toFloor: string };

/** The source files of the house, as paths from `root`. */
export function sourceFiles(root: string, dirs: readonly string[] = ["app", "server"]): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (IGNORED.test(relative)) continue;
      if (entry.isDirectory()) walk(relative);
      else if (SOURCE.test(entry.name)) files.push(relative);
    }
  };
  for (const dir of dirs) walk(dir);
  return files;
}

/** Imports that run up a floor. */
export function upwardImports(root: string, files: readonly string[], read = (file: string) => readFileSync(path.join(root, file), "utf8")): Violation[] {
  const violations: Violation[] = [];
  for (const file of files) {
    const from = floorOf(file);
    if (from === undefined) continue;
    for (const specifier of importsOf(read(file))) {
      const target = resolveSpecifier(file, specifier);
      if (target === undefined) continue;
      const to = floorOf(target);
      if (to !== undefined && to < from) violations.push({ from: file, to: target, fromFloor: FLOORS[from]!.name, toFloor: FLOORS[to]!.name });
    }
  }
  return violations;
}

/** Folder of a file inside `app/` ("app/enquiries"; in the platform, its room: "app/platform/db"), or the file itself at the top. */
function roomOf(file: string): string {
  const [top, second, third] = file.split("/");
  if (top === "app" && second === "platform" && third !== undefined && !SOURCE.test(third)) return `app/platform/${third}`;
  return top === "app" && second !== undefined && !SOURCE.test(second) ? `app/${second}` : file;
}

/** Loops of imports between rooms (folders of app/): each as the rooms in order. */
export function roomCycles(root: string, files: readonly string[], read = (file: string) => readFileSync(path.join(root, file), "utf8")): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    for (const specifier of importsOf(read(file))) {
      const target = resolveSpecifier(file, specifier);
      if (target === undefined) continue;
      const [from, to] = [roomOf(file), roomOf(target)];
      if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (room: string, trail: string[]) => {
    state.set(room, "open");
    for (const next of edges.get(room) ?? []) {
      if (state.get(next) === "open") cycles.push([...trail.slice(trail.indexOf(next)), next]);
      else if (!state.has(next)) visit(next, [...trail, next]);
    }
    state.set(room, "done");
  };
  for (const room of edges.keys()) if (!state.has(room)) visit(room, [room]);
  return cycles;
}
