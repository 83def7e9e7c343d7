import { describe, expect, it } from "vitest";
import { WEBSITE_TEXT, parseSection, sectionValues, siteDefaults, type SiteContent } from "../content";
import { TENANT_FEE_WARNING, tenantFeeWarning } from "./fees";

const DEFAULTS = siteDefaults();

const WITH_FEE: SiteContent = {
  ...DEFAULTS,
  fees: {
    vatStatus: "included",
    landlord: [
      {
        name: "Tenant find",
        amountPence: 60_000,
        basis: "per-property",
        covers: "Finding and referencing a tenant.",
        calculation: "Once, at the start of each tenancy.",
      },
    ],
    tenant: [],
  },
};

const save = (change: Record<string, string>, current = WITH_FEE) => parseSection("fees", { ...sectionValues("fees", current), ...change }, current);

describe("the tenant fee warning", () => {
  it.each(["Referencing fee", "Admin fee", "Administration charge", "Inventory check", "Viewing fee", "Check-out clean", "Tenancy set-up fee", "Renewal fee"])(
    "warns of %s",
    (name) => expect(tenantFeeWarning({ name, covers: "" })).toBe(TENANT_FEE_WARNING),
  );
  it.each(["Holding deposit", "Tenancy deposit", "Change of sharer", "Replacement key", "Late rent interest", "Early termination"])("leaves %s alone", (name) =>
    expect(tenantFeeWarning({ name, covers: "As the Tenant Fees Act 2019 permits." })).toBeUndefined(),
  );
});

describe("the Fees section", () => {
  it("adds a fee typed in the empty row, and removes one ticked Remove", () => {
    const parsed = save({
      "fees.landlord.0.remove": "on",
      "fees.tenant.0.name": "Change of sharer",
      "fees.tenant.0.amount": "£50",
      "fees.tenant.0.basis": "per-tenant",
      "fees.tenant.0.covers": "Changing a tenant at your request.",
      "fees.tenant.0.calculation": "Once per change.",
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.content.fees).toEqual({
      vatStatus: "included",
      landlord: [],
      tenant: [
        { name: "Change of sharer", amountPence: 5000, basis: "per-tenant", covers: "Changing a tenant at your request.", calculation: "Once per change." },
      ],
    });
  });

  it("refuses a fee emptied without Remove, an amount that is not one, and a VAT status not in the list", () => {
    const emptied = save({ "fees.landlord.0.name": "", "fees.landlord.0.amount": "", "fees.landlord.0.covers": "", "fees.landlord.0.calculation": "" });
    expect(emptied.ok ? {} : emptied.errors).toEqual({ "fees.landlord.0.name": WEBSITE_TEXT.feeIncomplete });
    const refused = save({ "fees.landlord.0.amount": "six hundred", "fees.vatStatus": "maybe" });
    expect(refused.ok ? {} : refused.errors).toEqual({
      "fees.landlord.0.amount": WEBSITE_TEXT.price("Landlord fee 1 amount"),
      "fees.vatStatus": WEBSITE_TEXT.vatStatus,
    });
  });

  it("keeps an unknown basis out: a fee is charged per property unless per tenant", () => {
    const parsed = save({ "fees.landlord.0.basis": "__proto__" });
    expect(parsed.ok && parsed.content.fees.landlord[0]!.basis).toBe("per-property");
  });
});
