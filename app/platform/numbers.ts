/**
 * "1,250": a whole number as en-GB writes it, thousands grouped with commas.
 * Not `toLocaleString("en-GB")`: the first locale formatting a process does
 * maps ICU's locale data (~8 MB of memory), and the public site's only use of
 * it was this (decision 085).
 */
export function groupedDigits(whole: number): string {
  const digits = String(Math.trunc(Math.abs(whole)));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ",");
  return whole <= -1 ? `-${grouped}` : grouped;
}
