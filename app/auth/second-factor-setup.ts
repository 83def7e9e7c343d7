/**
 * Where a member the owners' requirement catches (second-factor-policy.server.ts:
 * `mustSetUp`) is sent before anything else: their account page, to set up
 * two-step sign-in or a passkey. These paths stay open to them, since the
 * set-up needs them: the account page and its data, its API (passkey
 * registration), and signing out. Everything else under the admin guard
 * sends them there.
 */
export const SECOND_FACTOR_SETUP_PATH = "/admin/account?setup=required";

const OPEN_WHILE_SETTING_UP = [/^\/admin\/account(\/|\.data$|$)/, /^\/api\/admin\/account(\/|$)/, /^\/admin\/sign-out(\.data)?$/];

/** True for the paths a member without a required second factor may still use. */
export function openDuringSetUp(pathname: string): boolean {
  // React Router matches paths case-insensitively, with a trailing slash or not.
  const path = pathname.toLowerCase().replace(/(.)\/$/, "$1");
  return OPEN_WHILE_SETTING_UP.some((pattern) => pattern.test(path));
}
