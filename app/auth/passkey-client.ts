import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";

/**
 * The browser's half of passkeys, for the account page and the sign-in form
 * (they load it only when a button is pressed): @simplewebauthn/browser
 * asks the browser, and every failure becomes a sentence a person can act
 * on. The server's half is passkeys.server.ts.
 */
export type BrowserAnswer<T> = { ok: true; response: T } | { ok: false; message: string };

export const PASSKEY_TEXT = {
  unsupported: "This browser cannot use passkeys. Sign in with your password instead, or use another browser.",
  cancelled: "No passkey was used: the request was cancelled or timed out. Try again when you are ready.",
  alreadyAdded: "This passkey is added already: it is in your list of passkeys.",
  noVerification: "This authenticator cannot check who you are (a PIN, fingerprint or face). Use one that can.",
  failed: "The browser could not use a passkey. Try again, or use your password.",
} as const;

/** The sentence for an error from @simplewebauthn/browser (a WebAuthnError's code, or the DOMException's name). */
export function passkeyErrorMessage(error: unknown): string {
  const { code, name } = (typeof error === "object" && error !== null ? error : {}) as { code?: unknown; name?: unknown };
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError") return PASSKEY_TEXT.alreadyAdded;
  if (code === "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT") return PASSKEY_TEXT.noVerification;
  if (code === "ERROR_CEREMONY_ABORTED" || name === "NotAllowedError" || name === "AbortError") return PASSKEY_TEXT.cancelled;
  return PASSKEY_TEXT.failed;
}

async function ask<T>(work: () => Promise<T>): Promise<BrowserAnswer<T>> {
  if (!browserSupportsWebAuthn()) return { ok: false, message: PASSKEY_TEXT.unsupported };
  try {
    return { ok: true, response: await work() };
  } catch (error) {
    return { ok: false, message: passkeyErrorMessage(error) };
  }
}

/** Makes a new passkey from the server's registration options; post the response to be verified. */
export function createPasskeyInBrowser(optionsJSON: PublicKeyCredentialCreationOptionsJSON) {
  return ask(() => startRegistration({ optionsJSON }));
}

/** Signs the server's challenge with a passkey the person chooses; post the response to sign in. */
export function usePasskeyInBrowser(optionsJSON: PublicKeyCredentialRequestOptionsJSON) {
  return ask(() => startAuthentication({ optionsJSON }));
}
