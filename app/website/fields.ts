import type { Company } from "~/company/company";
import { imageNameFromUrl, storedNameFromUrl } from "~/images/image-files";
import { isValidEmail } from "~/platform/email-address";

/**
 * What a section of the Website tab is made of (decision 044): typed fields
 * with a label, a limit and a message, and the module in sections/ that
 * gives the section's defaults, shows its values in the form and reads the
 * form back. Shared by the browser (labels, limits) and the server (which
 * decides).
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
  /**
   * "image": an upload through the image pipeline; "document": a PDF or an
   * image (the certificate). A section has at most one upload.
   */
  type?: "text" | "email" | "tel" | "date" | "time" | "image" | "document";
  /** A format the value must have when given, with its message. */
  pattern?: { test: RegExp; message: string };
  /** How the value is kept, before it is checked (a registration number without its spaces). */
  normalise?: (value: string) => string;
};

/** Each field's message, by the field's name. */
export type SectionErrors = Record<string, string>;

/** The messages of any field; a section's own are in its module. */
export const FIELD_TEXT = {
  fieldRequired: (label: string) => `Please fill in ${label.toLowerCase()}.`,
  tooLong: (label: string, max: number) => `${label} must be at most ${max} characters.`,
  email: "Please enter a valid email address",
  price: (label: string) => `${label} must be an amount in pounds, such as 80 or 79.50.`,
  fixErrors: "Please correct the highlighted fields. Nothing was saved.",
  date: (label: string) => `${label} must be a date, such as 2027-03-31.`,
  fileMissing: (label: string) => `${label}: the uploaded file was not found. Please upload it again.`,
} as const;

/** A section's form once each typed field is checked (readForm): what its module reads the section from. */
export type SectionForm = {
  /** A typed field's cleaned text, "" when not sent. */
  get(name: string): string;
  /** Any other field (a checkbox, a list, the button used), cleaned the same way. */
  raw(name: string): string;
  /** Each field's message so far; a section adds its own. Nothing is saved while one is here. */
  errors: SectionErrors;
  /** What the form shows again when it is refused; a section adds its other fields. */
  values: Record<string, string>;
};

/**
 * One section of the Website tab, as its module in sections/ describes it.
 * `Reads` is the part of the whole content it shows and changes: its own
 * part, and for Business hours the Contact section's two notes as well.
 */
export type Section<Name extends string, Own, Reads extends Record<Name, Own> = Record<Name, Own>> = {
  /** Its tab in the Website tab. */
  label: string;
  /** A fresh site's texts: the specification's (SPEC §9, §10), with the configured company. */
  defaults: (company: Company) => Own;
  /** Its typed fields; rows that repeat (fees, plans, services) follow the content. */
  fields: (content: Reads) => FieldSpec[];
  /** The content's values as the form's fields show them. */
  values: (content: Reads) => Record<string, string>;
  /** What a save changes, read from the checked form; its own problems go into form.errors. */
  parse: (form: SectionForm, current: Reads) => Partial<Reads>;
  /** What stored or imported content must look like beyond its fields (two groups, seven days). */
  shapeProblems?: (content: Reads) => string[];
  /**
   * What the law makes the company answer for (decision 028): only an owner
   * may change it, or publish, schedule, discard or restore a change to it
   * (decision 042, app/website/legal-sections.ts).
   */
  ownerOnly?: true;
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters to strip (line breaks and tabs stay).
const STRIPPED_CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/** Trims, keeps line breaks as \n, drops control characters a browser never sends. */
function clean(value: string | undefined): string {
  return (value ?? "").replace(/\r\n?/g, "\n").replace(STRIPPED_CONTROL_CHARACTERS, "").trim();
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** Each typed field of a section checked against its spec: required, limit, format, upload. */
export function readForm(specs: readonly FieldSpec[], fields: Record<string, string | undefined>): SectionForm {
  const errors: SectionErrors = Object.create(null);
  const values: Record<string, string> = Object.create(null);
  const text: Record<string, string> = Object.create(null);
  const raw = (name: string) => clean(Object.hasOwn(fields, name) ? fields[name] : undefined);
  for (const spec of specs) {
    const value = spec.normalise ? spec.normalise(raw(spec.name)) : raw(spec.name);
    values[spec.name] = value;
    text[spec.name] = value;
    if (spec.required && value === "") errors[spec.name] = FIELD_TEXT.fieldRequired(spec.label);
    else if (value.length > spec.max) errors[spec.name] = FIELD_TEXT.tooLong(spec.label, spec.max);
    else if (spec.type === "email" && !isValidEmail(value)) errors[spec.name] = FIELD_TEXT.email;
    else if (spec.type === "date" && value !== "" && !isDate(value)) errors[spec.name] = FIELD_TEXT.date(spec.label);
    else if (spec.pattern && value !== "" && !spec.pattern.test.test(value)) errors[spec.name] = spec.pattern.message;
    else if (spec.type === "image" && value !== "" && !imageNameFromUrl(value)) errors[spec.name] = FIELD_TEXT.fileMissing(spec.label);
    else if (spec.type === "document" && value !== "" && !storedNameFromUrl(value)) errors[spec.name] = FIELD_TEXT.fileMissing(spec.label);
  }
  return { get: (name) => text[name] ?? "", raw, errors, values };
}

/** A part of the content's texts as the form's fields name them: `<prefix>.<key>`. */
export function textValues(prefix: string, texts: Record<string, string>): Record<string, string> {
  const values: Record<string, string> = Object.create(null);
  for (const [key, value] of Object.entries(texts)) values[`${prefix}.${key}`] = value;
  return values;
}

/** The line above the title, the title and the introduction that several sections open with. */
export type Heading = { eyebrow: string; title: string; intro: string };

export function headingFields(section: string, { intro }: { intro: boolean } = { intro: true }): FieldSpec[] {
  return [
    { name: `${section}.eyebrow`, label: "Line above the title", max: 60, required: true },
    { name: `${section}.title`, label: "Section title", max: 80, required: true },
    ...(intro ? [{ name: `${section}.intro`, label: "Introduction", max: 300, required: true, multiline: true }] : []),
  ];
}

export function headingValues(section: string, { eyebrow, title, intro }: Heading): Record<string, string> {
  return textValues(section, { eyebrow, title, intro });
}

export function headingFrom({ get }: SectionForm, section: string): Heading {
  return { eyebrow: get(`${section}.eyebrow`), title: get(`${section}.title`), intro: get(`${section}.intro`) };
}
