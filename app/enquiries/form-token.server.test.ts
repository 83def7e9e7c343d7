import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { migrateToLatest, type Database } from "~/platform/db/db.server";
import { backends, type TestDatabase } from "../../tests/support/backends";
import { createSecrets } from "~/platform/db/secrets.server";
import { formTokensOf } from "../../tests/support/form-tokens";
import { MIN_FORM_AGE_MS, checkFormToken, issuedAtSeconds, signFormToken } from "./form-token.server";

const key = randomBytes(32);
const renderedAt = new Date("2025-06-01T12:00:00.000Z");
const later = (ms: number) => new Date(renderedAt.getTime() + ms);

describe("the form token", () => {
  it("has the form <issued-at seconds>.<HMAC-SHA256 base64url>", () => {
    expect(signFormToken(key, renderedAt)).toMatch(/^1748779200\.[A-Za-z0-9_-]{43}$/);
  });

  it("rounds the issued-at time up to the next whole second", () => {
    expect(issuedAtSeconds(new Date("2025-06-01T12:00:00.000Z"))).toBe(1748779200);
    expect(issuedAtSeconds(new Date("2025-06-01T12:00:00.001Z"))).toBe(1748779201);
    expect(issuedAtSeconds(new Date("2025-06-01T12:00:00.999Z"))).toBe(1748779201);
    // So one token for every render within the same second: the cached page changes at most once a second.
    expect(signFormToken(key, later(1))).toBe(signFormToken(key, later(1000)));
  });

  it("passes once the form is at least 3 seconds old, and stays good for days", () => {
    const token = signFormToken(key, renderedAt);
    expect(checkFormToken(key, token, later(MIN_FORM_AGE_MS))).toBe("ok");
    expect(checkFormToken(key, token, later(3 * 24 * 60 * 60 * 1000))).toBe("ok");
  });

  it("is too fast under 3 seconds, counted from the rounded-up time", () => {
    expect(checkFormToken(key, signFormToken(key, renderedAt), later(MIN_FORM_AGE_MS - 1))).toBe("too-fast");
    expect(checkFormToken(key, signFormToken(key, renderedAt), renderedAt)).toBe("too-fast");
    // Rendered at .001 s, issued as the next second: 3 s later it is still 1 ms short.
    const token = signFormToken(key, later(1));
    expect(checkFormToken(key, token, later(1 + MIN_FORM_AGE_MS))).toBe("too-fast");
    expect(checkFormToken(key, token, later(1000 + MIN_FORM_AGE_MS))).toBe("ok");
  });

  it("is missing when absent or empty", () => {
    for (const token of [undefined, null, ""]) expect(checkFormToken(key, token, later(10_000))).toBe("no-token");
  });

  it("is bad when signed with another key", () => {
    expect(checkFormToken(key, signFormToken(randomBytes(32), renderedAt), later(10_000))).toBe("bad-token");
  });

  it("is bad when backdated: the signature covers the time", () => {
    const [, signature] = signFormToken(key, renderedAt).split(".");
    expect(checkFormToken(key, `1600000000.${signature}`, later(10_000))).toBe("bad-token");
  });

  it("is bad, and never throws, for garbage", () => {
    const good = signFormToken(key, renderedAt);
    const garbage: unknown[] = [
      "x",
      ".",
      "..",
      "1748779200",
      "1748779200.",
      `.${good.split(".")[1]}`,
      good.replace(".", ""),
      `${good}.`,
      `${good}x`,
      good.slice(0, -1),
      `-${good}`,
      ` ${good}`,
      `${"9".repeat(400)}.${good.split(".")[1]}`,
      "1748779200.éééééééééééééééééééééééééééééééééééééééééé",
      "1748779200.🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂🙂",
      "١٧٤٨٧٧٩٢٠٠.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "1748779200.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "1748779200.==========================================",
      "a".repeat(1_000_000),
      "\u0000\ud800",
      42,
      true,
      {},
      [good],
      { toString: () => good },
    ];
    for (const token of garbage) expect(checkFormToken(key, token, later(10_000)), String(token).slice(0, 40)).toBe("bad-token");
  });
});

describe.each(backends)("the signing key on $name", (backend) => {
  let database: TestDatabase | undefined;

  afterEach(async () => {
    await database?.cleanup();
    database = undefined;
  });

  async function migrated(): Promise<TestDatabase> {
    database = await backend.createDatabase();
    await migrateToLatest(database.open());
    return database;
  }

  it("is one random 32-byte key per database, agreed by every instance on it, even when they ask at once", async () => {
    const test = await migrated();
    const instances: Database[] = [test.open(), test.open(), test.open()];
    const keys = await Promise.all(instances.map((instance) => createSecrets(instance.db).key("form-token")));
    expect(keys[0]).toHaveLength(32);
    for (const other of keys) expect(other.equals(keys[0]!)).toBe(true);
    const rows = await instances[0]!.db.selectFrom("app_secrets").select("name").execute();
    expect(rows).toEqual([{ name: "form-token" }]);
  });

  it("makes tokens one instance issues good on another", async () => {
    const test = await migrated();
    const [issuer, checker] = [test.open(), test.open()];
    const token = await formTokensOf(issuer.db).issue(renderedAt);
    expect(await formTokensOf(checker.db).verify(token, later(5_000))).toBe("ok");
    expect(await formTokensOf(checker.db).verify(token, later(1_000))).toBe("too-fast");
  });

  it("differs between databases", async () => {
    const first = await migrated();
    const token = await formTokensOf(first.open().db).issue(renderedAt);
    const other = await backend.createDatabase();
    try {
      const otherDb = other.open();
      await migrateToLatest(otherDb);
      expect(await formTokensOf(otherDb.db).verify(token, later(5_000))).toBe("bad-token");
    } finally {
      await other.cleanup();
    }
  });
});
