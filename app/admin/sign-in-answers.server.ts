import { data } from "react-router";
import type { Clock } from "~/platform/fleet/clock.server";
import type { Tally } from "~/platform/limits/tally.server";
import type { SignInFailure } from "./LoginScreen";
import { DASHBOARD_PATH, returnPath } from "./tabs";
import { LOGIN_TEXT } from "./texts";

/** Where a sign-in goes on to: the admin view the form was shown on; only ever one of our pages (no open redirect). */
export function returnTo(value: string | null | undefined): string {
  return returnPath(value ?? undefined) ?? DASHBOARD_PATH;
}

/**
 * A sign-in (by password or by code) the limits or a busy server turned
 * away: 429 or 503 with Retry-After, and a count for the dashboard's banner,
 * without a row each.
 */
export function limitedAnswer(result: { reason: "busy" | "limited"; retryAfterSeconds: number }, tally: Pick<Tally, "count">, clock: Clock, email: string) {
  const busy = result.reason === "busy";
  tally.count(busy ? "sign-in-refused-busy" : "sign-in-refused-limit", clock.now());
  return data<SignInFailure>(
    { error: busy ? LOGIN_TEXT.busy : LOGIN_TEXT.limited, email },
    { status: busy ? 503 : 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
  );
}
