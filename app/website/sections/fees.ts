import { FIELD_TEXT, type FieldSpec, type Section } from "../fields";
import { penceFrom, priceFieldValue } from "../price";

/** A fee as the fees page lists it (Consumer Rights Act 2015 s.83): its amount includes VAT. */
export type SiteFee = {
  name: string;
  /** Including VAT, in whole pence. */
  amountPence: number;
  basis: FeeBasis;
  /** What the fee covers. */
  covers: string;
  /** How it is worked out ("once, at the start of each tenancy", "10% of the monthly rent"). */
  calculation: string;
};
export const FEE_BASES = ["per-property", "per-tenant"] as const;
export type FeeBasis = (typeof FEE_BASES)[number];
export const FEE_BASIS_LABELS: Record<FeeBasis, string> = { "per-property": "Per property", "per-tenant": "Per tenant" };

/** How VAT applies to the prices shown: chosen by the company ("" until it chooses). */
export const VAT_STATUSES = ["", "included", "not-registered"] as const;
export type VatStatus = (typeof VAT_STATUSES)[number];
export const VAT_STATEMENTS: Record<Exclude<VatStatus, "">, string> = {
  included: "All prices include VAT.",
  "not-registered": "We are not VAT registered, so no VAT is added to our prices.",
};

export type SiteFees = { vatStatus: VatStatus; landlord: SiteFee[]; tenant: SiteFee[] };

const LISTS = ["landlord", "tenant"] as const;
type FeeList = (typeof LISTS)[number];
export const MAX_FEES = 20;

export const FEES_TEXT = {
  tooManyFees: (max: number) => `At most ${max} fees in each list.`,
  feeIncomplete: "Please give the fee a name, an amount, what it covers and how it is calculated, or tick Remove.",
  vatStatus: "Please choose how VAT applies to your prices.",
} as const;

/** True once the company has listed a fee: /fees is linked and in the sitemap. */
export function hasFees(fees: SiteFees): boolean {
  return fees.landlord.length + fees.tenant.length > 0;
}

/**
 * Tenant fees (Tenant Fees Act 2019, Schedule 1): only rent, a refundable
 * deposit, a holding deposit, changes the tenant asks for, ending a tenancy
 * early, utilities and council tax, and default fees are permitted. These
 * names are the usual banned ones; the editor warns, the law decides.
 */
const BANNED_TENANT_FEE = /referenc|\badmin|inventor|viewing|check[\s-]?(in|out)\b|set[\s-]?up|credit check|renewal|application fee|signing fee/i;

export const TENANT_FEE_WARNING =
  "This looks like a fee the Tenant Fees Act 2019 bans (such as referencing, administration, inventory or viewing fees). Tenants may only be charged rent, a refundable deposit, a holding deposit, changes they ask for (up to £50), ending a tenancy early, utilities and council tax, and default fees for lost keys or rent more than 14 days late.";

export function tenantFeeWarning(fee: Pick<SiteFee, "name" | "covers">): string | undefined {
  return BANNED_TENANT_FEE.test(`${fee.name} ${fee.covers}`) ? TENANT_FEE_WARNING : undefined;
}

/** "Landlord fee 2": how the form names a fee. */
const feeLabel = (list: FeeList, index: number) => `${list === "landlord" ? "Landlord" : "Tenant"} fee ${index + 1}`;

/** One fee row's fields (`list` landlord or tenant, `index` its place; the row after the last adds a fee). */
export function feeRowFields(list: FeeList, index: number): FieldSpec[] {
  const prefix = `fees.${list}.${index}`;
  const which = feeLabel(list, index);
  return [
    { name: `${prefix}.name`, label: `${which}: name`, max: 80, required: false },
    { name: `${prefix}.amount`, label: `${which}: amount including VAT (£)`, max: 12, required: false, hint: "In pounds, such as 95 or 79.50." },
    { name: `${prefix}.covers`, label: `${which}: what it covers`, max: 300, required: false, multiline: true },
    { name: `${prefix}.calculation`, label: `${which}: how it is calculated`, max: 200, required: false },
  ];
}

/** The tab has its own screen (app/admin/WebsiteFees.tsx): the VAT choice, each list's rows with Charged and Remove. */
export const section: Section<"fees", SiteFees> = {
  label: "Fees",
  // The fees on /fees: Consumer Rights Act 2015 s.83.
  ownerOnly: true,
  defaults: () => ({ vatStatus: "", landlord: [], tenant: [] }),
  fields: ({ fees }) => LISTS.flatMap((list) => fees[list].flatMap((_, index) => feeRowFields(list, index)).concat(feeRowFields(list, fees[list].length))),
  values: ({ fees }) => {
    const values: Record<string, string> = Object.create(null);
    values["fees.vatStatus"] = fees.vatStatus;
    for (const list of LISTS) {
      fees[list].forEach((fee, index) => {
        const prefix = `fees.${list}.${index}`;
        values[`${prefix}.name`] = fee.name;
        values[`${prefix}.amount`] = priceFieldValue(fee.amountPence);
        values[`${prefix}.basis`] = fee.basis;
        values[`${prefix}.covers`] = fee.covers;
        values[`${prefix}.calculation`] = fee.calculation;
      });
    }
    return values;
  },
  parse: ({ get, raw, errors, values }, current) => {
    const vatStatus = raw("fees.vatStatus");
    values["fees.vatStatus"] = vatStatus;
    if (!(VAT_STATUSES as readonly string[]).includes(vatStatus)) errors["fees.vatStatus"] = FEES_TEXT.vatStatus;
    const lists = { landlord: [] as SiteFee[], tenant: [] as SiteFee[] };
    for (const list of LISTS) {
      for (let index = 0; index <= current.fees[list].length; index++) {
        const prefix = `fees.${list}.${index}`;
        const basis = raw(`${prefix}.basis`);
        values[`${prefix}.basis`] = basis;
        if (raw(`${prefix}.remove`) !== "") {
          values[`${prefix}.remove`] = "on";
          continue;
        }
        const row = ["name", "amount", "covers", "calculation"].map((part) => get(`${prefix}.${part}`));
        // The empty row at the end adds a fee only when something is typed in it.
        if (row.every((part) => part === "")) {
          if (index < current.fees[list].length && !errors[`${prefix}.name`]) errors[`${prefix}.name`] = FEES_TEXT.feeIncomplete;
          continue;
        }
        const [name, amount, covers, calculation] = row as [string, string, string, string];
        const pence = penceFrom(amount);
        if ((name === "" || covers === "" || calculation === "" || amount === "") && !errors[`${prefix}.name`])
          errors[`${prefix}.name`] = FEES_TEXT.feeIncomplete;
        else if (pence === undefined && !errors[`${prefix}.amount`]) errors[`${prefix}.amount`] = FIELD_TEXT.price(`${feeLabel(list, index)} amount`);
        lists[list].push({ name, amountPence: pence ?? 0, basis: basis === "per-tenant" ? "per-tenant" : "per-property", covers, calculation });
      }
      if (lists[list].length > MAX_FEES) errors[`fees.${list}.0.name`] = FEES_TEXT.tooManyFees(MAX_FEES);
    }
    return { fees: { vatStatus: vatStatus as VatStatus, ...lists } };
  },
};
