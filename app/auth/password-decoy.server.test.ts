/**
 * The decoy an unknown e-mail is checked against (decision 081): from the first
 * check it costs what checking a real account's password costs, one Argon2id
 * derivation with today's parameters, and nothing is hashed to make it.
 */
import type * as crypto from "node:crypto";
import { beforeEach, expect, it, vi } from "vitest";

type Derivation = { memory: number; passes: number; parallelism: number; tagLength: number };
const derivations: Derivation[] = [];

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof crypto>();
  const argon2: typeof actual.argon2 = (algorithm, parameters, callback) => {
    derivations.push({ memory: parameters.memory, passes: parameters.passes, parallelism: parameters.parallelism, tagLength: parameters.tagLength });
    return actual.argon2(algorithm, parameters, callback);
  };
  return { ...actual, argon2 };
});

const { ARGON2_PARAMETERS, hashPassword, verifyAgainstDecoy, verifyPassword } = await import("./password.server");

beforeEach(() => {
  derivations.length = 0;
});

it("checks an unknown e-mail's password with one derivation, as a real account's, from the first check on", async () => {
  const stored = await hashPassword("correct horse battery staple");
  derivations.length = 0;
  expect(await verifyPassword("a wrong guess", stored)).toBe(false);
  const real = [...derivations];
  expect(real).toEqual([{ ...ARGON2_PARAMETERS, tagLength: 32 }]);

  derivations.length = 0;
  expect(await verifyAgainstDecoy("a wrong guess")).toBe(false);
  expect(derivations).toEqual(real);

  derivations.length = 0;
  expect(await verifyAgainstDecoy("")).toBe(false);
  expect(derivations).toEqual(real);
});
