import { argon2, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  ARGON2_PARAMETERS,
  HASH_CONCURRENCY,
  KNOWN_DEVICE_HASH_CONCURRENCY,
  hashPassword,
  needsRehash,
  reserveHashSlot,
  verifyAgainstDecoy,
  verifyPassword,
  withHashSlot,
} from "./password.server";

const PASSWORD = "correct horse battery staple";

/** $argon2id$v=19$m=<memory>,t=<passes>,p=<lanes>$<salt>$<hash>, base64 without padding. */
const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** A PHC string made with other parameters than the app's, as an older version of it might have stored. */
async function hashWithParameters(password: string, parameters: { memory: number; passes: number; parallelism: number }, tagLength = 32): Promise<string> {
  const salt = randomBytes(16);
  const key = await new Promise<Buffer>((resolve, reject) =>
    argon2("argon2id", { message: Buffer.from(password, "utf8"), nonce: salt, tagLength, ...parameters }, (error, derived) =>
      error ? reject(error) : resolve(derived),
    ),
  );
  const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");
  return `$argon2id$v=19$m=${parameters.memory},t=${parameters.passes},p=${parameters.parallelism}$${b64(salt)}$${b64(key)}`;
}

/** Replaces one character of the hash part (the last segment) with another valid base64 character. */
function tamperWithKey(stored: string): string {
  const at = stored.lastIndexOf("$") + 5;
  const replacement = stored[at] === "A" ? "B" : "A";
  return stored.slice(0, at) + replacement + stored.slice(at + 1);
}

describe("hashPassword", () => {
  it("returns an Argon2id PHC string with m=19456, t=2, p=1, a 16-byte salt and a 32-byte hash", async () => {
    const stored = await hashPassword(PASSWORD);
    const match = PHC.exec(stored);
    expect(match, stored).not.toBeNull();
    const [, memory, passes, lanes, salt, key] = match!;
    expect([Number(memory), Number(passes), Number(lanes)]).toEqual([19_456, 2, 1]);
    expect(ARGON2_PARAMETERS).toEqual({ memory: 19_456, passes: 2, parallelism: 1 });
    expect(Buffer.from(salt!, "base64")).toHaveLength(16);
    expect(Buffer.from(key!, "base64")).toHaveLength(32);
    expect(stored).not.toContain(PASSWORD);
  });

  it("uses a new salt every time: two hashes of one password differ, and both verify", async () => {
    const [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    expect(first).not.toBe(second);
    expect(PHC.exec(first)![4]).not.toBe(PHC.exec(second)![4]);
    expect(await verifyPassword(PASSWORD, first)).toBe(true);
    expect(await verifyPassword(PASSWORD, second)).toBe(true);
  });
});

describe("verifyPassword", () => {
  it("accepts the right password and refuses a wrong one", async () => {
    const stored = await hashPassword(PASSWORD);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
    expect(await verifyPassword("Correct horse battery staple", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("treats composed and decomposed Unicode as the same password (NFC)", async () => {
    const composed = "caf\u00e9 au lait, s'il vous pla\u00eet";
    const decomposed = "cafe\u0301 au lait, s'il vous plai\u0302t";
    expect(composed).not.toBe(decomposed);
    expect(await verifyPassword(decomposed, await hashPassword(composed))).toBe(true);
    expect(await verifyPassword(composed, await hashPassword(decomposed))).toBe(true);
  });

  it("verifies a hash made with other parameters, which travel with it", async () => {
    const older = await hashWithParameters(PASSWORD, { memory: 4096, passes: 3, parallelism: 1 });
    expect(await verifyPassword(PASSWORD, older)).toBe(true);
    expect(await verifyPassword("not the password!", older)).toBe(false);
  });

  it("refuses a stored hash whose hash part was tampered with", async () => {
    const stored = await hashPassword(PASSWORD);
    const tampered = tamperWithKey(stored);
    expect(tampered).not.toBe(stored);
    expect(await verifyPassword(PASSWORD, tampered)).toBe(false);
  });

  it("refuses a stored hash whose salt was changed", async () => {
    const stored = await hashPassword(PASSWORD);
    const parts = stored.split("$");
    parts[4] = parts[4]![0] === "A" ? `B${parts[4]!.slice(1)}` : `A${parts[4]!.slice(1)}`;
    expect(await verifyPassword(PASSWORD, parts.join("$"))).toBe(false);
  });

  it.each([
    ["an empty string", () => ""],
    ["plain text", () => PASSWORD],
    ["a bcrypt hash", () => "$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW"],
    ["argon2i instead of argon2id", (s: string) => s.replace("$argon2id$", "$argon2i$")],
    ["another version", (s: string) => s.replace("$v=19$", "$v=16$")],
    ["no version", (s: string) => s.replace("$v=19", "")],
    ["a missing hash part", (s: string) => s.slice(0, s.lastIndexOf("$"))],
    ["a truncated hash", (s: string) => s.slice(0, -10)],
    ["a hash with characters outside base64", (s: string) => `${s.slice(0, -1)}!`],
    ["white space around it", (s: string) => ` ${s} `],
    ["absurd memory (m=99999999)", (s: string) => s.replace("m=19456", "m=99999999")],
    ["memory above 1 GiB (m=9999999)", (s: string) => s.replace("m=19456", "m=9999999")],
    ["no memory (m=0)", (s: string) => s.replace("m=19456", "m=0")],
    ["no passes (t=0)", (s: string) => s.replace("t=2", "t=0")],
    ["no lanes (p=0)", (s: string) => s.replace("p=1", "p=0")],
    ["absurd passes (t=99999)", (s: string) => s.replace("t=2", "t=99999")],
    ["a negative parameter", (s: string) => s.replace("m=19456", "m=-19456")],
    ["less memory than 8 KiB per lane", (s: string) => s.replace("m=19456,t=2,p=1", "m=64,t=2,p=16")],
  ])("returns false, without throwing, for %s", async (_label, make) => {
    const stored = make(await hashPassword(PASSWORD));
    await expect(verifyPassword(PASSWORD, stored)).resolves.toBe(false);
  });
});

describe("needsRehash", () => {
  it("is false for a hash made today", async () => {
    expect(needsRehash(await hashPassword(PASSWORD))).toBe(false);
  });

  it.each([
    ["less memory", { memory: 4096, passes: 2, parallelism: 1 }, 32],
    ["more passes", { memory: 19_456, passes: 3, parallelism: 1 }, 32],
    ["more lanes", { memory: 19_456, passes: 2, parallelism: 2 }, 32],
    ["a shorter hash", { memory: 19_456, passes: 2, parallelism: 1 }, 16],
  ])("is true for a hash made with %s", async (_label, parameters, tagLength) => {
    const stored = await hashWithParameters(PASSWORD, parameters, tagLength);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(needsRehash(stored)).toBe(true);
  });

  it("is true for a malformed hash", () => {
    expect(needsRehash("")).toBe(true);
    expect(needsRehash("$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW")).toBe(true);
  });
});

describe("verifyAgainstDecoy", () => {
  it("never accepts any password", async () => {
    expect(await verifyAgainstDecoy(PASSWORD)).toBe(false);
    expect(await verifyAgainstDecoy("")).toBe(false);
  });
});

describe("withHashSlot", () => {
  it("runs HASH_CONCURRENCY.running at once, queues HASH_CONCURRENCY.waiting more, and turns the next away at once", async () => {
    const { running, waiting } = HASH_CONCURRENCY;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    const work = async () => {
      started++;
      await gate;
      return "hashed";
    };
    const admitted = Array.from({ length: running + waiting }, () => withHashSlot(work));
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(running);
    expect(await withHashSlot(work)).toBeUndefined();

    release();
    expect(await Promise.all(admitted)).toEqual(Array.from({ length: running + waiting }, () => ({ value: "hashed" })));
    expect(started).toBe(running + waiting);
    // Every slot was given back.
    expect(await withHashSlot(async () => "again")).toEqual({ value: "again" });
  });

  it("counts a place held before the limits are taken, and takes it back when cancelled", async () => {
    const { running, waiting } = HASH_CONCURRENCY;
    const places = Array.from({ length: running + waiting }, () => reserveHashSlot());
    expect(places.every((place) => place !== undefined)).toBe(true);
    expect(reserveHashSlot()).toBeUndefined();
    places[0]!.cancel();
    expect(() => places[0]!.cancel()).toThrow("used once");
    const again = reserveHashSlot();
    expect(again).toBeDefined();
    for (const place of [...places.slice(1), again]) place!.cancel();
    expect(await withHashSlot(async () => "free again")).toEqual({ value: "free again" });
  });

  it("keeps a lane of its own for a browser that signed in before: a full queue does not turn it away", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const flood = Array.from({ length: HASH_CONCURRENCY.running + HASH_CONCURRENCY.waiting }, () => withHashSlot(() => gate));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await withHashSlot(async () => "a guess")).toBeUndefined();

    expect(await withHashSlot(async () => "the owner", "known-device")).toEqual({ value: "the owner" });

    // The lane is small and bounded too.
    const { running, waiting } = KNOWN_DEVICE_HASH_CONCURRENCY;
    const known = Array.from({ length: running + waiting }, () => withHashSlot(() => gate, "known-device"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await withHashSlot(async () => "one too many", "known-device")).toBeUndefined();
    release();
    await Promise.all([...flood, ...known]);
    expect(await withHashSlot(async () => "again", "known-device")).toEqual({ value: "again" });
  });
});
