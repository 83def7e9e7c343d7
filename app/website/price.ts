/** Prices as the site keeps them (whole pence, so £80 and £79.50 are both exact), shows them and reads them from a form. */
import { groupedDigits } from "~/platform/numbers";

export const MAX_PRICE_PENCE = 10_000_000;

/** ".50" of £79.50; "" for whole pounds. */
const penceShown = (pence: number) => (pence % 100 ? `.${String(pence % 100).padStart(2, "0")}` : "");

/** "£80", "£79.50", "£1,250": how a price is shown. */
export function formatPrice(pence: number): string {
  return `£${groupedDigits(Math.floor(pence / 100))}${penceShown(pence)}`;
}

/** "80", "79.50": a price as the editor's field shows it. */
export function priceFieldValue(pence: number): string {
  return `${Math.floor(pence / 100)}${penceShown(pence)}`;
}

/** "£1,250.50", "80" → pence; undefined when it is not an amount (or more than £100,000). */
export function penceFrom(text: string): number | undefined {
  const match = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(text.replace(/^£\s*/, "").replace(/,/g, ""));
  if (!match) return undefined;
  const pence = Number(match[1]) * 100 + Number((match[2] ?? "0").padEnd(2, "0"));
  return pence <= MAX_PRICE_PENCE ? pence : undefined;
}
