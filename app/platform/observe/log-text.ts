/**
 * Text from a request, made safe to put in a log line: control characters
 * (CR and LF above all, which could forge a second line) are written as
 * escapes, and anything long is cut, so one request is always one short line.
 */
export function printable(value: unknown, max = 200): string {
  const text = typeof value === "string" ? value : String(value);
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: it replaces control characters with escapes a log can show.
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (char) => {
    switch (char) {
      case "\r":
        return "\\r";
      case "\n":
        return "\\n";
      case "\t":
        return "\\t";
      default:
        return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
    }
  });
}
