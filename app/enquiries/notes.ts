/** An internal note on an enquiry (notes.server.ts), as the card shows it. */
export type EnquiryNote = { id: string; author: string; body: string; createdAt: string };

/** A note is at most this many characters. */
export const MAX_NOTE_LENGTH = 2000;

export const NOTE_PROBLEMS = {
  empty: "Write the note first.",
  tooLong: `A note can be at most ${MAX_NOTE_LENGTH} characters.`,
} as const;

/** The note as kept: line ends made \n, control characters but tab and line ends removed, ends trimmed; or what is wrong. */
export function parseNote(value: string | undefined): { body: string } | { problem: string } {
  const body = (value ?? "")
    .replace(/\r\n?/g, "\n")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (but tab and line ends) are taken out of a note.
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
    .trim();
  if (body === "") return { problem: NOTE_PROBLEMS.empty };
  if ([...body].length > MAX_NOTE_LENGTH) return { problem: NOTE_PROBLEMS.tooLong };
  return { body };
}
