import { z } from "zod";

// Zod probes for eval support (new Function) to speed up parsing; our
// Content-Security-Policy forbids eval, and the probe would log a violation on
// every page load. The interpreted path is fast enough for a contact form.
z.config({ jitless: true });

/**
 * The contact form's one schema, used by the browser before sending and by the
 * server before storing. Messages are the specification's words.
 */
export const REQUIRED_MESSAGE = "Please fill in all required fields";
export const INVALID_EMAIL_MESSAGE = "Please enter a valid email address";
export const SUCCESS_MESSAGE = "Thank you for your message! We'll get back to you within 24 hours.";
export const FAILURE_MESSAGE = "Failed to send message. Please try again.";
/** CONTACT_RATE_LIMIT reached (429): the window is an hour, and the phone still works. */
export function rateLimitedMessage(companyPhone: string): string {
  return `Too many messages have been sent from your connection. Please try again in an hour, or call us on ${companyPhone}.`;
}

export const USER_TYPES = ["landlord", "tenant", "investor", "other"] as const;
export type UserType = (typeof USER_TYPES)[number];
export const USER_TYPE_LABELS: Record<UserType, string> = {
  landlord: "Landlord",
  tenant: "Tenant",
  investor: "Property Investor",
  other: "Other",
};

export const LIMITS = { name: 200, email: 254, phone: 40, message: 20_000 } as const;

/**
 * Text, "@", text, ".", text, as the specification asks, but stricter about
 * what "text" may be: no white space (so no CR/LF), no second "@", no commas,
 * semicolons, angle brackets, quotes or brackets. Those are how an address
 * field smuggles extra recipients or headers into an e-mail.
 */
const EMAIL_PART = String.raw`[^\s@,;:<>"()\[\]\\\u0000-\u001f\u007f]+`;
const EMAIL_PATTERN = new RegExp(`^${EMAIL_PART}@${EMAIL_PART}\\.${EMAIL_PART}$`);

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value) && !value.includes("..");
}

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** Line breaks and tabs belong in a message; other control characters (NUL cannot even be stored by PostgreSQL) do not. */
const MESSAGE_FORBIDDEN_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function text(field: string) {
  return z.string({
    error: (issue) => (issue.input === undefined || issue.input === null ? REQUIRED_MESSAGE : `${field} must be text`),
  });
}

const requiredText = (field: string, max: number, tooLong: string) =>
  text(field).trim().min(1, REQUIRED_MESSAGE).max(max, tooLong);

export const enquirySchema = z.object({
  name: requiredText("Name", LIMITS.name, `Please keep your name under ${LIMITS.name} characters`).refine(
    (value) => !CONTROL_CHARACTERS.test(value),
    "Please enter your name on a single line",
  ),
  email: requiredText("Email", LIMITS.email, INVALID_EMAIL_MESSAGE).refine(isValidEmail, INVALID_EMAIL_MESSAGE),
  phone: text("Phone")
    .nullable()
    .optional()
    .transform((value) => value?.trim() || undefined)
    .refine((value) => value === undefined || value.length <= LIMITS.phone, {
      message: `Please keep your phone number under ${LIMITS.phone} characters`,
    })
    .refine((value) => value === undefined || !CONTROL_CHARACTERS.test(value), {
      message: "Please enter your phone number on a single line",
    }),
  userType: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.enum(USER_TYPES, {
      error: (issue) =>
        issue.input === undefined ? REQUIRED_MESSAGE : "Please choose Landlord, Tenant, Property Investor or Other",
    }),
  ),
  message: requiredText(
    "Message",
    LIMITS.message,
    `Please keep your message under ${LIMITS.message.toLocaleString("en-GB")} characters`,
  ).refine((value) => !MESSAGE_FORBIDDEN_CHARACTERS.test(value), "Please remove unsupported characters from your message"),
});

export type Enquiry = z.output<typeof enquirySchema>;
export type EnquiryField = keyof Enquiry;

export type EnquiryValidation =
  | { success: true; data: Enquiry }
  | { success: false; error: string; fields: EnquiryField[] };

/**
 * Validates a payload and reports one message for the form, as the original
 * did: a missing required field first, then the first other problem.
 */
export function validateEnquiry(input: unknown): EnquiryValidation {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { success: false, error: REQUIRED_MESSAGE, fields: ["name", "email", "userType", "message"] };
  }
  const result = enquirySchema.safeParse(input);
  if (result.success) return { success: true, data: result.data };
  const issues = result.error.issues;
  const required = issues.filter((issue) => issue.message === REQUIRED_MESSAGE);
  const chosen = required.length > 0 ? required : issues;
  return {
    success: false,
    error: chosen[0]?.message ?? REQUIRED_MESSAGE,
    fields: [...new Set(chosen.map((issue) => issue.path[0] as EnquiryField))],
  };
}

/** What the contact form's action answers, for the form to show. */
export type ContactActionData =
  | { status: "success"; message: string }
  | { status: "error"; error: string; fields: string[]; values: Record<string, string> };
