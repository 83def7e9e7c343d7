import { describe, expect, it } from "vitest";
import { can } from "~/auth/roles";
import { movedTabAddress, returnPath, tabOfPath, tabsAllowed } from "./tabs";

const moved = (address: string) => movedTabAddress(new URL(address, "http://127.0.0.1"));

describe("the dashboard's old ?tab= addresses", () => {
  it("move to the tab's own address, the rest of the query kept in its order", () => {
    expect(moved("/admin?tab=contacts")).toBe("/admin/enquiries");
    expect(moved("/admin?tab=contacts&filter=unread")).toBe("/admin/enquiries?filter=unread");
    expect(moved("/admin?filter=spam&tab=contacts&q=boiler&page=2")).toBe("/admin/enquiries?filter=spam&q=boiler&page=2");
    expect(moved("/admin?tab=projects&edit=0f0e")).toBe("/admin/projects?edit=0f0e");
    expect(moved("/admin?tab=contacts&q=zebra_%25")).toBe("/admin/enquiries?q=zebra_%25");
  });

  it("lead to the first tab for a value that never was a tab, as the old page showed", () => {
    for (const value of ["", "website", "__proto__", "constructor", "Contacts"]) expect(moved(`/admin?tab=${value}`), value).toBe("/admin/projects");
  });

  it("lead a member whose role has no Renovation Projects to their own first tab for such a value, the known ones as ever", () => {
    const address = (value: string) => movedTabAddress(new URL(`/admin?tab=${value}&q=x`, "http://127.0.0.1"), "enquiries");
    expect(address("nonsense")).toBe("/admin/enquiries?q=x");
    expect(address("projects")).toBe("/admin/projects?q=x");
    expect(address("contacts")).toBe("/admin/enquiries?q=x");
  });

  it("leave an address without ?tab= alone", () => {
    expect(moved("/admin")).toBeUndefined();
    expect(moved("/admin?form=new")).toBeUndefined();
  });
});

describe("the tab a path shows", () => {
  it("is the first for /admin, its own for /admin/<tab>, in any spelling React Router matches", () => {
    expect(tabOfPath("/admin")).toBe("projects");
    expect(tabOfPath("/admin/")).toBe("projects");
    expect(tabOfPath("/admin/enquiries")).toBe("enquiries");
    expect(tabOfPath("/ADMIN/Website")).toBe("website");
    expect(tabOfPath("/%61dmin/enquiries")).toBe("enquiries");
    expect(tabOfPath("/admin/team")).toBe("team");
  });

  it("is the Team tab on its Audit log, a page of the tab", () => {
    expect(tabOfPath("/admin/team/audit")).toBe("team");
    expect(tabOfPath("/Admin/Team/Audit/")).toBe("team");
  });

  it("is none for any other page", () => {
    for (const path of [
      "/",
      "/admin/data-requests",
      "/admin/enquiries.csv",
      "/admin/website/preview",
      "/admin/team/audit.csv",
      "/admin/team/other",
      "/admin/join",
      "/admin/%E0%A4%A",
      "/adminx",
    ]) {
      expect(tabOfPath(path), path).toBeUndefined();
    }
  });
});

describe("where signing in returns to", () => {
  it("is the dashboard, a tab or the data requests, with their query", () => {
    for (const path of [
      "/admin",
      "/admin/projects?form=new",
      "/admin/enquiries?filter=unread&q=boiler",
      "/admin/website?section=legal",
      "/admin/data-requests?email=a%40b.example",
      "/admin/team",
      "/admin/team/audit?person=0f0e&kind=sign-in&from=2026-11-01",
    ]) {
      expect(returnPath(path), path).toBe(path);
    }
  });

  it("is never another page or another site", () => {
    for (const path of [
      undefined,
      "",
      "/admin/sign-out",
      "/admin/join?token=abc",
      "/admin/team/audit.csv",
      "/admin/enquiriesx",
      "//evil.example/admin",
      "https://evil.example/admin",
      "/admin/../evil",
      "/admin?x=<script>",
      "/admin#top",
    ]) {
      expect(returnPath(path), String(path)).toBeUndefined();
    }
  });
});

describe("the tabs of a role", () => {
  it("are those its permissions allow, in the page's order", () => {
    expect(tabsAllowed((permission) => can("owner", permission))).toEqual(["projects", "enquiries", "website", "team"]);
    expect(tabsAllowed((permission) => can("editor", permission))).toEqual(["projects", "website"]);
    expect(tabsAllowed((permission) => can("enquiries", permission))).toEqual(["enquiries"]);
  });
});
