/**
 * Joining the team with a passkey instead of a password (decision 054), over
 * HTTP on the built server at http://localhost:<port> (browsers refuse
 * passkeys at a bare IP address), with a software authenticator: the new
 * member is signed in with the invitation's role, the passkey then signs them
 * in, the link works once; a name to correct uses nothing up; a made-up link,
 * another site and a bare IP address are refused; nothing is half made.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { JOIN_TEXT } from "~/admin/team-texts";
import { INVITATION_TEXT } from "~/auth/invitations.server";
import { PASSKEY_IP_MESSAGE } from "~/auth/relying-party.server";
import { backends } from "../support/backends";
import { rawRequest, type RawResponse } from "../support/http";
import { useSite } from "../support/sites";
import { assertPasskey, createPasskey } from "../support/soft-authenticator";
import { SESSION_COOKIE, inviteThroughDomain, sessionOf, signedIn } from "../support/team-http";

describe.each(backends)("joining with a passkey on $name", (backend) => {
  const site = useSite(backend);
  const port = () => site.server.port;
  const localhost = () => `http://localhost:${port()}`;

  const postJson = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> =>
    rawRequest(port(), {
      method: "POST",
      path,
      headers: { host: `localhost:${port()}`, origin: localhost(), "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  const options = async (token: string) => {
    const answer = await postJson("/api/join-passkey", { step: "options", token });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers["cache-control"]).toMatch(/no-store/);
    return JSON.parse(answer.text) as Parameters<typeof createPasskey>[0] & { user: { name: string } };
  };
  const invitee = () => `joiner-${randomBytes(4).toString("hex")}@example.com`;
  const memberOf = (email: string) => site.db.selectFrom("admin_users").select(["id", "name", "role"]).where("email", "=", email).executeTakeFirst();

  it("makes the member with the invitation's role, signed in, with the passkey that then signs them in; the link works once", async () => {
    const email = invitee();
    const token = await inviteThroughDomain(site, email, "editor");
    const offered = await options(token);
    expect(offered.rp.id).toBe("localhost");
    expect(offered.user.name).toBe(email);
    const { passkey, response } = createPasskey(offered, { origin: localhost() });

    const joined = await postJson("/api/join-passkey", { step: "verify", token, name: "  Pat   Keys ", response });
    expect(joined.status, joined.text).toBe(200);
    expect(JSON.parse(joined.text)).toEqual({ redirect: "/admin/projects" });
    const cookies = (joined.headers["set-cookie"] ?? []) as string[];
    const sessionSet = cookies.find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
    for (const attribute of [/; HttpOnly/i, /; Secure/i, /; SameSite=(Strict|Lax)/i]) expect(sessionSet).toMatch(attribute);
    expect(cookies.some((cookie) => cookie.startsWith("__Host-admin_device="))).toBe(true);
    const session = sessionOf(joined)!;
    expect(await signedIn(site, session, "/admin/projects")).toBe(true);

    const member = await memberOf(email);
    expect(member).toMatchObject({ name: "Pat Keys", role: "editor" });
    const kept = await site.db.selectFrom("passkeys").select(["admin_id", "name"]).where("id", "=", passkey.id).executeTakeFirstOrThrow();
    expect(kept).toEqual({ admin_id: member!.id, name: "Passkey" });
    const audited = await site.db
      .selectFrom("audit_log")
      .select("action")
      .where("target_id", "=", member!.id)
      .where("target_type", "=", "member")
      .orderBy("action")
      .execute();
    expect(audited.map((row) => row.action)).toEqual(["invitation-accepted", "passkey-added"]);

    // The passkey signs them in, found by its user handle (the member's id).
    const signInOptions = JSON.parse((await postJson("/api/passkey-sign-in", { step: "options" })).text) as { challenge: string };
    const again = await postJson("/api/passkey-sign-in", { step: "verify", response: assertPasskey(passkey, signInOptions, { origin: localhost() }) });
    expect(again.status, again.text).toBe(200);
    expect(await signedIn(site, sessionOf(again)!, "/admin/projects")).toBe(true);

    // The link is used: options and a second passkey are refused as the page refuses it.
    const used = await postJson("/api/join-passkey", { step: "options", token });
    expect(used.status).toBe(410);
    expect(JSON.parse(used.text).error).toBe(INVITATION_TEXT.usedLink);
  });

  it("asks for a name first without using the passkey's challenge up; a challenge is the invitation's own and works once", async () => {
    const email = invitee();
    const token = await inviteThroughDomain(site, email, "enquiries");
    const { response } = createPasskey(await options(token), { origin: localhost() });

    const nameless = await postJson("/api/join-passkey", { step: "verify", token, name: " ", response });
    expect(nameless.status).toBe(400);
    expect(JSON.parse(nameless.text).error).toBe(INVITATION_TEXT.nameMissing);
    expect(await memberOf(email)).toBeUndefined();

    // Another invitation cannot use this one's challenge.
    const otherToken = await inviteThroughDomain(site, invitee(), "enquiries");
    const crossed = await postJson("/api/join-passkey", { step: "verify", token: otherToken, name: "Crossed", response });
    expect(crossed.status).toBe(400);
    expect(JSON.parse(crossed.text).error).toBe(JOIN_TEXT.passkey.expired);

    const joined = await postJson("/api/join-passkey", { step: "verify", token, name: "Named Now", response });
    expect(joined.status, joined.text).toBe(200);
    expect(JSON.parse(joined.text)).toEqual({ redirect: "/admin/enquiries" });
  });

  it("refuses a passkey that does not verify, and keeps nothing of the joining", async () => {
    const email = invitee();
    const token = await inviteThroughDomain(site, email, "editor");
    // Made for another origin than the one the options were for.
    const { response } = createPasskey(await options(token), { origin: "https://elsewhere.example" });
    const refused = await postJson("/api/join-passkey", { step: "verify", token, name: "Wrong Origin", response });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error).toBe(JOIN_TEXT.passkey.invalid);
    expect(await memberOf(email)).toBeUndefined();
    const invitation = await site.db.selectFrom("admin_invitations").select("accepted_at").where("email", "=", email).executeTakeFirstOrThrow();
    expect(invitation.accepted_at).toBeNull();
  });

  it("refuses a made-up link (404), another site (403), a bare IP address (400, saying why) and a step it does not know (400)", async () => {
    const madeUp = await postJson("/api/join-passkey", { step: "options", token: "A".repeat(43) });
    expect(madeUp.status).toBe(404);
    expect(JSON.parse(madeUp.text).error).toBe(INVITATION_TEXT.unknownLink);

    const token = await inviteThroughDomain(site, invitee(), "editor");
    const crossSite = await postJson("/api/join-passkey", { step: "options", token }, { origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);

    const atIp = await rawRequest(port(), {
      method: "POST",
      path: "/api/join-passkey",
      headers: { host: `127.0.0.1:${port()}`, origin: `http://127.0.0.1:${port()}`, "content-type": "application/json" },
      body: JSON.stringify({ step: "options", token }),
    });
    expect(atIp.status).toBe(400);
    expect(JSON.parse(atIp.text).error).toBe(PASSKEY_IP_MESSAGE);

    const unknownStep = await postJson("/api/join-passkey", { step: "something", token });
    expect(unknownStep.status).toBe(400);
    // None of these used the invitation.
    expect((await postJson("/api/join-passkey", { step: "options", token })).status).toBe(200);
  });
});
