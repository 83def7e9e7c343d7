import { startTransition, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";
import { ISLANDS, ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE, type IslandName } from "./islands";

/**
 * Hydrates every island of the page with the props the server wrote beside it
 * (Island.tsx). In a transition, as React Router does: React then hydrates in
 * slices and yields to the browser between them, so a phone's main thread is
 * never blocked for long (Total Blocking Time), and an island the visitor
 * touches first is hydrated first.
 */
export function hydrateIslands(): void {
  for (const container of document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)) {
    const name = container.getAttribute(ISLAND_ATTRIBUTE) as IslandName;
    const Component = ISLANDS[name] as ComponentType<object> | undefined;
    const script = container.nextElementSibling;
    if (!Component || !(script instanceof HTMLScriptElement) || script.getAttribute(ISLAND_PROPS_ATTRIBUTE) !== name) {
      console.error(`The page's "${name}" island has no component or no props; it stays as the server rendered it.`);
      continue;
    }
    const props = JSON.parse(script.textContent) as object;
    startTransition(() => {
      hydrateRoot(container, <Component {...props} />);
    });
  }
}
