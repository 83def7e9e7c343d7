import { startTransition, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { ISLANDS, ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, type IslandName } from "./islands";

/**
 * Hydrates one island of the page with the props the server wrote beside it
 * (Island.tsx); island-wake.client.ts decides when (decision 072). In a
 * transition, as React Router does: React then hydrates in slices and yields
 * to the browser between them, so a phone's main thread is never blocked for
 * long (Total Blocking Time). Returns false when the island stays as the
 * server rendered it.
 */
export function hydrateIsland(container: HTMLElement): boolean {
  const name = container.getAttribute(ISLAND_ATTRIBUTE) as IslandName;
  const Component = ISLANDS[name] as ComponentType<object> | undefined;
  const script = container.nextElementSibling;
  if (!Component || !(script instanceof HTMLScriptElement) || script.getAttribute(ISLAND_PROPS_ATTRIBUTE) !== name) {
    console.error(`The page's "${name}" island has no component or no props; it stays as the server rendered it.`);
    return false;
  }
  const props = JSON.parse(script.textContent) as object;
  startTransition(() => {
    hydrateRoot(container, <Component {...props} />);
  });
  return true;
}
