/** Row values differ by dialect; these turn them into one shape. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function toIsoString(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  // SQLite hands back what we wrote, already in this form: no need to parse it.
  return ISO_UTC.test(value) ? value : new Date(value).toISOString();
}

/** pg's boolean, SQLite's 0 or 1, or PostgreSQL's text of one ("t"/"f": a snapshot read takes every value as text). */
export function toBoolean(value: boolean | number | string): boolean {
  return value === true || value === 1 || value === "t";
}
