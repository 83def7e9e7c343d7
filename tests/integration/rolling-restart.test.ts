/**
 * A rolling restart under load (issue 16, decision 032): two instances on one
 * PostgreSQL database behind a round-robin balancer that follows /readyz and
 * never retries; each instance is stopped (SIGTERM) and started again in
 * turn while clients keep reading pages and sending enquiries. Not one
 * request fails and every acknowledged enquiry is stored. The instances run
 * under `npm start` and each stop signals the whole process group, as systemd
 * and `docker stop` do: the server gets SIGTERM from the kill and, unless the
 * two arrive together and merge, npm's forwarded copy too (decision 038).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/platform/db/db.server";
import { backends } from "../support/backends";
import { startBalancer, type Balancer } from "../support/balancer";
import { validEnquiry } from "../support/enquiries";
import { startFleet, type Fleet } from "../support/fleet";
import { assertBuilt } from "../support/server";
import { waitFor } from "../support/wait";

beforeAll(() => assertBuilt());

/** Starting instances one after another on a busy 2-core machine. */
const FLEET_START_MS = 180_000;

/** Long enough for the balancer (checking every 100 ms) to see /readyz at 503 on a busy machine. */
const DRAIN_MS = 2_000;
const CLIENTS = 4;

describe.each(backends.filter((backend) => backend.name === "postgres"))("a rolling restart of two instances on $name", () => {
  let fleet: Fleet;
  let balancer: Balancer;
  let reader: Database;

  beforeAll(async () => {
    fleet = await startFleet({
      size: 2,
      env: { SHUTDOWN_DRAIN_MS: String(DRAIN_MS), CONTACT_RATE_LIMIT: "1000000", CONTACT_SITE_LIMIT: "1000000" },
      launch: "npm",
      migrated: true,
    });
    // An instance comes back on its port, where the balancer expects it.
    balancer = await startBalancer(fleet.instances.map((instance) => instance.url));
    reader = fleet.reader();
  }, FLEET_START_MS);

  afterAll(async () => {
    await balancer?.close();
    await fleet?.stop();
  });

  it("answers every request and keeps every enquiry while each instance restarts in turn", async () => {
    const failures: string[] = [];
    const acknowledged: string[] = [];
    let requests = 0;
    let running = true;

    const client = async (n: number) => {
      for (let i = 0; running; i++) {
        const sendEnquiry = i % 2 === 1;
        requests++;
        try {
          const response = sendEnquiry
            ? await fetch(`${balancer.url}/api/contact`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ ...validEnquiry, message: `Rolling restart, client ${n}, enquiry ${i}` }),
              })
            : await fetch(`${balancer.url}/`);
          const body = await response.text();
          if (response.status !== (sendEnquiry ? 201 : 200)) {
            failures.push(`${sendEnquiry ? "POST /api/contact" : "GET /"}: ${response.status} ${body.slice(0, 200)}`);
          } else if (sendEnquiry) {
            acknowledged.push((JSON.parse(body) as { id: string }).id);
          }
        } catch (error) {
          failures.push(`${sendEnquiry ? "POST /api/contact" : "GET /"}: ${(error as Error).message} ${String((error as Error).cause ?? "")}`);
        }
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));

    for (const [index, instance] of [...fleet.instances].entries()) {
      const servedBefore = balancer.served.get(instance.url)!;
      await waitFor(`instance ${index} to serve some of the load`, () => balancer.served.get(instance.url)! > servedBefore + 20, 30_000);
      const { stopped, exit, restarted } = await fleet.restart(index);
      expect(exit).toEqual({ code: 0, signal: null });
      expect(stopped.stdout()).toContain("/readyz answers 503");
      const servedAgain = balancer.served.get(restarted.url)!;
      await waitFor(`instance ${index} to be back in the balancer`, () => balancer.served.get(restarted.url)! > servedAgain + 20, 30_000);
    }
    running = false;
    await load;

    console.log(`rolling restart: ${requests} requests, ${acknowledged.length} enquiries acknowledged, ${failures.length} failed`);
    expect(failures).toEqual([]);
    expect(acknowledged.length).toBeGreaterThan(0);
    const stored = new Set((await reader.db.selectFrom("contact_submissions").select("id").execute()).map((row) => row.id));
    expect(acknowledged.filter((id) => !stored.has(id))).toEqual([]);
  }, 180_000);
});
