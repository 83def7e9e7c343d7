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
