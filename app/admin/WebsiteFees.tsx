import type { SiteContent } from "~/website/content";
import { FEE_BASES, FEE_BASIS_LABELS, VAT_STATEMENTS, feeRowFields, tenantFeeWarning } from "~/website/sections/fees";
import { WebsiteField } from "./WebsiteField";

const LISTS = [
  { list: "landlord", heading: "Fees to landlords" },
  { list: "tenant", heading: "Fees to tenants" },
] as const;

/**
 * The Fees section: how VAT applies, and every fee to landlords and to
 * tenants (Consumer Rights Act 2015 s.83), each with its amount including
 * VAT, its basis, what it covers and how it is calculated. A tenant fee that
 * looks like one the Tenant Fees Act 2019 bans carries a warning.
 */
export function WebsiteFees({ content, values, errors }: { content: SiteContent; values: Record<string, string>; errors: Record<string, string> }) {
  const vat = values["fees.vatStatus"] ?? content.fees.vatStatus;
  return (
    <>
      <fieldset className="sm:col-span-2" aria-describedby={errors["fees.vatStatus"] ? "fees-vat-error" : "fees-vat-hint"}>
        <legend className="text-sm font-medium text-slate-800">VAT on your prices</legend>
        <p id="fees-vat-hint" className="mt-1 text-sm text-slate-600">
          Said beside your plans and on the fees page, so “No VAT Added” cannot be misread.
        </p>
        <div className="mt-2 flex flex-col gap-2">
          {([["", "Not chosen yet"], ...Object.entries(VAT_STATEMENTS)] as Array<[string, string]>).map(([value, label]) => (
            <label key={value || "none"} className="inline-flex items-center gap-2 text-slate-800">
              <input type="radio" name="fees.vatStatus" value={value} defaultChecked={vat === value} className="size-4 accent-blue-700" />
              {label}
            </label>
          ))}
        </div>
        {errors["fees.vatStatus"] ? (
          <p id="fees-vat-error" className="mt-1 text-sm text-red-800">
            {errors["fees.vatStatus"]}
          </p>
        ) : null}
      </fieldset>
      {LISTS.map(({ list, heading }) => (
        <fieldset key={list} className="space-y-4 sm:col-span-2">
          <legend className="text-lg font-semibold text-slate-900">{heading}</legend>
          {Array.from({ length: content.fees[list].length + 1 }, (_, index) => {
            const adding = index === content.fees[list].length;
            const prefix = `fees.${list}.${index}`;
            const fields = feeRowFields(list, index);
            const warning =
              list === "tenant" ? tenantFeeWarning({ name: values[`${prefix}.name`] ?? "", covers: values[`${prefix}.covers`] ?? "" }) : undefined;
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row is its position (its fields are named fees.<list>.<index>); the form remounts on each saved revision.
              <div key={index} className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-2">
                <p className="text-sm font-semibold text-slate-800 sm:col-span-2">
                  {adding ? `Add a ${list} fee` : `${list === "landlord" ? "Landlord" : "Tenant"} fee ${index + 1}`}
                </p>
                {fields.map((spec) => (
                  <WebsiteField key={spec.name} spec={spec} value={values[spec.name] ?? ""} error={errors[spec.name]} />
                ))}
                <div>
                  <label htmlFor={`field-${prefix.replace(/\./g, "-")}-basis`} className="block text-sm font-medium text-slate-800">
                    Charged
                  </label>
                  <select
                    id={`field-${prefix.replace(/\./g, "-")}-basis`}
                    name={`${prefix}.basis`}
                    defaultValue={values[`${prefix}.basis`] ?? (list === "tenant" ? "per-tenant" : "per-property")}
                    className="mt-1 block w-full rounded-lg border border-slate-500 bg-white px-3 py-2 text-slate-900 focus:border-blue-700 focus:outline-2 focus:outline-offset-0 focus:outline-blue-700"
                  >
                    {FEE_BASES.map((basis) => (
                      <option key={basis} value={basis}>
                        {FEE_BASIS_LABELS[basis]}
                      </option>
                    ))}
                  </select>
                </div>
                {adding ? null : (
                  <label className="inline-flex items-center gap-2 self-end text-slate-800">
                    <input type="checkbox" name={`${prefix}.remove`} defaultChecked={values[`${prefix}.remove`] === "on"} className="size-4 accent-red-700" />
                    Remove this fee
                  </label>
                )}
                {warning ? (
                  <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 ring-1 ring-amber-300 sm:col-span-2">
                    <strong className="font-semibold">Check this fee:</strong> {warning}
                  </p>
                ) : null}
              </div>
            );
          })}
        </fieldset>
      ))}
    </>
  );
}
