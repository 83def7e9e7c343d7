import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Db } from "~/platform/db.server";
import { secretKey } from "~/platform/secrets.server";
import type { CookieSettings } from "./sessions.server";

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
  return settings.secure ? "__Host-admin_device" : "admin_device";
}

function signature(key: Buffer, adminId: string, deviceId: string): Buffer {
  return createHmac("sha256", key).update(`admin-device:${adminId}.${deviceId}`).digest();
}

/** Whom a device's failures count against: the account first, so unlocking the account can find them. */
export function deviceLimitSubject(device: Device): string {
  return `${device.adminId} ${device.deviceId}`;
}

/** A new device cookie for the admin, as a Set-Cookie value. */
export async function issueDeviceCookie(db: Db, adminId: string, settings: CookieSettings): Promise<string> {
  const deviceId = randomBytes(16).toString("base64url");
  const token = `${adminId}.${deviceId}.${signature(await secretKey(db, SECRET_NAME), adminId, deviceId).toString("base64url")}`;
  const attributes = [
    `${deviceCookieName(settings)}=${token}`,
    "Path=/",
    "HttpOnly",
    // Only ever needed by the sign-in form of this site.
    "SameSite=Strict",
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}`,
  ];
  if (settings.secure) attributes.push("Secure");
  return attributes.join("; ");
}

/** The device a request's cookie names, when its signature holds; undefined for anything else. */
export async function readDeviceCookie(db: Db, cookieHeader: string | null, settings: CookieSettings): Promise<Device | undefined> {
  if (!cookieHeader) return undefined;
  const name = deviceCookieName(settings);
  for (const part of cookieHeader.split(";")) {
    const index = part.indexOf("=");
    if (index === -1 || part.slice(0, index).trim() !== name) continue;
    const match = TOKEN_PATTERN.exec(part.slice(index + 1).trim());
    if (!match) continue;
    const [, adminId, deviceId, signed] = match as unknown as [string, string, string, string];
    const given = Buffer.from(signed, "base64url");
    const expected = signature(await secretKey(db, SECRET_NAME), adminId, deviceId);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { adminId, deviceId };
  }
  return undefined;
}
