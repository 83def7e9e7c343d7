import { scrollToSection, type SectionId } from "./scroll";

/**
 * Buttons and links marked `data-scroll-to` take the visitor to their section:
 * one listener for the whole page instead of a React handler on each, so the
 * landing page's static parts need no hydration (decision 015).
 */
export function enhanceScrollTargets(): void {
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || !(event.target instanceof Element)) return;
    const trigger = event.target.closest<HTMLElement>("[data-scroll-to]");
    const target = trigger?.dataset.scrollTo;
    if (!target) return;
    event.preventDefault();
    scrollToSection(target as SectionId);
  });
}

/**
 * The footer's Admin link loads /admin as a new document, which waits for the
 * server's sign-in check: say so while it does (SPEC: "a loading indicator
 * while the sign-in state is checked"). A click that opens a new tab or window
 * does not count. Coming back (the back-forward cache) hides it again.
 */
export function showSignInCheckOnAdminLink(): void {
  const overlay = document.getElementById("checking-sign-in");
  if (!overlay) return;
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
      return;
    }
    if (event.target instanceof Element && event.target.closest('a[href="/admin"]')) overlay.hidden = false;
  });
  window.addEventListener("pageshow", () => {
    overlay.hidden = true;
  });
}

/**
 * The header's mobile menu (Header.tsx; decision 072: not an island, so a phone
 * opens it without React): its toggle opens and closes it and says which it
 * does; choosing a nav button, Escape (focus back on the toggle) or focus
 * leaving the header closes it (open, it would cover what Tab or Shift+Tab
 * moves to, WCAG 2.4.11).
 */
export function enhanceMobileMenu(): void {
  const toggle = document.querySelector<HTMLButtonElement>("button[data-menu-toggle]");
  const menu = document.getElementById(toggle?.getAttribute("aria-controls") ?? "");
  const header = toggle?.closest("header");
  if (!toggle || !menu || !header) return;
  const isOpen = () => toggle.getAttribute("aria-expanded") === "true";
  const setOpen = (open: boolean) => {
    toggle.setAttribute("aria-expanded", String(open));
    toggle.setAttribute("aria-label", open ? "Close menu" : "Open menu");
    menu.hidden = !open;
  };
  toggle.addEventListener("click", () => setOpen(!isOpen()));
  menu.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("[data-scroll-to]")) setOpen(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || !isOpen()) return;
    setOpen(false);
    toggle.focus();
  });
  header.addEventListener("focusout", (event) => {
    if (isOpen() && !header.contains(event.relatedTarget as Node | null)) setOpen(false);
  });
}
