import type { IconName } from "~/components/Icon";
import type { SectionId } from "./scroll";

/** The landing page's fixed texts and icons; the rest is edited in the Website tab (app/website/content.ts). */

export const NAV_ITEMS: { id: SectionId; label: string }[] = [
  { id: "home", label: "Home" },
  { id: "services", label: "Services" },
  { id: "renovations", label: "Renovations" },
  { id: "pricing", label: "Pricing" },
  { id: "about", label: "About" },
  { id: "contact", label: "Contact Us" },
];

/** The icons of the Renovations section's four cards, by place (their words are edited in the Website tab). */
export const RENOVATION_CARD_ICONS: IconName[] = ["home", "palette", "wrench", "sparkles"];

/** The icons of the About panel's two captions (their words are edited in the Website tab). */
export const ABOUT_CAPTION_ICONS: IconName[] = ["badge", "trophy"];
