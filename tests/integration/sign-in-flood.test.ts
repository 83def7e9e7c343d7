/**
 * A sign-in flood must not lock the owner out (issue 19, decision 037), on
 * each backend, with the built server behind a proxy: wrong passwords from
 * 40 client addresses at once fill the password-hash queue, so other
 * sign-ins are answered 503; a browser that signed in to the account before
 * (its device cookie) has a hash lane of its own and gets in. The dashboard
 * says how many sign-ins were turned away.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TEST_ADMIN, TEST_ADMIN_ENV } from "../support/admin-http";
import { backends } from "../support/backends";
import { assertBuilt } from "../support/server";
import { waitFor } from "../support/wait";
import { useSite } from "../support/sites";
import { visibleText } from "../support/html";

const ATTACKERS = 40;
/** Guesses each address keeps in flight: many times the queue's 2 + 16 places between them all, so it stays full. */
const IN_FLIGHT_PER_ADDRESS = 3;
/** The owner signs in this many times during the flood: each must get in. */
const OWNER_SIGN_INS = 5;

beforeAll(() => assertBuilt());

describe.each(backends)("a sign-in flood on $name", (backend) => {
  // Not signed in yet: the test signs in as the owner's browser did before the flood.
  const site = useSite(backend, { signedIn: false, env: { ...TEST_ADMIN_ENV, TRUST_PROXY: "loopback" } });

  function signIn(fields: { email: string; password: string }, ip: string, cookie?: string): Promise<Response> {
    return fetch(`${site.server.url}/admin/sign-in`, {
      method: "POST",
      redirect: "manual",
      headers: { origin: site.server.url, "x-forwarded-for": ip, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields),
    });
  }

  it("lets a browser that signed in before in with the right password while wrong ones from 40 addresses fill the hash queue", async () => {
    // The owner's browser has signed in before: it carries the device cookie.
    const first = await signIn(TEST_ADMIN, "192.0.2.200");
    expect(first.status).toBe(302);
    const device = first.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("__Host-admin_device="))!
      .split(";")[0]!;

    // The flood: guesses at addresses that have no account (each costs a decoy hash), until told to stop.
    const statuses: number[] = [];
    let flooding = true;
    const attacker = async (address: number, lane: number) => {
      for (let guess = 0; flooding; guess++) {
        const response = await signIn({ email: `guess-${lane}-${guess}@example.com`, password: `wrong password ${guess}` }, `203.0.113.${address}`);
        await response.arrayBuffer();
        statuses.push(response.status);
      }
    };
    const attackers = Array.from({ length: ATTACKERS * IN_FLIGHT_PER_ADDRESS }, (_, i) => attacker(i % ATTACKERS, i));
    try {
      // The queue is full: sign-ins are being turned away as busy.
      await waitFor("a sign-in turned away as busy", () => statuses.includes(503), 30_000);

      const owner: Response[] = [];
      for (let i = 0; i < OWNER_SIGN_INS; i++) {
        owner.push(await signIn(TEST_ADMIN, `192.0.2.${201 + i}`, device));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(owner.map((response) => response.status)).toEqual(Array.from({ length: OWNER_SIGN_INS }, () => 302));
      expect(owner[0]!.headers.get("location")).toBe("/admin");
      const session = owner[0]!.headers
        .getSetCookie()
        .find((cookie) => cookie.startsWith("__Host-admin_session="))!
        .split(";")[0]!;
      // Still flooding: the owner did not slip in through a gap.
      const during = statuses.length;
      await waitFor("more guesses turned away as busy", () => statuses.slice(during).includes(503), 30_000);

      flooding = false;
      await Promise.all(attackers);

      // The dashboard says how many were turned away, and why.
      const dashboard = visibleText(await (await fetch(`${site.server.url}/admin`, { headers: { cookie: session } })).text());
      const busy = statuses.filter((status) => status === 503).length;
      const limited = statuses.filter((status) => status === 429).length;
      expect(dashboard).toContain(
        `Sign-in attempts turned away in the last 24 hours: ${busy} because too many were being checked at once, ${limited} over the sign-in limits; the last at`,
      );
    } finally {
      flooding = false;
      await Promise.allSettled(attackers);
    }
  });
});
