/**
 * What a section's form is made of, shared by the content model (content.ts)
 * and the sections kept in files of their own (hours.ts, services.ts).
 */
export type FieldSpec = {
  /** The form field's name: "company.name", "plans.0.features". */
  name: string;
  label: string;
  max: number;
  required: boolean;
  /** A multi-line field; for lists, one item a line. */
  multiline?: boolean;
  hint?: string;
  /** "image": an upload through the image pipeline; "document": a PDF or an image (the certificate). */
  type?: "text" | "email" | "tel" | "date" | "time" | "image" | "document";
  /** A format the value must have when given, with its message. */
  pattern?: { test: RegExp; message: string };
};

/** Each field's message, by the field's name. */
export type SectionErrors = Record<string, string>;
