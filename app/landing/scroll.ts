export type SectionId = "home" | "services" | "renovations" | "pricing" | "about" | "contact";

/**
 * Smooth-scrolls to a section of the landing page (instantly for people who ask
 * for reduced motion) and moves keyboard focus there, so the next Tab continues
 * from the section rather than from the button that was pressed.
 */
export function scrollToSection(id: SectionId): void {
  const target = document.getElementById(id);
  if (!target) {
    // The specification's wording, whichever section was asked for.
    console.warn("Contact section not found");
    return;
  }
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  target.scrollIntoView({ behavior: reduceMotion ? "auto" : "smooth", block: "start" });
  target.focus({ preventScroll: true });
}
