import { describe, expect, it } from "vitest";
import { passkeyErrorMessage, PASSKEY_TEXT } from "./passkey-client";

describe("passkeyErrorMessage", () => {
  it("turns the browser's refusals into sentences a person can act on", () => {
    expect(passkeyErrorMessage({ name: "NotAllowedError" })).toBe(PASSKEY_TEXT.cancelled);
    expect(passkeyErrorMessage({ code: "ERROR_CEREMONY_ABORTED", name: "AbortError" })).toBe(PASSKEY_TEXT.cancelled);
    expect(passkeyErrorMessage({ code: "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED", name: "InvalidStateError" })).toBe(PASSKEY_TEXT.alreadyAdded);
    expect(passkeyErrorMessage({ code: "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT" })).toBe(PASSKEY_TEXT.noVerification);
  });

  it("says something useful for anything else, never the raw error", () => {
    for (const error of [new Error("boom"), null, "string", { code: "ERROR_INVALID_DOMAIN", message: "internal detail" }]) {
      expect(passkeyErrorMessage(error)).toBe(PASSKEY_TEXT.failed);
    }
  });
});
