/**
 * Passkeys at the domain level, on each backend, with a software
 * authenticator (tests/support/soft-authenticator.ts) whose answers
 * @simplewebauthn/server verifies for real: the relying party's rules,
 * registration, "Sign in with a passkey" without an e-mail, single-use
 * challenges, and the ways a forged or replayed answer is refused.
 */
import { describe, expect, it } from "vitest";
import type { MemberActor } from "~/audit/actor";
import {
  CHALLENGE_MS,
  listPasskeys,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  PasskeyError,
  removePasskey,
  renamePasskey,
  signInWithPasskey,
  verifyPasskeyRegistration,
} from "~/auth/passkeys.server";
import { PASSKEY_INSECURE_MESSAGE, PASSKEY_IP_MESSAGE, relyingParty } from "~/auth/relying-party.server";
import { secondFactorRequirement, setSecondFactorRequired } from "~/auth/second-factor-policy.server";
import { findSession } from "~/auth/sessions.server";
import type { Db } from "~/platform/db/db.server";
import { backends } from "../support/backends";
import { clock, expectOk, member, useAuthDatabase, passwordSignIn, quietLog } from "../support/auth-domain";
import { assertPasskey, createPasskey, type SoftPasskey } from "../support/soft-authenticator";

const RP = { ok: true as const, rpId: "localhost", origin: "http://localhost:3000" };
const MINUTE = 60_000;

describe("the relying party", () => {
  it("is PUBLIC_URL's host and origin when it is set, else the request's", () => {
    expect(relyingParty("https://www.example-lettings.co.uk", "http://10.0.0.5:3000/admin")).toEqual({
      ok: true,
      rpId: "www.example-lettings.co.uk",
      origin: "https://www.example-lettings.co.uk",
    });
    expect(relyingParty(undefined, "http://localhost:3000/admin/account")).toEqual({ ok: true, rpId: "localhost", origin: "http://localhost:3000" });
    expect(relyingParty(undefined, "https://lettings.example:8443/admin")).toEqual({
      ok: true,
      rpId: "lettings.example",
      origin: "https://lettings.example:8443",
    });
    expect(relyingParty(undefined, "http://office.localhost:3000/admin")).toMatchObject({ ok: true, rpId: "office.localhost" });
  });

  it("refuses a bare IP address and plain http:// other than localhost, saying why", () => {
    for (const url of ["http://127.0.0.1:3000/admin", "https://192.0.2.10/admin", "http://[::1]:3000/admin", "https://[2001:db8::1]/admin"]) {
      expect(relyingParty(undefined, url), url).toEqual({ ok: false, reason: "ip-address", message: PASSKEY_IP_MESSAGE });
    }
    expect(relyingParty("http://192.0.2.10", "http://localhost:3000/")).toMatchObject({ ok: false, reason: "ip-address" });
    expect(relyingParty(undefined, "http://office.lan:3000/admin")).toEqual({ ok: false, reason: "insecure", message: PASSKEY_INSECURE_MESSAGE });
  });
});

describe.each(backends)("passkeys on $name", (backend) => {
  const database = useAuthDatabase(backend);

  async function addPasskey(db: Db, who: MemberActor, now: Date, extra: { name?: string; keepSessionId?: string } = {}) {
    const options = await passkeyRegistrationOptions(db, { adminId: who.id, email: who.email, rp: RP, rpName: "Example Lettings", now });
    const { passkey, response } = createPasskey(options, { origin: RP.origin });
    const added = await verifyPasskeyRegistration(db, { member: who, response, now, ...extra });
    return { passkey, response, options, added };
  }

  function signIn(db: Db, response: unknown, now: Date, clientIp = "192.0.2.1") {
    return signInWithPasskey(db, {
      response,
      clientIp,
      limit: 5,
      now,
      log: quietLog().log,
      userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
    });
  }

  async function assertion(db: Db, passkey: SoftPasskey, now: Date, options?: Parameters<typeof assertPasskey>[2]) {
    const challenge = await passkeySignInOptions(db, RP, now);
    return assertPasskey(passkey, challenge, { origin: RP.origin, ...options });
  }

  it("registers a passkey: discoverable, user verification required, listed under its name; other sessions end", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const current = expectOk(await passwordSignIn(db, { email: owner.email }));
    const other = expectOk(await passwordSignIn(db, { email: owner.email }));
    const keepSessionId = (await findSession(db, current.token))!.sessionId;
    const at = clock();

    const { options, passkey, added } = await addPasskey(db, owner, at(), { name: "  Work   laptop ", keepSessionId });
    expect(options.rp).toEqual({ name: "Example Lettings", id: "localhost" });
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(options.user).toMatchObject({ name: owner.email, id: Buffer.from(owner.id).toString("base64url") });
    expect(added).toEqual({
      ok: true,
      endedSessions: 1,
      passkey: { id: passkey.id, name: "Work laptop", createdAt: at().toISOString(), lastUsedAt: null, backedUp: false, transports: ["internal", "hybrid"] },
    });
    expect(await listPasskeys(db, owner.id)).toEqual([expectOk(added).passkey]);
    expect(await findSession(db, current.token)).toBeDefined();
    expect(await findSession(db, other.token)).toBeUndefined();
    // The next set of options leaves this one out, so it is not registered twice.
    const again = await passkeyRegistrationOptions(db, { adminId: owner.id, email: owner.email, rp: RP, rpName: "Example Lettings", now: at() });
    expect(again.excludeCredentials).toEqual([{ id: passkey.id, type: "public-key", transports: ["internal", "hybrid"] }]);
  });

  it("uses a registration challenge once, for its member only, within five minutes", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const editor = await member(db, "editor@example.com");
    const at = clock();
    const { response } = await addPasskey(db, owner, at());
    expect(await verifyPasskeyRegistration(db, { member: owner, response, now: at() })).toEqual({ ok: false, reason: "expired" });

    const options = await passkeyRegistrationOptions(db, { adminId: owner.id, email: owner.email, rp: RP, rpName: "x", now: at() });
    const stolen = createPasskey(options, { origin: RP.origin }).response;
    expect(await verifyPasskeyRegistration(db, { member: editor, response: stolen, now: at() })).toEqual({ ok: false, reason: "expired" });

    const late = await passkeyRegistrationOptions(db, { adminId: owner.id, email: owner.email, rp: RP, rpName: "x", now: at() });
    const lateResponse = createPasskey(late, { origin: RP.origin }).response;
    expect(await verifyPasskeyRegistration(db, { member: owner, response: lateResponse, now: at(CHALLENGE_MS) })).toEqual({ ok: false, reason: "expired" });
    expect(await listPasskeys(db, owner.id)).toHaveLength(1);
    expect(await listPasskeys(db, editor.id)).toEqual([]);
  });

  it("refuses a registration from another origin, without user verification, or that is not a response at all", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const now = new Date();
    const options = () => passkeyRegistrationOptions(db, { adminId: owner.id, email: owner.email, rp: RP, rpName: "x", now });
    const phished = createPasskey(await options(), { origin: "https://evil.example" }).response;
    expect(await verifyPasskeyRegistration(db, { member: owner, response: phished, now })).toMatchObject({ ok: false, reason: "invalid" });
    const unverified = createPasskey(await options(), { origin: RP.origin, userVerified: false }).response;
    expect(await verifyPasskeyRegistration(db, { member: owner, response: unverified, now })).toMatchObject({ ok: false, reason: "invalid" });
    for (const junk of [null, "passkey", { response: { clientDataJSON: "!!!" } }, { id: 1 }]) {
      expect(await verifyPasskeyRegistration(db, { member: owner, response: junk, now })).toEqual({ ok: false, reason: "expired" });
    }
    await expect(verifyPasskeyRegistration(db, { member: owner, response: unverified, name: "x".repeat(61), now })).rejects.toThrow(PasskeyError);
    expect(await listPasskeys(db, owner.id)).toEqual([]);
  });

  it("signs in with a passkey and no e-mail: a session for its member, its counter and last use recorded", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    await member(db, "editor@example.com");
    const at = clock();
    const { passkey } = await addPasskey(db, owner, at());

    const options = await passkeySignInOptions(db, RP, at(MINUTE));
    expect(options).toMatchObject({ rpId: "localhost", userVerification: "required" });
    expect(options.allowCredentials ?? []).toEqual([]);
    const signedIn = expectOk(await signIn(db, assertPasskey(passkey, options, { origin: RP.origin }), at(MINUTE)));
    expect(signedIn).toMatchObject({ adminId: owner.id, email: owner.email });
    expect(await findSession(db, signedIn.token, at(MINUTE))).toMatchObject({ email: owner.email });
    const [listed] = await listPasskeys(db, owner.id);
    expect(listed!.lastUsedAt).toBe(at(MINUTE).toISOString());
    const row = await db.selectFrom("passkeys").select("counter").executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(1);
  });

  it("refuses a replayed answer, a cloned authenticator's counter, a forged signature, a missing verification, and an unknown passkey", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const at = clock();
    const { passkey } = await addPasskey(db, owner, at());
    const used = await assertion(db, passkey, at());
    expectOk(await signIn(db, used, at()));

    expect(await signIn(db, used, at()), "replayed").toEqual({ ok: false, reason: "expired" });
    expect(await signIn(db, await assertion(db, passkey, at(), { counter: 1 }), at()), "counter not moving on").toEqual({ ok: false, reason: "invalid" });
    const forged = await assertion(db, passkey, at());
    const signature = Buffer.from((forged.response as { signature: string }).signature, "base64url");
    signature[signature.length - 1]! ^= 1;
    (forged.response as { signature: string }).signature = signature.toString("base64url");
    expect(await signIn(db, forged, at()), "forged").toEqual({ ok: false, reason: "invalid" });
    expect(await signIn(db, await assertion(db, passkey, at(), { userVerified: false }), at()), "no verification").toEqual({ ok: false, reason: "invalid" });
    expect(await signIn(db, await assertion(db, passkey, at(), { origin: "https://evil.example" }), at()), "phished").toEqual({ ok: false, reason: "invalid" });
    const late = await assertion(db, passkey, at());
    expect(await signIn(db, late, at(CHALLENGE_MS)), "late").toEqual({ ok: false, reason: "expired" });

    const mislabelled = await assertion(db, passkey, at());
    (mislabelled.response as { userHandle: string }).userHandle = Buffer.from("another member").toString("base64url");
    expect(await signIn(db, mislabelled, at()), "names another member").toEqual({ ok: false, reason: "invalid" });

    const stranger = createPasskey({ challenge: "x", rp: { id: "localhost" }, user: { id: "someone" } }).passkey;
    expect(await signIn(db, await assertion(db, stranger, at()), at())).toEqual({ ok: false, reason: "unknown-passkey" });
    // The failures with this member's passkey are told to the member at their next sign-in.
    const row = await db.selectFrom("admin_users").select("failed_sign_ins").where("id", "=", owner.id).executeTakeFirstOrThrow();
    expect(Number(row.failed_sign_ins)).toBe(5);
    expect(await signIn(db, await assertion(db, passkey, at()), at())).toMatchObject({ ok: true });
  });

  it("holds passkey sign-ins to the per-address limit, taken before the answer is checked", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const at = clock();
    const { passkey } = await addPasskey(db, owner, at());
    // max(20, 4 × 5) attempts from one address in 15 minutes; right ones give their place back.
    for (let i = 0; i < 3; i++) expectOk(await signIn(db, await assertion(db, passkey, at()), at()));
    for (let i = 0; i < 20; i++) expect(await signIn(db, { id: "x" }, at())).toEqual({ ok: false, reason: "expired" });
    expect(await signIn(db, await assertion(db, passkey, at()), at())).toMatchObject({ ok: false, reason: "limited" });
    expect(await signIn(db, await assertion(db, passkey, at()), at(), "198.51.100.7")).toMatchObject({ ok: true });
  });

  it("renames and removes a member's own passkeys only; the last one stays while an owner requires a second factor", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const editor = await member(db, "editor@example.com");
    const at = clock();
    const first = expectOk((await addPasskey(db, owner, at())).added).passkey;
    const second = expectOk((await addPasskey(db, owner, at(MINUTE), { name: "Phone" })).added).passkey;

    expect(await renamePasskey(db, owner, first.id, "Desk key")).toBe(true);
    expect(await renamePasskey(db, editor, first.id, "Mine now")).toBe(false);
    await expect(renamePasskey(db, owner, first.id, "bad\u0000name")).rejects.toThrow(PasskeyError);
    expect((await listPasskeys(db, owner.id)).map((passkey) => passkey.name)).toEqual(["Desk key", "Phone"]);

    await setSecondFactorRequired(db, true, owner, at());
    expect(await secondFactorRequirement(db, owner.id)).toEqual({ required: true, mustSetUp: false });
    expect(await removePasskey(db, editor, first.id)).toEqual({ ok: false, reason: "not-found" });
    expect(await removePasskey(db, owner, first.id)).toEqual({ ok: true, name: "Desk key" });
    expect(await removePasskey(db, owner, second.id)).toEqual({ ok: false, reason: "required" });
    await setSecondFactorRequired(db, false, owner, at());
    expect(await removePasskey(db, owner, second.id)).toEqual({ ok: true, name: "Phone" });
    expect(await listPasskeys(db, owner.id)).toEqual([]);
  });
});
