import { describe, expect, it } from "vitest";
import { PERMISSIONS, ROLES, ROLE_LABELS, can, permissionsOf, takesAway } from "./roles";

describe("roles", () => {
  it("are named Owner, Editor and Enquiries", () => {
    expect(ROLES.map((role) => ROLE_LABELS[role])).toEqual(["Owner", "Editor", "Enquiries"]);
  });

  it("grant what issue 21 says, and nothing more", () => {
    expect(permissionsOf("owner")).toEqual([...PERMISSIONS]);
    expect(permissionsOf("editor")).toEqual(["projects", "website"]);
    expect(permissionsOf("enquiries")).toEqual(["enquiries", "enquiries-export", "data-requests"]);
    // The legal details, the team, the audit log and the enquiries' settings (decision 059) are an owner's alone.
    for (const permission of ["legal-details", "team", "audit-log", "enquiry-settings"] as const) {
      expect(ROLES.filter((role) => can(role, permission))).toEqual(["owner"]);
    }
  });

  it("say which changes of role take something away (those end the member's sessions)", () => {
    expect(takesAway("owner", "editor")).toBe(true);
    expect(takesAway("editor", "enquiries")).toBe(true);
    expect(takesAway("enquiries", "editor")).toBe(true);
    expect(takesAway("editor", "owner")).toBe(false);
    expect(takesAway("enquiries", "owner")).toBe(false);
  });
});
