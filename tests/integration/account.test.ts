/**
 * The member's account page (/admin/account) and the passkey endpoints, on
 * the built server, on each backend: the no-JavaScript forms (password,
 * two-step sign-in, passkey names, sessions, the owners' requirement) and the
 * JSON ceremonies (adding a passkey, signing in with one) with a software
 * authenticator. Each test is its own member, so none changes another's way in.
 */
import { randomBytes } from "node:crypto";
import { Secret, TOTP } from "otpauth";
import { describe, expect, it } from "vitest";
import { ACCOUNT_TEXT, PASSKEY_SIGN_IN_TEXT } from "~/admin/account-texts";
import { FORGOT_TEXT } from "~/admin/sign-in-texts";
import { createAdmin } from "~/auth/admins.server";
import { PASSKEY_IP_MESSAGE } from "~/auth/relying-party.server";
import { hashToken } from "~/auth/sessions.server";
import { changeRole } from "~/auth/team.server";
import { toBoolean } from "~/platform/db/db-values";
import { TEST_ACTOR } from "../support/actors";
import { signInOverHttp } from "../support/admin-http";
import { backends } from "../support/backends";
import { rawRequest, type RawResponse } from "../support/http";
import { htmlText, visibleText } from "../support/html";
import { useSite } from "../support/sites";
import { assertPasskey, createPasskey } from "../support/soft-authenticator";

const PASSWORD = "an account page test password";
/** React's escaping of text, for what the page shows. */
const html = (value: string) => value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");

describe.each(backends)("the member's account page on $name", (backend) => {
  const site = useSite(backend);
  const port = () => site.server.port;
  /** Passkeys need a name, not a bare IP: these requests come to http://localhost:<port>. */
  const localhost = () => `http://localhost:${port()}`;

  /** A new member (an owner unless said), signed in over HTTP: their id and session cookie. */
  async function newMember(role: "owner" | "editor" = "owner") {
    const email = `member-${randomBytes(4).toString("hex")}@example.com`;
    const admin = await createAdmin(site.db, email, PASSWORD, TEST_ACTOR);
    if (role !== "owner") await changeRole(site.db, admin.id, role, TEST_ACTOR);
    return { id: admin.id, email, cookie: await signInOverHttp(site.server, { email, password: PASSWORD }) };
  }

  const page = (cookie: string, path = "/admin/account") => site.get(path, { cookie });
  const post = (cookie: string, fields: Record<string, string>, host = `127.0.0.1:${port()}`) =>
    rawRequest(port(), {
      method: "POST",
      path: "/admin/account",
      headers: { host, cookie, origin: `http://${host}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  const postJson = (path: string, body: unknown, cookie?: string): Promise<RawResponse> =>
    rawRequest(port(), {
      method: "POST",
      path,
      headers: { host: `localhost:${port()}`, origin: localhost(), "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  /** Whether a session cookie still signs in: the inbox API answers 200, or 401 once it ended. */
  const works = async (cookie: string) => (await site.get("/api/admin/enquiries", { cookie })).status === 200;

  it("shows the page to any member, linked from the header, with the sessions listed", async () => {
    const editor = await newMember("editor");
    const response = await page(editor.cookie);
    expect(response.status).toBe(200);
    expect(response.text).toContain('href="/admin/account"');
    const text = visibleText(response.text);
    for (const words of [ACCOUNT_TEXT.password.title, ACCOUNT_TEXT.twoStep.title, ACCOUNT_TEXT.passkeys.title, ACCOUNT_TEXT.sessions.title]) {
      expect(text).toContain(words);
    }
    expect(text).toContain(ACCOUNT_TEXT.sessions.thisBrowser);
    // An Editor does not see the owners' requirement.
    expect(text).not.toContain(ACCOUNT_TEXT.policy.label);
  });

  it("changes the password with the current one, ending the member's other sessions; a wrong current one changes nothing", async () => {
    const member = await newMember();
    const other = await signInOverHttp(site.server, { email: member.email, password: PASSWORD });
    const next = "a brand new password for the account";

    const wrong = await post(member.cookie, { intent: "change-password", password: "not it at all", newPassword: next, newPasswordAgain: next });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(html(ACCOUNT_TEXT.identity.wrong));
    const mismatch = await post(member.cookie, { intent: "change-password", password: PASSWORD, newPassword: next, newPasswordAgain: `${next}!` });
    expect(mismatch.status).toBe(400);
    const short = await post(member.cookie, { intent: "change-password", password: PASSWORD, newPassword: "short", newPasswordAgain: "short" });
    expect(short.status).toBe(400);
    expect(await works(other)).toBe(true);

    const done = await post(member.cookie, { intent: "change-password", password: PASSWORD, newPassword: next, newPasswordAgain: next });
    expect(done.status).toBe(200);
    expect(done.text).toContain(html(ACCOUNT_TEXT.password.done(1)));
    expect(await works(member.cookie)).toBe(true);
    expect(await works(other)).toBe(false);
    await signInOverHttp(site.server, { email: member.email, password: next });
  });

  it("sets up two-step sign-in: a QR code and the key as text, a wrong code refused, a right one turns it on with ten codes shown once", async () => {
    const member = await newMember();
    const other = await signInOverHttp(site.server, { email: member.email, password: PASSWORD });
    expect((await post(member.cookie, { intent: "totp-start" })).status).toBe(200);
    const shown = await page(member.cookie);
    expect(shown.text).toMatch(/<svg role="img" aria-label="QR code for your authenticator app"/);
    const key = /data-testid="totp-secret"[^>]*>([A-Z2-7 ]+)</.exec(shown.text)?.[1];
    expect(key).toBeDefined();
    const totp = new TOTP({ secret: Secret.fromBase32(key!.replace(/ /g, "")), digits: 6, period: 30, algorithm: "SHA1" });

    const now = totp.generate();
    const wrong = await post(member.cookie, { intent: "totp-confirm", code: now === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(html(ACCOUNT_TEXT.twoStep.wrongCode));
    const row = () => site.db.selectFrom("totp_factors").select("confirmed_at").where("admin_id", "=", member.id).executeTakeFirst();
    expect((await row())?.confirmed_at).toBeNull();

    const right = await post(member.cookie, { intent: "totp-confirm", code: totp.generate() });
    expect(right.status).toBe(200);
    const codes = [...right.text.matchAll(/<li>([a-z2-7]{4}(?:-[a-z2-7]{4}){5})<\/li>/g)].map((match) => match[1]);
    expect(new Set(codes).size).toBe(10);
    expect(right.text).toContain('download="recovery-codes.txt"');
    expect((await row())?.confirmed_at).not.toBeNull();
    // Turning it on ended the other browser's session; the codes are not on the page again.
    expect(await works(other)).toBe(false);
    const again = await page(member.cookie);
    for (const code of codes) expect(again.text).not.toContain(code);
    expect(visibleText(again.text)).toContain(ACCOUNT_TEXT.twoStep.on("", 10).split(".")[1]!.trim());

    // New codes and turning it off ask for the password or a code: a wrong one changes nothing.
    expect((await post(member.cookie, { intent: "totp-off", password: "wrong password here" })).status).toBe(401);
    expect((await row())?.confirmed_at).not.toBeNull();
    const renewed = await post(member.cookie, { intent: "recovery-codes", code: codes[0]! });
    expect(renewed.status).toBe(200);
    expect(renewed.text).not.toContain(`<li>${codes[1]}</li>`);
    const off = await post(member.cookie, { intent: "totp-off", password: PASSWORD });
    expect(off.status).toBe(200);
    expect(await row()).toBeUndefined();
  });

  it("adds a passkey through the endpoint, renames and removes it with the forms, and signs in with it", async () => {
    const member = await newMember();
    const other = await signInOverHttp(site.server, { email: member.email, password: PASSWORD });
    const optionsAnswer = await postJson("/api/admin/passkeys", { step: "options" }, member.cookie);
    expect(optionsAnswer.status).toBe(200);
    const options = JSON.parse(optionsAnswer.text) as Parameters<typeof createPasskey>[0];
    expect(options.rp.id).toBe("localhost");
    const { passkey, response } = createPasskey(options, { origin: localhost() });
    const added = await postJson("/api/admin/passkeys", { step: "verify", response, name: "Office laptop" }, member.cookie);
    expect(added.status, added.text).toBe(201);
    expect(JSON.parse(added.text)).toMatchObject({ name: "Office laptop", endedSessions: 1 });
    expect(await works(other)).toBe(false);
    // The same answer again: its challenge is used up.
    expect((await postJson("/api/admin/passkeys", { step: "verify", response, name: "Again" }, member.cookie)).status).toBe(400);

    expect(visibleText((await page(member.cookie)).text)).toContain("Office laptop");
    expect((await post(member.cookie, { intent: "passkey-rename", id: passkey.id, name: "Home <desktop>" })).status).toBe(200);
    expect((await page(member.cookie)).text).toContain("Home &lt;desktop&gt;");

    // Sign in with it, from the sign-in form's endpoint.
    const signInOptions = JSON.parse((await postJson("/api/passkey-sign-in", { step: "options" })).text) as { challenge: string };
    const signedIn = await postJson("/api/passkey-sign-in", {
      step: "verify",
      response: assertPasskey(passkey, signInOptions, { origin: localhost() }),
      returnTo: "/admin/account",
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(JSON.parse(signedIn.text)).toEqual({ redirect: "/admin/account" });
    const cookie = (signedIn.headers["set-cookie"] ?? []).find((value) => value.startsWith("__Host-admin_session="))!.split(";")[0]!;
    expect(await works(cookie)).toBe(true);
    // As a sign-in by password: this browser gets the device cookie that gives it a sign-in lane of its own in a flood.
    const device = (signedIn.headers["set-cookie"] ?? []).find((value) => value.startsWith("__Host-admin_device="));
    expect(device, "the device cookie").toMatch(/; HttpOnly/i);
    expect(device).toMatch(/; SameSite=Strict/i);
    expect(visibleText((await page(cookie)).text)).toMatch(/Last used \d/);

    // Without JavaScript the first post only asks; nothing is removed until the question is answered.
    const asked = await post(member.cookie, { intent: "passkey-remove", id: passkey.id });
    expect(asked.status).toBe(200);
    expect(visibleText(asked.text)).toContain(htmlText(ACCOUNT_TEXT.passkeys.confirmRemove("Home <desktop>")));
    expect(await site.db.selectFrom("passkeys").select("id").where("admin_id", "=", member.id).execute()).toHaveLength(1);
    const removed = await post(member.cookie, { intent: "passkey-remove", id: passkey.id, confirmed: "yes" });
    expect(removed.status).toBe(200);
    expect(await site.db.selectFrom("passkeys").select("id").where("admin_id", "=", member.id).execute()).toEqual([]);
    // A removed passkey no longer signs in; the failure is a failed sign-in.
    const later = JSON.parse((await postJson("/api/passkey-sign-in", { step: "options" })).text) as { challenge: string };
    const refused = await postJson("/api/passkey-sign-in", { step: "verify", response: assertPasskey(passkey, later, { origin: localhost() }) });
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.text)).toEqual({ error: PASSKEY_SIGN_IN_TEXT.unknown });
  });

  it("says at a bare IP address that passkeys cannot be used there, instead of failing silently", async () => {
    const member = await newMember();
    expect((await page(member.cookie)).text).toContain(html(PASSKEY_IP_MESSAGE));
    const options = await rawRequest(port(), {
      method: "POST",
      path: "/api/passkey-sign-in",
      headers: { origin: site.server.url, "content-type": "application/json" },
      body: JSON.stringify({ step: "options" }),
    });
    expect(options.status).toBe(400);
    expect(JSON.parse(options.text)).toEqual({ error: PASSKEY_IP_MESSAGE });
  });

  it("lists the sessions; Sign out ends one at its next request, Sign out everywhere else the rest", async () => {
    const member = await newMember();
    const second = await signInOverHttp(site.server, { email: member.email, password: PASSWORD });
    const third = await signInOverHttp(site.server, { email: member.email, password: PASSWORD });
    const listed = await page(member.cookie);
    expect(listed.text.match(/name="intent" value="end-session"/g)).toHaveLength(2);
    const secondId = hashToken(second.split("=")[1]!);
    expect(listed.text).toContain(secondId);

    // Another member's session id ends nothing.
    const stranger = await newMember();
    expect((await post(stranger.cookie, { intent: "end-session", id: secondId })).status).toBe(404);
    expect(await works(second)).toBe(true);

    expect((await post(member.cookie, { intent: "end-session", id: secondId })).status).toBe(200);
    expect(await works(second)).toBe(false);
    expect(await works(third)).toBe(true);
    const everywhere = await post(member.cookie, { intent: "end-other-sessions" });
    expect(everywhere.status).toBe(200);
    expect(everywhere.text).toContain(html(ACCOUNT_TEXT.sessions.endedOthers(1)));
    expect(await works(third)).toBe(false);
    expect(await works(member.cookie)).toBe(true);
  });

  it("lets an owner require a second factor for the whole team, not an Editor; a member without one is shown the set-up first", async () => {
    const required = async () =>
      toBoolean((await site.db.selectFrom("sign_in_policy").select("second_factor_required").executeTakeFirstOrThrow()).second_factor_required);
    const editor = await newMember("editor");
    const refused = await post(editor.cookie, { intent: "second-factor-policy", required: "yes" });
    expect(refused.status).toBe(403);
    expect(await required()).toBe(false);

    const owner = await newMember();
    expect(visibleText((await page(owner.cookie)).text)).toContain(ACCOUNT_TEXT.policy.label);
    const on = await post(owner.cookie, { intent: "second-factor-policy", required: "yes" });
    expect(on.status).toBe(200);
    expect(await required()).toBe(true);
    const audit = await site.db.selectFrom("audit_log").select("action").where("action", "=", "second-factor-required").execute();
    expect(audit).toHaveLength(1);

    const held = visibleText((await page(editor.cookie, "/admin/account?setup=required")).text);
    expect(held).toContain(ACCOUNT_TEXT.required.title);
    expect(held.indexOf(ACCOUNT_TEXT.twoStep.title)).toBeLessThan(held.indexOf(ACCOUNT_TEXT.password.title));

    // An unchecked box sends nothing: the requirement is lifted.
    expect((await post(owner.cookie, { intent: "second-factor-policy" })).status).toBe(200);
    expect(await required()).toBe(false);
  });

  it("offers to e-mail a link to set a password, and says why it cannot when the site has no mail server", async () => {
    const member = await newMember("editor");
    const response = await post(member.cookie, { intent: "email-password-link" });
    expect(response.status).toBe(409);
    expect(visibleText(response.text)).toContain(FORGOT_TEXT.mailOff);
    expect(await site.db.selectFrom("email_outbox").select("id").where("kind", "=", "password-reset").execute()).toEqual([]);
  });

  it("refuses a form it does not know, and changes nothing", async () => {
    const member = await newMember();
    const response = await post(member.cookie, { intent: "make-me-owner" });
    expect(response.status).toBe(400);
    expect(response.text).toContain(html(ACCOUNT_TEXT.invalid));
  });
});
