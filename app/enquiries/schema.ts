import { groupedDigits } from "~/platform/numbers";
import { isValidEmail } from "~/platform/email-address";
import type { ValuationDetails } from "./valuation-details";

/**
 * The contact form's one validator, used by the browser before sending and by
 * the server before storing. Messages are the specification's words. Written
 * by hand rather than with a schema library: this file ships to every visitor's
 * browser, and a library cost more than the rest of the landing page's own
 * code together (decision 015).
 */
export const REQUIRED_MESSAGE = "Please fill in all required fields";
export const INVALID_EMAIL_MESSAGE = "Please enter a valid email address";
export const SUCCESS_MESSAGE = "Thank you for your message! We'll get back to you within 24 hours.";
export const FAILURE_MESSAGE = "Failed to send message. Please try again.";
/** CONTACT_SITE_LIMIT reached (429): the whole site is taking more messages than usual. */
export function busyMessage(companyPhone: string): string {
  return `We are receiving an unusual number of messages right now. Please try again in a few minutes, or call us on ${companyPhone}.`;
}
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

// biome-ignore lint/suspicious/noControlCharactersInRegex: it finds control characters, to refuse them.
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** Line breaks and tabs belong in a message; other control characters (NUL cannot even be stored by PostgreSQL) do not. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: it finds control characters, to refuse them.
const MESSAGE_FORBIDDEN_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

export type Enquiry = {
  name: string;
  email: string;
  phone?: string | undefined;
  userType: UserType;
  message: string;
  /** A landlord's request for a free rental valuation: its property's details (valuation.ts); absent for the contact form's. */
  valuation?: ValuationDetails | undefined;
};
export type EnquiryField = Exclude<keyof Enquiry, "valuation">;

export type EnquiryValidation = { success: true; data: Enquiry } | { success: false; error: string; fields: EnquiryField[] };

/** A field's value, trimmed; or the message that says why there is none. */
export type Checked<T> = { value: T } | { problem: string };

/** Absent (undefined or null) is "required"; anything but a string is the wrong type. */
export function requiredText(input: unknown, field: string, max: number, tooLong: string): Checked<string> {
  if (input === undefined || input === null) return { problem: REQUIRED_MESSAGE };
  if (typeof input !== "string") return { problem: `${field} must be text` };
  const value = input.trim();
  if (value.length === 0) return { problem: REQUIRED_MESSAGE };
  if (value.length > max) return { problem: tooLong };
  return { value };
}

/** Each field's check, by field: the contact form's here, the valuation request's in valuation.ts. */
export type Checks<T> = { [F in keyof T]-?: (input: unknown) => Checked<T[F]> };

export const CHECKS: Checks<Omit<Enquiry, "valuation">> = {
  name(input) {
    const checked = requiredText(input, "Name", LIMITS.name, `Please keep your name under ${LIMITS.name} characters`);
    if ("value" in checked && CONTROL_CHARACTERS.test(checked.value)) {
      return { problem: "Please enter your name on a single line" };
    }
    return checked;
  },
  email(input) {
    const checked = requiredText(input, "Email", LIMITS.email, INVALID_EMAIL_MESSAGE);
    if ("value" in checked && !isValidEmail(checked.value)) return { problem: INVALID_EMAIL_MESSAGE };
    return checked;
  },
  phone(input) {
    if (input === undefined || input === null) return { value: undefined };
    if (typeof input !== "string") return { problem: "Phone must be text" };
    const value = input.trim() || undefined;
    if (value === undefined) return { value };
    if (value.length > LIMITS.phone) return { problem: `Please keep your phone number under ${LIMITS.phone} characters` };
    if (CONTROL_CHARACTERS.test(value)) return { problem: "Please enter your phone number on a single line" };
    return { value };
  },
  userType(input) {
    if (input === undefined || input === null || input === "") return { problem: REQUIRED_MESSAGE };
    // `includes` on the list, not a property lookup, so "__proto__" is just an unknown value.
    if (typeof input !== "string" || !(USER_TYPES as readonly string[]).includes(input)) {
      return { problem: "Please choose Landlord, Tenant, Property Investor or Other" };
    }
    return { value: input as UserType };
  },
  message(input) {
    const checked = requiredText(input, "Message", LIMITS.message, `Please keep your message under ${groupedDigits(LIMITS.message)} characters`);
    if ("value" in checked && MESSAGE_FORBIDDEN_CHARACTERS.test(checked.value)) {
      return { problem: "Please remove unsupported characters from your message" };
    }
    return checked;
  },
};

/**
 * Validates a payload and reports one message for the form, as the original
 * did: a missing required field first, then the first other problem. Fields it
 * does not know are ignored.
 */
export function validateEnquiry(input: unknown): EnquiryValidation {
  return validateWith(CHECKS, input);
}

/** A payload checked field by field against `checks`: the values, or one message and the fields it is about. */
export function validateWith<T>(
  checks: Checks<T>,
  input: unknown,
): { success: true; data: T } | { success: false; error: string; fields: Array<keyof T & string> } {
  const fields = Object.keys(checks) as Array<keyof T & string>;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    const required = fields.filter((field) => {
      const checked = checks[field](undefined);
      return "problem" in checked && checked.problem === REQUIRED_MESSAGE;
    });
    return { success: false, error: REQUIRED_MESSAGE, fields: required };
  }
  const record = input as Record<string, unknown>;
  const data: Record<string, unknown> = {};
  const problems: { field: keyof T & string; message: string }[] = [];
  for (const field of fields) {
    // Own properties only: an inherited `name` is not something the sender typed.
    const checked = checks[field](Object.hasOwn(record, field) ? record[field] : undefined);
    if ("problem" in checked) problems.push({ field, message: checked.problem });
    else data[field] = checked.value;
  }
  if (problems.length === 0) return { success: true, data: data as T };
  const required = problems.filter((problem) => problem.message === REQUIRED_MESSAGE);
  const chosen = required.length > 0 ? required : problems;
  return { success: false, error: chosen[0]!.message, fields: chosen.map((problem) => problem.field) };
}

/** What the contact form's action answers, for the form to show. */
export type ContactActionData = { status: "success"; message: string } | { status: "error"; error: string; fields: string[]; values: Record<string, string> };
