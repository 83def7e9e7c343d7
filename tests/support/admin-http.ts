import { expect } from "vitest";
import { rawRequest, type RawResponse } from "./http";
import type { SpawnedServer } from "./server";

/** The admin a spawned server creates at start (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const TEST_ADMIN = { email: "gallery.admin@example.com", password: "a long gallery test password" };
export const TEST_ADMIN_ENV = { ADMIN_EMAIL: TEST_ADMIN.email, ADMIN_PASSWORD: TEST_ADMIN.password };

const COOKIE_NAME = "__Host-admin_session";

/** Signs in over HTTP as a browser on the site would; returns "__Host-admin_session=<token>" for a Cookie header. */
export async function signInOverHttp(server: SpawnedServer, credentials = TEST_ADMIN): Promise<string> {
  const response = await fetch(`${server.url}/admin/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams(credentials).toString(),
  });
  expect(response.status, "sign-in").toBe(302);
  const cookie = response.headers.getSetCookie().find((value) => value.startsWith(`${COOKIE_NAME}=`));
  expect(cookie, "a session cookie").toBeTruthy();
  return cookie!.split(";")[0]!;
}

export type UploadAnswer = { status: number; body: { url?: string; name?: string; width?: number; height?: number; error?: string } };

/** POST /api/admin/images with one file in the field `file`, as the admin's upload field sends it. */
export async function uploadImage(
  server: SpawnedServer,
  cookie: string | undefined,
  file: { data: Buffer; filename: string; type: string },
  headers: Record<string, string> = { origin: server.url },
): Promise<UploadAnswer> {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(file.data)], { type: file.type }), file.filename);
  const response = await fetch(`${server.url}/api/admin/images`, {
    method: "POST",
    headers: { ...headers, ...(cookie ? { cookie } : {}) },
    body: form,
  });
  const text = await response.text();
  let body: UploadAnswer["body"];
  try {
    body = JSON.parse(text) as UploadAnswer["body"];
  } catch {
    body = { error: `not JSON: ${text.slice(0, 200)}` };
  }
  return { status: response.status, body };
}

/** The fields of the Add Project form, as the dashboard posts them, with `overrides` (the pictures' URLs, a field to break). */
export function projectFields(title: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    intent: "create-project",
    title,
    category: "Kitchen Renovation",
    description: `${title}: stripped back and refitted.`,
    duration: "3 weeks",
    budget: "£15,000",
    display_order: "",
    before_image_url: "",
    after_image_url: "",
    before_image_alt: "",
    after_image_alt: "",
    ...overrides,
  };
}

/** A signed-in admin's form POST to `path` from the site itself (urlencoded, as a browser sends it). */
export function postAdminForm(server: SpawnedServer, cookie: string, path: string, fields: Record<string, string>): Promise<RawResponse> {
  return rawRequest(server.port, {
    method: "POST",
    path,
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}
