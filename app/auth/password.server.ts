import { argon2, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Argon2id at OWASP's first recommended setting (Password Storage Cheat Sheet,
 * 2025): 19 MiB of memory, 2 passes, 1 lane. Node 24 has Argon2 built in, so
 * nothing native needs compiling. See docs/decisions/008-admin-authentication.md.
 */
export const ARGON2_PARAMETERS = { memory: 19_456, passes: 2, parallelism: 1 } as const;
const SALT_BYTES = 16;
const TAG_BYTES = 32;

type Parameters = { memory: number; passes: number; parallelism: number };

function derive(password: string, salt: Buffer, parameters: Parameters, tagLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    argon2("argon2id", { message: Buffer.from(password.normalize("NFC"), "utf8"), nonce: salt, tagLength, ...parameters }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const b64 = (bytes: Buffer) => bytes.toString("base64").replace(/=+$/, "");

/** A PHC string: $argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>. Parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, ARGON2_PARAMETERS, TAG_BYTES);
  const { memory, passes, parallelism } = ARGON2_PARAMETERS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(salt)}$${b64(key)}`;
}

type ParsedHash = { parameters: Parameters; salt: Buffer; key: Buffer };

const PHC = /^\$argon2id\$v=19\$m=(\d{1,7}),t=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]{11,64})\$([A-Za-z0-9+/]{22,128})$/;

function parseHash(stored: string): ParsedHash | undefined {
  const match = PHC.exec(stored);
  if (!match) return undefined;
  const [, m, t, p, salt, key] = match;
  const parameters = { memory: Number(m), passes: Number(t), parallelism: Number(p) };
  // Bounds keep a tampered row from turning a sign-in into a memory bomb.
  if (parameters.memory < 8 * parameters.parallelism || parameters.memory > 1_048_576) return undefined;
  if (parameters.passes < 1 || parameters.parallelism < 1) return undefined;
  return { parameters, salt: Buffer.from(salt!, "base64"), key: Buffer.from(key!, "base64") };
}

/** True when the password matches. A malformed stored hash never matches (and never throws). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.parameters, parsed.key.length);
  return timingSafeEqual(key, parsed.key);
}

/** True when a hash was made with other parameters than today's: rehash it at the next sign-in. */
export function needsRehash(stored: string): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  const { memory, passes, parallelism } = parsed.parameters;
  return (
    memory !== ARGON2_PARAMETERS.memory ||
    passes !== ARGON2_PARAMETERS.passes ||
    parallelism !== ARGON2_PARAMETERS.parallelism ||
    parsed.key.length !== TAG_BYTES
  );
}

let decoy: string | undefined;

/**
 * Spends the time of a real verification when there is no account to verify
 * against, so the response time does not tell whether an e-mail is registered.
 * The decoy is a hash no password has: today's parameters, a random salt and a
 * random tag, so checking a password against it is one Argon2id derivation, as
 * a real verification is, from the first. Nothing is hashed to make it: no
 * 19 MiB derivation at start-up (decision 081).
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoy ??= decoyHash();
  await verifyPassword(password, decoy);
  return false;
}

function decoyHash(): string {
  const { memory, passes, parallelism } = ARGON2_PARAMETERS;
  return `$argon2id$v=19$m=${memory},t=${passes},p=${parallelism}$${b64(randomBytes(SALT_BYTES))}$${b64(randomBytes(TAG_BYTES))}`;
}

/**
 * Password hashes at once, across the process. Each Argon2id hash holds 19 MiB
 * and a thread of libuv's pool (four by default), which file reads and
 * compression share: two run at once, a few more wait their turn, and beyond
 * that a sign-in is turned away at once rather than queued without end.
 */
export const HASH_CONCURRENCY = { running: 2, waiting: 16 } as const;
/**
 * A lane of its own for a browser that signed in to the account before (its
 * device cookie, decision 018): guesses from everywhere else can fill the
 * queue above, and the owner still signs in (decision 037). One hash at a
 * time, a few waiting: each device has a small failure limit of its own.
 */
export const KNOWN_DEVICE_HASH_CONCURRENCY = { running: 1, waiting: 4 } as const;

/** A place in a hash lane, held from before the sign-in's limits are taken: used once (run) or given back (cancel). */
export type HashPlace = {
  /** Waits for one of the lane's running slots, runs `work` in it, and gives the place back. */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** Gives the place back unused (the limits refused the attempt). */
  cancel(): void;
};

/** At most `running` at once and `waiting` more in line (places held but not yet running count as in line). */
function hashLane({ running, waiting }: { running: number; waiting: number }) {
  let busy = 0;
  let held = 0;
  const queue: Array<() => void> = [];
  return (): HashPlace | undefined => {
    if (busy + queue.length + held >= running + waiting) return undefined;
    held++;
    let used = false;
    const use = () => {
      if (used) throw new Error("A hash place is used once");
      used = true;
      held--;
    };
    return {
      async run(work) {
        use();
        if (busy >= running) await new Promise<void>((resolve) => queue.push(resolve));
        else busy++;
        try {
          return await work();
        } finally {
          // The slot passes straight to the next in line, or is given back.
          const next = queue.shift();
          if (next) next();
          else busy--;
        }
      },
      cancel: use,
    };
  };
}

const lanes = { anyone: hashLane(HASH_CONCURRENCY), "known-device": hashLane(KNOWN_DEVICE_HASH_CONCURRENCY) };
export type HashLane = keyof typeof lanes;

/**
 * A place in a hash lane, or undefined, at once, when the lane is full: taken
 * before the sign-in limits, so a sign-in turned away as busy costs no query
 * (decision 037). "known-device" is for a sign-in whose device cookie names
 * the account (sign-in.server.ts), "anyone" for every other.
 */
export function reserveHashSlot(lane: HashLane = "anyone"): HashPlace | undefined {
  return lanes[lane]();
}

/** Runs `work` in a place of the lane; undefined, at once, when the lane is full. */
export async function withHashSlot<T>(work: () => Promise<T>, lane: HashLane = "anyone"): Promise<{ value: T } | undefined> {
  const place = reserveHashSlot(lane);
  return place && { value: await place.run(work) };
}
