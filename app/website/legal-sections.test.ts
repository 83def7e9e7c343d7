import { describe, expect, it } from "vitest";
import type { MemberActor } from "~/audit/actor";
import { siteDefaults } from "./content";
import { LEGAL_DETAILS_TEXT, LEGAL_SECTIONS, changesLegalDetails, mayChangeLegalDetails } from "./legal-sections";

const OWNER: MemberActor = { kind: "member", id: "a", email: "owner@example.com", role: "owner", ip: "127.0.0.1" };

describe("the sections only an owner may change", () => {
  it("are the ones whose module says so: Fees, Legal details and Policies", () => {
    expect(LEGAL_SECTIONS).toEqual(["fees", "legal", "policies"]);
    expect(LEGAL_DETAILS_TEXT.ownersOnly).toBe("Only an owner can change the Fees, Legal details and Policies sections.");
    expect(LEGAL_DETAILS_TEXT.draftHasLegalChanges).toBe(
      "The draft changes the Fees, Legal details or Policies sections, which only an owner can publish, schedule or discard. Ask an owner.",
    );
  });

  it("are changed only when one of them differs", () => {
    const before = siteDefaults();
    expect(changesLegalDetails(before, { ...before, hero: { ...before.hero, headline: "Another headline" } })).toBe(false);
    expect(changesLegalDetails(before, { ...before, legal: { ...before.legal, companyNumber: "01234567" } })).toBe(true);
  });

  it("may be changed by an owner and the server's own work, not by an Editor", () => {
    expect(mayChangeLegalDetails(OWNER)).toBe(true);
    expect(mayChangeLegalDetails({ ...OWNER, role: "editor" })).toBe(false);
    expect(mayChangeLegalDetails({ kind: "system", job: "scheduled publish" })).toBe(true);
  });
});
