import { groupedDigits } from "~/platform/numbers";
import { BEDROOMS, CALL_TIMES, LET_BY, OCCUPANCY, PROPERTY_TYPES, type ValuationDetails } from "./valuation-details";
import { CHECKS, CONTROL_CHARACTERS, REQUIRED_MESSAGE, requiredText, validateWith, type Checked, type Checks, type Enquiry } from "./schema";

/**
 * A landlord's request for a free rental valuation (issue 22, decision 057):
 * the property's details, checked by one validator in the browser before
 * sending and on the server before storing, like the contact form's
 * (schema.ts). It is stored as an enquiry of the kind "valuation", its
 * details as one JSON text, and shown, exported and e-mailed through
 * valuationRows.
 */

export { BEDROOMS, CALL_TIMES, LET_BY, OCCUPANCY, PROPERTY_TYPES, type ValuationDetails } from "./valuation-details";

/** The form's fields, in its order: the property, then the landlord. */
export type ValuationForm = ValuationDetails & { name: string; email: string; phone: string; message: string };
export type ValuationField = keyof ValuationForm;

export const VALUATION_LIMITS = { address: 300, postcode: 16, message: 5_000 } as const;

export const VALUATION_TEXT = {
  postcode: "Please enter a valid UK postcode, such as SW1A 1AA",
  address: "Please enter the property's address on a single line",
  addressLong: `Please keep the address under ${VALUATION_LIMITS.address} characters`,
  messageLong: `Please keep your note under ${groupedDigits(VALUATION_LIMITS.message)} characters`,
  success: "Thank you! We have your valuation request and will call you to arrange a visit, usually within one working day.",
} as const;

/**
 * The postcode as Royal Mail writes it: capitals, one space before the last
 * three characters ("sw1a1aa" → "SW1A 1AA"); anything else is left for the
 * check to refuse.
 */
export function normalisePostcode(value: string): string {
  const compact = value.replace(/\s+/g, "").toUpperCase();
  return compact.length >= 5 && compact.length <= 7 ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : value.trim().toUpperCase();
}

/**
 * A UK postcode's shape (the outward code's area, district and the inward
 * code, with the letters each position may hold), and GIR 0AA. The shape,
 * not the list of postcodes in use: that would need Royal Mail's file.
 */
const UK_POSTCODE = /^(?:GIR 0AA|[A-PR-UWYZ](?:\d{1,2}|[A-HK-Y]\d{1,2}|\d[A-HJKPSTUW]|[A-HK-Y]\d[ABEHMNPRVWXY]) \d[ABD-HJLNP-UW-Z]{2})$/;

export function isUkPostcode(value: string): boolean {
  return UK_POSTCODE.test(value);
}

/** One of a list's keys; `includes` on the keys, not a property lookup, so "__proto__" is just an unknown value. */
function choice<K extends string>(options: Record<K, string>, problem: string) {
  return (input: unknown): Checked<K> => {
    if (input === undefined || input === null || input === "") return { problem: REQUIRED_MESSAGE };
    return typeof input === "string" && Object.keys(options).includes(input) ? { value: input as K } : { problem };
  };
}

const VALUATION_CHECKS: Checks<ValuationForm> = {
  address(input) {
    const checked = requiredText(input, "Address", VALUATION_LIMITS.address, VALUATION_TEXT.addressLong);
    return "value" in checked && CONTROL_CHARACTERS.test(checked.value) ? { problem: VALUATION_TEXT.address } : checked;
  },
  postcode(input) {
    const checked = requiredText(input, "Postcode", VALUATION_LIMITS.postcode, VALUATION_TEXT.postcode);
    if (!("value" in checked)) return checked;
    const postcode = normalisePostcode(checked.value);
    return isUkPostcode(postcode) ? { value: postcode } : { problem: VALUATION_TEXT.postcode };
  },
  propertyType: choice(PROPERTY_TYPES, "Please choose the type of property from the list"),
  bedrooms: choice(BEDROOMS, "Please choose the number of bedrooms from the list"),
  occupancy: choice(OCCUPANCY, "Please choose whether the property is vacant, let or not yet bought"),
  letBy: choice(LET_BY, "Please choose when you would like the property let"),
  callTime: choice(CALL_TIMES, "Please choose the best time to call you"),
  name: CHECKS.name,
  email: CHECKS.email,
  // We call to arrange the visit: the phone number is required here.
  phone(input) {
    const checked = CHECKS.phone(input);
    return "value" in checked && checked.value === undefined ? { problem: REQUIRED_MESSAGE } : (checked as Checked<string>);
  },
  message(input) {
    if (input === undefined || input === null || (typeof input === "string" && input.trim() === "")) return { value: "" };
    const checked = CHECKS.message(input);
    return "value" in checked && checked.value.length > VALUATION_LIMITS.message ? { problem: VALUATION_TEXT.messageLong } : checked;
  },
};

export type ValuationValidation = { success: true; data: Enquiry } | { success: false; error: string; fields: ValuationField[] };

/** The valuation form's payload as the enquiry it is stored as: a landlord's, with the property's details. */
export function validateValuation(input: unknown): ValuationValidation {
  const checked = validateWith(VALUATION_CHECKS, input);
  if (!checked.success) return checked;
  const { name, email, phone, message, address, postcode, propertyType, bedrooms, occupancy, letBy, callTime } = checked.data;
  return {
    success: true,
    data: { name, email, phone, userType: "landlord", message, valuation: { address, postcode, propertyType, bedrooms, occupancy, letBy, callTime } },
  };
}

/** The details as the card, the CSV and the notification e-mail show them, labelled, in the form's order. */
export function valuationRows(details: ValuationDetails): [label: string, value: string][] {
  const values = [
    details.address,
    details.postcode,
    PROPERTY_TYPES[details.propertyType],
    BEDROOMS[details.bedrooms],
    OCCUPANCY[details.occupancy],
    LET_BY[details.letBy],
    CALL_TIMES[details.callTime],
  ];
  return values.map((value, index) => [VALUATION_DETAIL_LABELS[index]!, value]);
}

/** valuationRows' labels, for a table's header. */
export const VALUATION_DETAIL_LABELS: readonly string[] = [
  "Property address",
  "Postcode",
  "Property type",
  "Bedrooms",
  "Vacant, let or not yet bought",
  "Would like it let",
  "Best time to call",
];

/** The kind's name, as the inbox, the CSV and the e-mail say it. */
export const KIND_LABELS = { contact: "Contact form", valuation: "Valuation request" } as const;

/**
 * The stored JSON read back; undefined when there is none or it is not a
 * valuation's details (a row written by hand): the card then shows none
 * rather than failing.
 */
export function parseValuationDetails(json: string | null): ValuationDetails | undefined {
  if (json === null) return undefined;
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== "object" || value === null) return undefined;
    const details = value as Record<string, unknown>;
    const lists: [keyof ValuationDetails, Record<string, string>][] = [
      ["propertyType", PROPERTY_TYPES],
      ["bedrooms", BEDROOMS],
      ["occupancy", OCCUPANCY],
      ["letBy", LET_BY],
      ["callTime", CALL_TIMES],
    ];
    const sound =
      typeof details.address === "string" &&
      typeof details.postcode === "string" &&
      lists.every(([key, options]) => typeof details[key] === "string" && Object.hasOwn(options, details[key]));
    return sound ? (details as ValuationDetails) : undefined;
  } catch {
    return undefined;
  }
}
