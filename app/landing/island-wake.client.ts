import { ISLAND_ATTRIBUTE, ISLAND_HYDRATING_ATTRIBUTE } from "./island-attributes";

/** An island this close to the screen (a screen's height above or below it) is hydrated: it is ready before it is seen. */
const NEAR_THE_SCREEN = "100% 0px";
/** What a visitor does to an island before it came near the screen (a tap, Tab, a key): it is hydrated at once. */
const FIRST_TOUCH = ["pointerdown", "focusin", "keydown"] as const;
/** What a click on an island not yet hydrated is held for and given again once React has the island. */
const HELD_TARGETS = "a, button, input, label, select, summary, textarea";

type Hydrate = (container: HTMLElement) => boolean;

/**
 * When the landing page's islands are hydrated (decision 072): each when it
 * comes near the screen (after `load`) or when the visitor first touches it,
 * whichever is first. React's code is loaded with the first island woken, so a
 * phone that loads the page and reads its first screen (the header's menu is not
 * an island) runs none of it. Until then an
 * island is what the server rendered, which works as without JavaScript.
 *
 * A click on an island that is waking (React still on its way) is held and
 * given again once the island is hydrated (a tap on the gallery's next button
 * as it scrolls into view still moves it); should React fail to load, it is given to the page as
 * the server rendered it. A click on a `data-scroll-to` button is never held:
 * the page's own listener serves it (enhance.client.ts).
 */
export function wakeIslands(load: () => Promise<Hydrate>): void {
  let hydrator: Promise<Hydrate> | undefined;
  const near = typeof IntersectionObserver === "function" ? new IntersectionObserver(onNear, { rootMargin: NEAR_THE_SCREEN }) : undefined;
  const wakers = new Map<Element, () => void>();
  const watched: Element[] = [];

  function onNear(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) if (entry.isIntersecting) wakers.get(entry.target)?.();
  }

  for (const container of document.querySelectorAll<HTMLElement>(`[${ISLAND_ATTRIBUTE}]`)) {
    // The wrapper is `display: contents` (no box of its own): its children are what is on the screen.
    const boxes = Array.from(container.children);
    let awake = false;
    const held: HTMLElement[] = [];
    const hold = (event: MouseEvent) => {
      if (awake) return;
      wake();
      const target = event.target instanceof Element ? event.target.closest<HTMLElement>(HELD_TARGETS) : null;
      if (!target || target.closest("[data-scroll-to]")) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      if (!held.includes(target)) held.push(target);
    };
    const wake = () => {
      if (container.hasAttribute(ISLAND_HYDRATING_ATTRIBUTE)) return;
      container.setAttribute(ISLAND_HYDRATING_ATTRIBUTE, "");
      for (const box of boxes) {
        near?.unobserve(box);
        wakers.delete(box);
      }
      for (const type of FIRST_TOUCH) container.removeEventListener(type, wake, true);
      hydrator ??= load();
      void hydrator
        .then((hydrate) => hydrate(container))
        .catch((error: unknown) => console.error("The page's islands could not be loaded; they stay as the server rendered them.", error))
        .finally(() => {
          awake = true;
          container.removeEventListener("click", hold, true);
          for (const target of held.splice(0)) target.click();
        });
    };
    container.addEventListener("click", hold, true);
    for (const type of FIRST_TOUCH) container.addEventListener(type, wake, { capture: true, passive: true });
    if (!near) wake();
    else
      for (const box of boxes) {
        wakers.set(box, wake);
        watched.push(box);
      }
  }

  // After the page has loaded: React's 70 KB then never compete with the page's own pictures for a phone's bandwidth.
  const observe = () => {
    for (const box of watched) if (wakers.has(box)) near?.observe(box);
  };
  if (document.readyState === "complete") observe();
  else window.addEventListener("load", observe, { once: true });
}
