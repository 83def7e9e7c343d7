/** Row values differ by dialect; these turn them into one shape. */
export function toIsoString(value: Date | string): string {
  if (value instanceof Date) return value.toISOString();
  // SQLite stores what we wrote: already ISO 8601 with a Z.
  return new Date(value).toISOString();
}

export function toBoolean(value: boolean | number): boolean {
  return value === true || value === 1;
}
