import path from "node:path";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routeConfig from "~/routes";
import { repoRoot } from "./server";

/**
 * A route of app/routes.ts: its whole path as the config spells it ("" for the landing page, "admin/data-requests"),
 * its module, and whether it is an index route (which has its parent's path).
 */
export type AppRoute = { path: string; file: string; index: boolean };

function joinPaths(parent: string, child: string | undefined): string {
  return [parent, child ?? ""]
    .map((part) => part.replace(/^\/+|\/+$/g, ""))
    .filter(Boolean)
    .join("/");
}

/** Every entry of app/routes.ts, layouts included (a layout has its parent's path). */
export async function appRoutes(): Promise<AppRoute[]> {
  const found: AppRoute[] = [];
  const walk = (entries: RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      const routePath = joinPaths(parent, entry.path);
      found.push({ path: routePath, file: entry.file, index: entry.index === true });
      if (entry.children) walk(entry.children, routePath);
    }
  };
  walk(await routeConfig, "");
  return found;
}

/** Which of `loader` and `action` the route's module exports. */
export async function handlersOf(route: AppRoute): Promise<Array<"loader" | "action">> {
  const module = (await import(/* @vite-ignore */ path.join(repoRoot, "app", route.file))) as Record<string, unknown>;
  return (["loader", "action"] as const).filter((handler) => typeof module[handler] === "function");
}

/** The admin routes outside the session's layout, open to anybody: signing in and its other steps (the two-step code, a forgotten password), and the invitation's page (its link is for somebody not yet a member). */
export const OPEN_TO_ANYBODY: ReadonlySet<string> = new Set(["admin/sign-in", "admin/two-step", "admin/forgot-password", "admin/reset-password", "admin/join"]);
