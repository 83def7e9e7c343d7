import { describe, expect, it } from "vitest";
import { clearedPendingSignInCookie, pendingSignInCookie, PENDING_SIGN_IN_MS, readPendingSignInToken } from "./pending-sign-in.server";

const TOKEN = "a".repeat(43);

function requestWith(cookie: string): Request {
  return new Request("https://example.com/admin/sign-in", { headers: { cookie } });
}

describe("the pending sign-in cookie", () => {
  it("is HttpOnly, SameSite=Strict, five minutes, and __Host- and Secure on a secure site", () => {
    const secure = pendingSignInCookie(TOKEN, { secure: true });
    expect(secure).toMatch(/^__Host-admin_pending_sign_in=a{43};/);
    expect(secure).toMatch(/Max-Age=300/);
    expect(PENDING_SIGN_IN_MS).toBe(300_000);
    for (const attribute of ["HttpOnly", "Secure", "SameSite=Strict", "Path=/"]) expect(secure).toContain(attribute);
    expect(pendingSignInCookie(TOKEN, { secure: false })).not.toContain("Secure");
    expect(clearedPendingSignInCookie({ secure: true })).toMatch(/^__Host-admin_pending_sign_in=;.*Max-Age=0/);
  });

  it("is read back only when well formed", () => {
    expect(readPendingSignInToken(requestWith(`__Host-admin_pending_sign_in=${TOKEN}`), { secure: true })).toBe(TOKEN);
    expect(readPendingSignInToken(requestWith(`admin_pending_sign_in=${TOKEN}`), { secure: true })).toBeUndefined();
    expect(readPendingSignInToken(requestWith("__Host-admin_pending_sign_in=short"), { secure: true })).toBeUndefined();
    expect(readPendingSignInToken(new Request("https://example.com/"), { secure: true })).toBeUndefined();
  });
});
