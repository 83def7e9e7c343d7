import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Secrets } from "~/platform/db/secrets.server";
import { cookieName, readCookie, setCookie, type CookieSettings } from "~/platform/http/cookies.server";

/**
 * The device cookie (OWASP, "Slow brute force attacks: device cookies"): a
 * browser that has signed in to an account before carries a signed token
 * naming that account. With it, the right password gets through the limits
 * meant for attackers (the account's lockout, the per-address limits), so an
 * attacker who knows the admin's e-mail cannot lock the admin out; the device
 * has a small failure limit of its own instead.
 *
 * `<admin id>.<device id>.<HMAC-SHA256 of both, base64url>`; the key is a
 * server secret shared by every instance (app_secrets "device-cookie").
 */
const SECRET_NAME = "device-cookie";
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
const TOKEN_PATTERN = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

export type Device = { adminId: string; deviceId: string };

function deviceCookieName(settings: CookieSettings): string {
  return cookieName("admin_device", settings);
}

function signature(key: Buffer, adminId: string, deviceId: string): Buffer {
  return createHmac("sha256", key).update(`admin-device:${adminId}.${deviceId}`).digest();
}

/** Whom a device's failures count against: the account first, so unlocking the account can find them. */
export function deviceLimitSubject(device: Device): string {
  return `${device.adminId} ${device.deviceId}`;
}

/** A new device cookie for the admin, as a Set-Cookie value. */
export async function issueDeviceCookie(secrets: Secrets, adminId: string, settings: CookieSettings): Promise<string> {
  const deviceId = randomBytes(16).toString("base64url");
  const token = `${adminId}.${deviceId}.${signature(await secrets.key(SECRET_NAME), adminId, deviceId).toString("base64url")}`;
  // SameSite=Strict: only ever needed by the sign-in form of this site.
  return setCookie(deviceCookieName(settings), token, settings, { maxAgeSeconds: DEVICE_COOKIE_MAX_AGE_SECONDS, sameSite: "strict" });
}

/** The device a request's cookie names, when its signature holds; undefined for anything else. */
export async function readDeviceCookie(secrets: Secrets, cookieHeader: string | null, settings: CookieSettings): Promise<Device | undefined> {
  const match = TOKEN_PATTERN.exec(readCookie(cookieHeader, deviceCookieName(settings)) ?? "");
  if (!match) return undefined;
  const [, adminId, deviceId, signed] = match as unknown as [string, string, string, string];
  const given = Buffer.from(signed, "base64url");
  const expected = signature(await secrets.key(SECRET_NAME), adminId, deviceId);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { adminId, deviceId } : undefined;
}
