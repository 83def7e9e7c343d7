import { describe, expect, it } from "vitest";
import { openDuringSetUp } from "./second-factor-setup";

describe("the paths open to a member who must set up a second factor", () => {
  it("are the account page, its data and API, and signing out", () => {
    for (const open of [
      "/admin/account",
      "/admin/account.data",
      "/Admin/Account/",
      "/admin/account/passkeys",
      "/api/admin/account/passkeys",
      "/admin/sign-out",
      "/admin/sign-out.data",
    ]) {
      expect(openDuringSetUp(open), open).toBe(true);
    }
  });

  it("are nothing else, however spelt", () => {
    for (const closed of [
      "/admin",
      "/admin/enquiries",
      "/admin/accounts",
      "/admin/account-x",
      "/api/admin/enquiries",
      "/admin/enquiries.csv",
      "/admin.data",
      "/admin/sign-outx",
    ]) {
      expect(openDuringSetUp(closed), closed).toBe(false);
    }
  });
});
