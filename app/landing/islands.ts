import type { ComponentType } from "react";
import { Gallery } from "./Carousel";
import { ContactForm } from "./ContactForm";
import { ValuationForm } from "./ValuationForm";

/**
 * The parts of the landing page that need JavaScript: each is hydrated on its
 * own (decision 015), and none may import react-router, or the router would
 * come back into the page's JavaScript (tests/integration/budgets.test.ts).
 */
export const ISLANDS = {
  gallery: Gallery,
  contactForm: ContactForm,
  valuationForm: ValuationForm,
} satisfies Record<string, ComponentType<never>>;

export type IslandName = keyof typeof ISLANDS;
export type IslandProps<N extends IslandName> = Parameters<(typeof ISLANDS)[N]>[0];

export { ISLAND_ATTRIBUTE, ISLAND_PROPS_ATTRIBUTE } from "./island-attributes";
