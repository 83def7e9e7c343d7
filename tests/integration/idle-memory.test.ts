/**
 * Memory given back once a burst is over (issue 19, point 5; decision 071): after
 * a load, once the server has been idle for a few seconds, it asks V8 for one
 * memory-reducing collection (its own memory reducer took the idle server for a
 * busy one and kept the pages the load grew). The figures are the bench's
 * (`--only=contact,footprint`); this checks the server does it, and once.
 */
import { afterAll, expect, it } from "vitest";
import { postJson, validEnquiry } from "../support/enquiries";
import { startServer, type SpawnedServer } from "../support/server";
import { makeTempDir, removeTempDir } from "../support/temp";
import { waitFor } from "../support/wait";

let server: SpawnedServer | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  await server?.stop();
  if (dataDir) await removeTempDir(dataDir);
});

const RELEASED = "Idle after a burst: memory given back";
const releases = (running: SpawnedServer) =>
  running
    .stdout()
    .split("\n")
    .filter((line) => line.includes(RELEASED))
    .map((line) => JSON.parse(line) as { rssBefore: number; rssAfter: number });

it("gives back what a burst of enquiries grew once it is idle, and only once", async () => {
  dataDir = await makeTempDir("idle-memory-");
  server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "debug", CONTACT_RATE_LIMIT: "1000000", CONTACT_SITE_LIMIT: "1000000" });
  const { url } = server;

  let sent = 0;
  await Promise.all(
    Array.from({ length: 20 }, async () => {
      while (sent < 1_500) {
        const n = sent++;
        const response = await postJson(url, { ...validEnquiry, email: `visitor${n}@example.com` });
        expect(response.status).toBe(201);
      }
    }),
  );
  expect(releases(server), "not while the burst runs").toEqual([]);

  await waitFor("the server to give memory back", () => releases(server!).length > 0, 20_000);
  const [released] = releases(server);
  expect(released!.rssAfter).toBeLessThan(released!.rssBefore);

  // Idle from here on: nothing more to give back.
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  expect(releases(server)).toHaveLength(1);
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
}, 90_000);
