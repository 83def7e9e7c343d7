/**
 * "Your sessions" at the domain level, on each backend: what each session
 * records (browser and system from the User-Agent, client address, first
 * and last seen), ending one, every other, or all of a member's; an ended
 * session is refused at its next request, also by another instance.
 */
import { describe, expect, it } from "vitest";
import { replacePassword, setAdminPassword } from "~/auth/admins.server";
import { describeClient } from "~/auth/client-info.server";
import { endMemberSession, endOtherSessions, listMemberSessions } from "~/auth/member-sessions.server";
import { endMemberSessions } from "~/auth/team.server";
import { findSession, SESSION_IDLE_MS } from "~/auth/sessions.server";
import { TEST_ACTOR } from "../support/actors";
import { backends } from "../support/backends";
import { clock, expectOk, member, useAuthDatabase, passwordSignIn } from "../support/auth-domain";

const MINUTE = 60_000;
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

describe("describeClient", () => {
  it("names the browser by its major version and the system by its release", () => {
    expect(describeClient(FIREFOX_WINDOWS)).toEqual({ browser: "Firefox 133", system: "Windows 10" });
    expect(describeClient(SAFARI_IPHONE)).toEqual({ browser: "Safari 17", system: "iOS 17.5" });
  });

  it("gives null for what an empty, missing or odd User-Agent does not name, and keeps no markup", () => {
    expect(describeClient(undefined)).toEqual({ browser: null, system: null });
    expect(describeClient("")).toEqual({ browser: null, system: null });
    expect(describeClient("curl/8.5.0").system).toBeNull();
    const odd = describeClient("<script>alert(1)</script>/1.0 (<b>Evil</b> OS)");
    expect(`${odd.browser ?? ""}${odd.system ?? ""}`).not.toMatch(/[<>]/);
  });
});

describe.each(backends)("a member's sessions on $name", (backend) => {
  const database = useAuthDatabase(backend);

  it("lists each signed-in browser with its browser, system, address, first and last seen, most recent first", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const at = clock();
    const laptop = expectOk(await passwordSignIn(db, { email: owner.email, userAgent: FIREFOX_WINDOWS, clientIp: "192.0.2.10", now: at() }));
    const phone = expectOk(await passwordSignIn(db, { email: owner.email, userAgent: SAFARI_IPHONE, clientIp: "2001:db8::7", now: at(MINUTE) }));
    // The laptop is used again later: it moves to the top.
    const laptopSession = await findSession(db, laptop.token, at(5 * MINUTE));

    const sessions = await listMemberSessions(db, owner.id, laptopSession!.sessionId, at(6 * MINUTE));
    expect(sessions).toEqual([
      {
        id: laptopSession!.sessionId,
        browser: "Firefox 133",
        system: "Windows 10",
        clientIp: "192.0.2.10",
        firstSeenAt: at().toISOString(),
        lastSeenAt: at(5 * MINUTE).toISOString(),
        expiresAt: laptop.expiresAt.toISOString(),
        current: true,
      },
      expect.objectContaining({ browser: "Safari 17", system: "iOS 17.5", clientIp: "2001:db8::7", firstSeenAt: at(MINUTE).toISOString(), current: false }),
    ]);
    expect(phone.adminId).toBe(owner.id);
    // Another member's sessions are not in the list; an idle session is not either.
    const other = await member(db, "editor@example.com");
    expectOk(await passwordSignIn(db, { email: other.email, now: at(6 * MINUTE) }));
    expect(await listMemberSessions(db, owner.id, undefined, at(6 * MINUTE))).toHaveLength(2);
    expect(await listMemberSessions(db, owner.id, undefined, at(MINUTE + SESSION_IDLE_MS))).toHaveLength(1);
  });

  it("ends one session; it is refused at its next request on another instance; another member's session cannot be ended", async () => {
    const otherInstance = database.again();
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const editor = await member(db, "editor@example.com");
    const mine = expectOk(await passwordSignIn(db, { email: owner.email }));
    const ended = expectOk(await passwordSignIn(db, { email: owner.email }));
    const theirs = expectOk(await passwordSignIn(db, { email: editor.email }));
    const endedId = (await findSession(otherInstance.db, ended.token))!.sessionId;
    const theirId = (await findSession(otherInstance.db, theirs.token))!.sessionId;

    expect(await endMemberSession(db, owner, theirId)).toEqual({ ended: false });
    expect(await findSession(otherInstance.db, theirs.token)).toBeDefined();
    expect(await endMemberSession(db, owner, endedId)).toEqual({ ended: true });
    expect(await findSession(otherInstance.db, ended.token)).toBeUndefined();
    expect(await findSession(otherInstance.db, mine.token)).toBeDefined();
    expect(await endMemberSession(db, owner, endedId)).toEqual({ ended: false });
  });

  it("ends every other session but the current one, and an owner ends all of a member's", async () => {
    const otherInstance = database.again();
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const editor = await member(db, "editor@example.com");
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push(expectOk(await passwordSignIn(db, { email: owner.email })).token);
    const editorTokens = [expectOk(await passwordSignIn(db, { email: editor.email })).token, expectOk(await passwordSignIn(db, { email: editor.email })).token];
    const current = (await findSession(db, tokens[0]!))!.sessionId;

    expect(await endOtherSessions(db, owner, current)).toEqual({ ended: 2 });
    expect(await findSession(otherInstance.db, tokens[0]!)).toBeDefined();
    for (const token of tokens.slice(1)) expect(await findSession(otherInstance.db, token)).toBeUndefined();

    expect(await endMemberSessions(db, editor.id, owner)).toEqual({ ok: true, endedSessions: 2 });
    for (const token of editorTokens) expect(await findSession(otherInstance.db, token)).toBeUndefined();
    expect(await findSession(otherInstance.db, tokens[0]!)).toBeDefined();
  });

  it("a new password ends the member's other sessions (keeping the one that changed it), or all of them", async () => {
    const { db } = database;
    const owner = await member(db, "owner@example.com");
    const kept = expectOk(await passwordSignIn(db, { email: owner.email }));
    const other = expectOk(await passwordSignIn(db, { email: owner.email }));
    const keepSessionId = (await findSession(db, kept.token))!.sessionId;

    expect(await replacePassword(db, owner.id, "a brand new long passphrase", { actor: TEST_ACTOR, keepSessionId })).toEqual({ endedSessions: 1 });
    expect(await findSession(db, kept.token)).toBeDefined();
    expect(await findSession(db, other.token)).toBeUndefined();
    expect(await setAdminPassword(db, owner.email, "yet another long passphrase", TEST_ACTOR)).toEqual({ endedSessions: 1 });
    expect(await findSession(db, kept.token)).toBeUndefined();
  });
});
