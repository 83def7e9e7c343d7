/**
 * Every admin loader and action, called as an attacker would: without a
 * session, from another site, and by GET with the fields of a change. The
 * table below names each handler and the requests that reach it, documents
 * and React Router's `.data` single-fetch variants alike (a browser with
 * JavaScript uses the latter). A loader or action of an admin route that the
 * table does not know fails the first test, and so does an entry for a
 * handler that no longer exists.
 *
 * Each table request is also sent once as it should be (signed in, same
 * origin) and must then do what it says, so that no refusal here passes only
 * because the request was malformed.
 */
import { randomBytes, randomUUID } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESET_TEXT } from "~/admin/sign-in-texts";
import { LOGIN_TEXT } from "~/admin/texts";
import { REPLY_TEXT } from "~/admin/ReplyPage";
import { readEnquirySettings } from "~/enquiries/enquiry-settings.server";
import { memberActor } from "~/audit/actor";
import { INVITATION_TEXT, inviteMember } from "~/auth/invitations.server";
import { CROSS_SITE_MESSAGE } from "~/auth/same-origin";
import { imageNameFromUrl } from "~/images/image-files";
import { saveImage } from "~/images/images.server";
import type { Database } from "~/platform/db/db.server";
import { toBoolean } from "~/platform/db/db-values";
import { createProject, getProject, listAllProjects } from "~/projects/projects.server";
import { LocalDiskStorage } from "~/platform/storage/storage.server";
import { IMAGE_NAMING } from "~/images/image-files";
import { backends, type TestDatabase } from "../support/backends";
import { rawRequest, type RawResponse } from "../support/http";
import { filesIn, multipartBody, twoToneJpeg } from "../support/images";
import { dataSnapshot } from "../support/data-snapshot";
import { OPEN_TO_ANYBODY, appRoutes, handlersOf } from "../support/routes";
import { assertBuilt, logLines, startServer, type SpawnedServer } from "../support/server";
import { waitFor } from "../support/wait";
import { htmlText } from "../support/html";
import { TEST_ACTOR } from "../support/actors";
import { memberWithResetLink } from "../support/reset-links";

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

type Handler = "loader" | "action";
/** How the answer is encoded: an HTML document, React Router's single-fetch stream (`.data`), JSON, or a file to download. */
type Format = "document" | "data" | "json" | "file";
/**
 * Who may use the handler. admin: nobody without a session. sign-in: anybody
 * (it is how one gets a session) but never from another site. invitation:
 * anybody with an invitation's link (it is how a new member gets a session),
 * never from another site; a link that names no invitation shows nothing.
 * reset: anybody (it is how a member who forgot the password gets back in),
 * never from another site; a link that names no reset shows nothing.
 * redirect: a loader that only sends the visitor to /admin and reads nothing.
 * public: the other pages of signing in (the two-step code, the page a
 * reset request leads to), open to anybody, never from another site, and
 * never a session by themselves with what the table sends.
 */
type Access = "admin" | "sign-in" | "invitation" | "reset" | "redirect" | "public";
/** What a proper request (signed in, same origin) does; how the last test checks it. */
type Effect =
  | "read"
  | "mark-read"
  | "mark-unread"
  | "delete"
  | "not-spam"
  | "retry-notification"
  | "download"
  | "erase"
  | "sign-out"
  | "sign-in"
  | "public"
  | "redirect"
  | "upload"
  | "create-project"
  | "update-project"
  | "toggle-project"
  | "move-project"
  | "delete-project"
  | "save-site"
  | "preview"
  | "moved"
  | "invite"
  | "audit-download"
  | "figures-download"
  | "join-page"
  | "join"
  | "reset-request"
  | "reset-page"
  | "reset"
  | "end-other-sessions"
  | "passkey-options"
  | "save-settings"
  | "reply";

/**
 * What a request may depend on: the id of an enquiry, credentials, the id of
 * a project, two images uploaded here (URLs a project form may refer to), and
 * a marker that names what a request creates.
 */
type Values = {
  id: string;
  email: string;
  password: string;
  projectId: string;
  beforeUrl: string;
  afterUrl: string;
  marker: string;
  /** The Website draft's revision a save is based on. */
  siteRevision: string;
  /** The token of an invitation's link (a made-up one for the requests that must be refused). */
  invitationToken: string;
  /** The token of a password-reset link (made up for the requests that must be refused). */
  resetToken: string;
};

type FileField = { filename: string; type: string; data: Buffer };

type Call = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: (values: Values) => string;
  format: Format;
  /** Form fields (sent urlencoded, or multipart with files); every non-GET request has a body, if only an empty one. */
  form?: (values: Values) => Record<string, string>;
  /** Files: the body is multipart/form-data, as a form with a file input sends it. */
  files?: () => Record<string, FileField>;
  effect: Effect;
  /** Effect "moved": where the address moved to. */
  location?: string;
};

type Entry = {
  /** The route's path as app/routes.ts spells it, and " (index)" after an index route's. */
  route: string;
  handler: Handler;
  access: Access;
  calls: Call[];
};

const get = (pathOf: Call["path"], format: Format, effect: Effect = "read"): Call => ({ method: "GET", path: pathOf, format, effect });
/** An old address that moved for good: 301 to `location` (single fetch encodes it in a 202). */
const moved = (pathOf: Call["path"], format: Format, location: string): Call => ({ ...get(pathOf, format, "moved"), location });
const send = (method: Call["method"], pathOf: Call["path"], format: Format, effect: Effect, form: Call["form"] = () => ({}), files?: Call["files"]): Call => ({
  method,
  path: pathOf,
  format,
  form,
  files,
  effect,
});

const markRead = ({ id }: Values) => ({ intent: "mark-read", id });
const saveSettings = ({ marker }: Values) => ({ reasons: `Reason ${marker}`, acknowledgementText: "" });
const replyForm = ({ id, marker }: Values) => ({ id, subject: `Reply ${marker}`, body: "Hello." });
const deleteIt = ({ id }: Values) => ({ intent: "delete", id, confirmed: "yes" });
// The bulk bar sends `ids` once per ticked card; one is enough to be a bulk action.
const bulkMarkRead = ({ id }: Values) => ({ intent: "bulk-mark-read", ids: id });
const bulkMarkUnread = ({ id }: Values) => ({ intent: "bulk-mark-unread", ids: id });
const bulkDelete = ({ id }: Values) => ({ intent: "bulk-delete", ids: id, confirmed: "yes" });
const notSpam = ({ id }: Values) => ({ intent: "not-spam", id });
const retryNotification = ({ id }: Values) => ({ intent: "retry-notification", id });
/** Refused requests aim at the seeded enquiry's address (an erase would show); the proper one at the control enquiries'. */
const eraseAddress = ({ marker }: Values) => ({
  intent: "erase",
  email: marker === "refused" ? ENQUIRY.email : "control@example.com",
  confirmed: "yes",
});
/** What the data-requests page and its JSON file are asked about: the seeded enquiry's address. */
const dataRequest =
  (query = "") =>
  () =>
    `/admin/data-requests?email=${encodeURIComponent(ENQUIRY.email)}${query}`;
const credentials = ({ email, password }: Values) => ({ email, password });
/** The Team tab's invitation form: an address that says which request invited it. */
const inviteForm = ({ marker }: Values) => ({ intent: "invite", email: `invitee-${marker}@example.com`, role: "editor" });
/** The invitation's page, and its form: a name and a password long enough. */
const joinPage = ({ invitationToken }: Values) => `/admin/join?token=${invitationToken}`;
const joinData = ({ invitationToken }: Values) => `/admin/join.data?token=${invitationToken}`;
const resetPage = ({ resetToken }: Values) => `/admin/reset-password?token=${resetToken}`;
const resetData = ({ resetToken }: Values) => `/admin/reset-password.data?token=${resetToken}`;
const newPassword = ({ resetToken }: Values) => ({
  token: resetToken,
  password: "a new long password after a reset",
  confirm: "a new long password after a reset",
});
const joinForm = ({ marker }: Values) => ({ name: `Joiner ${marker}`, password: "a long password for a new member" });

/** A small JPEG, as an admin's upload. */
const JPEG = await twoToneJpeg(48, 32);
const jpegFile = (filename: string): FileField => ({ filename, type: "image/jpeg", data: JPEG });

const projectText = (title: string) => ({
  title,
  category: "Kitchen Renovation",
  description: "A project the access table saves.",
  duration: "2 weeks",
  budget: "£8,000",
  display_order: "",
  before_image_alt: "",
  after_image_alt: "",
});
/** With JavaScript: the form refers to images uploaded already. */
const createProjectForm = ({ marker, beforeUrl, afterUrl }: Values) => ({
  intent: "create-project",
  ...projectText(`Created ${marker}`),
  before_image_url: beforeUrl,
  after_image_url: afterUrl,
});
/** Without JavaScript: the form carries the files. */
const createProjectFields = ({ marker }: Values) => ({
  intent: "create-project",
  ...projectText(`Created ${marker}`),
  before_image_url: "",
  after_image_url: "",
});
const projectFiles = () => ({ before_image_file: jpegFile("before.jpg"), after_image_file: jpegFile("after.jpg") });
const updateProjectForm = ({ projectId, marker, beforeUrl, afterUrl }: Values) => ({
  intent: "update-project",
  id: projectId,
  ...projectText(`Updated ${marker}`),
  before_image_url: beforeUrl,
  after_image_url: afterUrl,
});
const toggleProject = ({ projectId }: Values) => ({ intent: "toggle-project", id: projectId, active: "false" });
const moveProject = ({ projectId }: Values) => ({ intent: "move-project", id: projectId, direction: "down" });
const deleteProject = ({ projectId }: Values) => ({ intent: "delete-project", id: projectId, confirmed: "yes" });
const uploadFile = () => ({ file: jpegFile("photo.jpg") });
/** The Website tab's Company section, saved to the draft with a name that says which request saved it. */
const saveSite = ({ marker, siteRevision }: Values) => ({
  intent: "save-section",
  section: "company",
  revision: siteRevision,
  "company.name": `Company ${marker}`,
  "company.shortName": "Company",
  "company.phone": "020 7946 0000",
  "company.email": "hello@example.com",
  "company.address": "1 Example Street, London EC1A 1AA",
});

const TABLE: Entry[] = [
  {
    // The dashboard around every tab: who is signed in, the banners, the unread count.
    route: "admin",
    handler: "loader",
    access: "admin",
    calls: [
      get(() => "/admin", "document"),
      get(() => "/admin/enquiries?filter=unread", "document"),
      get(() => "/admin.data", "data"),
      get(() => "/admin.data?_routes=routes%2Fadmin", "data"),
    ],
  },
  {
    // /admin itself: the first tab, and the addresses from before the tabs were routes, moved.
    route: "admin (index)",
    handler: "loader",
    access: "admin",
    calls: [
      get(() => "/admin?form=new", "document"),
      get(() => "/admin.data?edit=00000000-0000-4000-8000-000000000000", "data"),
      moved(() => "/admin?tab=contacts&filter=unread&page=1", "document", "/admin/enquiries?filter=unread&page=1"),
      moved(() => "/admin?tab=projects&form=new", "document", "/admin/projects?form=new"),
      moved(() => "/admin.data?tab=contacts&filter=spam&q=quarterman&select=all", "data", "/admin/enquiries?filter=spam&q=quarterman&select=all"),
    ],
  },
  {
    route: "admin/projects",
    handler: "loader",
    access: "admin",
    calls: [get(() => "/admin/projects", "document"), get(() => "/admin/projects?form=new", "document"), get(() => "/admin/projects.data", "data")],
  },
  {
    route: "admin/projects",
    handler: "action",
    access: "admin",
    calls: [
      send("POST", () => "/admin/projects", "document", "create-project", createProjectForm),
      send("POST", () => "/admin/projects", "document", "create-project", createProjectFields, projectFiles),
      send("POST", () => "/admin/projects.data", "data", "create-project", createProjectForm),
      send("POST", () => "/admin/projects.data?form=new", "data", "create-project", createProjectFields, projectFiles),
      send("POST", () => "/admin/projects", "document", "update-project", updateProjectForm),
      send("POST", () => "/admin/projects.data", "data", "update-project", updateProjectForm),
      send("POST", () => "/admin/projects", "document", "toggle-project", toggleProject),
      send("POST", () => "/admin/projects.data", "data", "toggle-project", toggleProject),
      // React Router runs the action for any mutation method, not only POST.
      send("PUT", () => "/admin/projects.data", "data", "toggle-project", toggleProject),
      send("POST", () => "/admin/projects", "document", "move-project", moveProject),
      send("POST", () => "/admin/projects.data", "data", "move-project", moveProject),
      send("POST", () => "/admin/projects", "document", "delete-project", deleteProject),
      send("POST", () => "/admin/projects.data", "data", "delete-project", deleteProject),
      send("DELETE", () => "/admin/projects", "document", "delete-project", deleteProject),
    ],
  },
  {
    route: "admin/enquiries",
    handler: "loader",
    access: "admin",
    calls: [
      get(() => "/admin/enquiries", "document"),
      get(() => "/admin/enquiries?filter=unread&page=1", "document"),
      get(() => "/admin/enquiries?filter=spam&q=quarterman&select=all", "document"),
      get(() => "/admin/enquiries.data", "data"),
      get(() => "/admin/enquiries.data?filter=read", "data"),
    ],
  },
  {
    route: "admin/enquiries",
    handler: "action",
    access: "admin",
    calls: [
      send("POST", () => "/admin/enquiries", "document", "mark-read", markRead),
      send("POST", () => "/admin/enquiries", "document", "delete", deleteIt),
      send("POST", () => "/admin/enquiries.data?filter=unread", "data", "mark-read", markRead),
      send("POST", () => "/admin/enquiries.data", "data", "delete", deleteIt),
      // React Router runs the action for any mutation method, not only POST.
      send("DELETE", () => "/admin/enquiries", "document", "delete", deleteIt),
      send("PATCH", () => "/admin/enquiries.data", "data", "mark-read", markRead),
      send("POST", () => "/admin/enquiries", "document", "mark-read", bulkMarkRead),
      send("POST", () => "/admin/enquiries.data", "data", "mark-unread", bulkMarkUnread),
      send("POST", () => "/admin/enquiries?q=control", "document", "delete", bulkDelete),
      send("POST", () => "/admin/enquiries.data", "data", "delete", bulkDelete),
      send("POST", () => "/admin/enquiries?filter=spam", "document", "not-spam", notSpam),
      send("POST", () => "/admin/enquiries.data?filter=spam", "data", "not-spam", notSpam),
      send("POST", () => "/admin/enquiries", "document", "retry-notification", retryNotification),
      send("POST", () => "/admin/enquiries.data", "data", "retry-notification", retryNotification),
    ],
  },
  {
    route: "admin/sign-in",
    handler: "action",
    access: "sign-in",
    calls: [
      send("POST", () => "/admin/sign-in", "document", "sign-in", credentials),
      send("POST", () => "/admin/sign-in.data", "data", "sign-in", credentials),
    ],
  },
  // The other steps of signing in: without a pending step, a link or e-mail (the server has none), they answer and change nothing.
  { route: "admin/two-step", handler: "loader", access: "public", calls: [get(() => "/admin/two-step", "document", "public")] },
  {
    route: "admin/two-step",
    handler: "action",
    access: "public",
    calls: [
      send(
        "POST",
        () => "/admin/two-step",
        "document",
        "public",
        () => ({ code: "123456" }),
      ),
    ],
  },
  { route: "admin/forgot-password", handler: "loader", access: "public", calls: [get(() => "/admin/forgot-password", "document", "public")] },
  {
    route: "admin/sign-out",
    handler: "loader",
    access: "admin",
    calls: [get(() => "/admin/sign-out", "document", "redirect"), get(() => "/admin/sign-out.data", "data", "redirect")],
  },
  {
    route: "admin/sign-out",
    handler: "action",
    access: "admin",
    calls: [send("POST", () => "/admin/sign-out", "document", "sign-out"), send("POST", () => "/admin/sign-out.data", "data", "sign-out")],
  },
  {
    route: "admin/enquiries.csv",
    handler: "loader",
    access: "admin",
    calls: [
      get(() => "/admin/enquiries.csv", "file", "download"),
      get(() => "/admin/enquiries.csv?filter=unread&q=quarterman", "file", "download"),
      get(() => "/admin/enquiries.csv.data", "data", "download"),
    ],
  },
  {
    route: "admin/enquiries/figures.csv",
    handler: "loader",
    access: "admin",
    calls: [get(() => "/admin/enquiries/figures.csv", "file", "figures-download"), get(() => "/admin/enquiries/figures.csv.data", "data", "figures-download")],
  },
  {
    route: "admin/data-requests",
    handler: "loader",
    access: "admin",
    calls: [
      get(() => "/admin/data-requests", "document"),
      get(dataRequest(), "document"),
      // The JSON file is answered by the route's middleware, before the loader; requireAdmin first there too.
      get(dataRequest("&format=json"), "document", "download"),
      get(() => "/admin/data-requests.data", "data"),
      get(() => `/admin/data-requests.data?email=${encodeURIComponent(ENQUIRY.email)}`, "data"),
    ],
  },
  {
    route: "admin/data-requests",
    handler: "action",
    access: "admin",
    calls: [send("POST", dataRequest(), "document", "erase", eraseAddress), send("POST", () => "/admin/data-requests.data", "data", "erase", eraseAddress)],
  },
  {
    route: "api/admin/enquiries",
    handler: "loader",
    access: "admin",
    calls: [
      get(() => "/api/admin/enquiries", "json"),
      get(() => "/api/admin/enquiries?filter=unread&page=1", "json"),
      get(() => "/api/admin/enquiries?filter=all&q=CONTROL", "json"),
      // A resource route answers single fetch too, though no page of ours asks it to.
      get(() => "/api/admin/enquiries.data", "data"),
    ],
  },
  {
    route: "admin/website",
    handler: "loader",
    access: "admin",
    calls: [
      get(() => "/admin/website", "document"),
      get(() => "/admin/website?section=pricing&notice=saved", "document"),
      get(() => "/admin/website.data", "data"),
    ],
  },
  {
    route: "admin/website",
    handler: "action",
    access: "admin",
    calls: [
      send("POST", () => "/admin/website?section=company", "document", "save-site", saveSite),
      send("POST", () => "/admin/website.data", "data", "save-site", saveSite),
    ],
  },
  {
    route: "admin/website/preview",
    handler: "loader",
    access: "admin",
    calls: [get(() => "/admin/website/preview", "document", "preview"), get(() => "/admin/website/preview.data", "data", "preview")],
  },
  {
    route: "admin/team",
    handler: "loader",
    access: "admin",
    calls: [get(() => "/admin/team", "document"), get(() => "/admin/team.data", "data")],
  },
  {
    route: "admin/team",
    handler: "action",
    access: "admin",
    calls: [send("POST", () => "/admin/team", "document", "invite", inviteForm), send("POST", () => "/admin/team.data", "data", "invite", inviteForm)],
  },
  {
    route: "admin/team/audit",
    handler: "loader",
    access: "admin",
    calls: [
      get(() => "/admin/team/audit", "document"),
      get(() => "/admin/team/audit?kind=sign-in&from=2026-01-01", "document"),
      get(() => "/admin/team/audit.data", "data"),
    ],
  },
  {
    route: "admin/team/audit.csv",
    handler: "loader",
    access: "admin",
    calls: [get(() => "/admin/team/audit.csv", "file", "audit-download"), get(() => "/admin/team/audit.csv?kind=sign-in", "file", "audit-download")],
  },
  {
    route: "admin/enquiries/settings",
    handler: "loader",
    access: "admin",
    calls: [get(() => "/admin/enquiries/settings", "document"), get(() => "/admin/enquiries/settings.data", "data")],
  },
  {
    route: "admin/enquiries/settings",
    handler: "action",
    access: "admin",
    calls: [
      send("POST", () => "/admin/enquiries/settings", "document", "save-settings", saveSettings),
      send("POST", () => "/admin/enquiries/settings.data", "data", "save-settings", saveSettings),
    ],
  },
  {
    route: "admin/enquiries/reply",
    handler: "loader",
    access: "admin",
    calls: [get(({ id }) => `/admin/enquiries/reply?id=${id}`, "document"), get(({ id }) => `/admin/enquiries/reply.data?id=${id}`, "data")],
  },
  {
    route: "admin/enquiries/reply",
    handler: "action",
    access: "admin",
    calls: [
      send("POST", ({ id }) => `/admin/enquiries/reply?id=${id}`, "document", "reply", replyForm),
      send("POST", ({ id }) => `/admin/enquiries/reply.data?id=${id}`, "data", "reply", replyForm),
    ],
  },
  {
    route: "admin/join",
    handler: "loader",
    access: "invitation",
    calls: [get(joinPage, "document", "join-page"), get(joinData, "data", "join-page")],
  },
  {
    route: "admin/join",
    handler: "action",
    access: "invitation",
    calls: [send("POST", joinPage, "document", "join", joinForm), send("POST", joinData, "data", "join", joinForm)],
  },
  {
    route: "admin/forgot-password",
    handler: "action",
    access: "reset",
    calls: [
      send(
        "POST",
        () => "/admin/forgot-password",
        "document",
        "reset-request",
        ({ email }) => ({ email }),
      ),
      send(
        "POST",
        () => "/admin/forgot-password.data",
        "data",
        "reset-request",
        ({ email }) => ({ email }),
      ),
    ],
  },
  {
    route: "admin/reset-password",
    handler: "loader",
    access: "reset",
    calls: [get(resetPage, "document", "reset-page"), get(resetData, "data", "reset-page")],
  },
  {
    route: "admin/reset-password",
    handler: "action",
    access: "reset",
    calls: [send("POST", resetPage, "document", "reset", newPassword), send("POST", resetData, "data", "reset", newPassword)],
  },
  {
    // The member's own account page: any member, their own settings only.
    route: "admin/account",
    handler: "loader",
    access: "admin",
    calls: [get(() => "/admin/account", "document"), get(() => "/admin/account?setup=required", "document"), get(() => "/admin/account.data", "data")],
  },
  {
    route: "admin/account",
    handler: "action",
    access: "admin",
    calls: [
      send(
        "POST",
        () => "/admin/account",
        "document",
        "end-other-sessions",
        () => ({ intent: "end-other-sessions" }),
      ),
      send(
        "POST",
        () => "/admin/account.data",
        "data",
        "end-other-sessions",
        () => ({ intent: "end-other-sessions" }),
      ),
    ],
  },
  {
    // Adding a passkey: the registration options (a JSON body; sent so in the test of its effect).
    route: "api/admin/passkeys",
    handler: "action",
    access: "admin",
    calls: [
      send(
        "POST",
        () => "/api/admin/passkeys",
        "json",
        "passkey-options",
        () => ({ step: "options" }),
      ),
    ],
  },
  {
    route: "api/admin/images",
    handler: "action",
    access: "admin",
    calls: [
      send(
        "POST",
        () => "/api/admin/images",
        "json",
        "upload",
        () => ({}),
        uploadFile,
      ),
    ],
  },
];

/** Routes whose path starts like these are admin routes: the table must cover their loaders and actions. */
const ADMIN_PATH = /^(?:api\/)?admin/i;

// ---------------------------------------------------------------------------
// The handlers the app really has, from app/routes.ts and the route modules
// ---------------------------------------------------------------------------

/** Every loader and action of an admin route, as "<path> loader|action". */
async function adminHandlersInApp(): Promise<string[]> {
  const found: string[] = [];
  for (const route of await appRoutes()) {
    // An index route has its parent's path: "admin (index)" is /admin's own, "admin" the dashboard around every tab.
    if (ADMIN_PATH.test(route.path)) for (const handler of await handlersOf(route)) found.push(`${route.path}${route.index ? " (index)" : ""} ${handler}`);
  }
  return found.sort();
}

describe("the table of admin handlers", () => {
  it("has an entry for every loader and action of an admin route, and none for a handler that is gone", async () => {
    const inApp = await adminHandlersInApp();
    // Guards the discovery itself: if it found nothing, the comparison below would prove nothing.
    expect(inApp).toContain("admin loader");
    const inTable = TABLE.map((entry) => `${entry.route} ${entry.handler}`);
    expect(new Set(inTable).size, "one entry per handler").toBe(inTable.length);
    const missing = inApp.filter((handler) => !inTable.includes(handler));
    const stale = inTable.filter((handler) => !inApp.includes(handler));
    // missing: admin handlers to add to TABLE; stale: TABLE entries for handlers that no longer exist.
    expect({ missing, stale }, "TABLE in tests/integration/admin-access.test.ts against app/routes.ts").toEqual({ missing: [], stale: [] });
    for (const entry of TABLE) expect(entry.calls.length, `${entry.route} ${entry.handler}: requests`).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

const ADMIN = { email: "warden@example.com", password: "a long test password 1" };
const COOKIE_NAME = "__Host-admin_session";
const ENQUIRY = {
  name: "Ottoline Quarterman",
  email: "ottoline.quarterman@example.net",
  phone: "020 7946 0777",
  userType: "landlord",
  message: "Private details: four flats on Quince Row need an agent.",
};
/** Shown to the admin only (the public gallery leaves inactive projects out). */
const HIDDEN_PROJECT = "Unpublished Quince Row Basement";
/** Everything that counts as admin data in a response to somebody who is not the admin. */
const SECRETS = [ENQUIRY.name, ENQUIRY.email, ENQUIRY.phone, ENQUIRY.message, ADMIN.email, HIDDEN_PROJECT];

const PLACEHOLDERS: Values = {
  id: "<id>",
  email: "<email>",
  password: "<password>",
  projectId: "<project>",
  beforeUrl: "<before>",
  afterUrl: "<after>",
  marker: "<marker>",
  siteRevision: "<revision>",
  invitationToken: "<token>",
  resetToken: "<token>",
};

function label(call: Call): string {
  const fields = call.form ? new URLSearchParams(call.form(PLACEHOLDERS)).toString() : "";
  const files = call.files ? Object.keys(call.files()).map((name) => `${name}=<file>`) : [];
  const shown = [decodeURIComponent(fields), ...files].filter(Boolean).join("&");
  return `${call.method} ${call.path(PLACEHOLDERS)}${shown ? ` [${shown}]` : ""}`;
}

type Case = { label: string; entry: Entry; call: Call };
const allCases: Case[] = TABLE.flatMap((entry) => entry.calls.map((call) => ({ label: `${label(call)} (${entry.route} ${entry.handler})`, entry, call })));
const actionCases = allCases.filter(({ entry }) => entry.handler === "action");

/** What another site's page may send; each must be refused for a write. */
const FOREIGN = [
  { label: "Origin of another site", headers: (_url: string) => ({ origin: "https://evil.example" }) },
  { label: "Origin: null", headers: (_url: string) => ({ origin: "null" }) },
  { label: "Origin of another port on the same host", headers: (url: string) => ({ origin: url.replace(/:\d+$/, ":1") }) },
  { label: "no Origin, Sec-Fetch-Site: cross-site", headers: (_url: string) => ({ "sec-fetch-site": "cross-site" }) },
  { label: "no Origin, Sec-Fetch-Site: same-site", headers: (_url: string) => ({ "sec-fetch-site": "same-site" }) },
];

function header(response: RawResponse, name: string): string {
  const value = response.headers[name];
  return Array.isArray(value) ? value.join(", ") : (value ?? "");
}

/** Session cookies the response sets with a value (clearing one, `name=;`, does not count). */
function sessionsSet(response: RawResponse): string[] {
  const cookies = (response.headers["set-cookie"] ?? []) as string[];
  return cookies.filter((cookie) => new RegExp(`^${COOKIE_NAME}=[^;]+`).test(cookie));
}

function expectNoAdminData(response: RawResponse, what: string) {
  for (const secret of SECRETS) expect(response.text, `${what}: the body must not contain "${secret}"`).not.toContain(secret);
}

/** A step of signing in without what it needs (a pending step, a link, e-mail): a page or a redirect, never a 5xx. */
function expectPublicAnswer(response: RawResponse, what: string) {
  expect([200, 202, 302, 400, 404, 410], `${what}: ${response.status}`).toContain(response.status);
}

function expectNoStore(response: RawResponse, what: string) {
  expect(header(response, "cache-control"), `${what}: Cache-Control`).toMatch(/\bno-store\b/);
}

beforeAll(() => assertBuilt());

describe.each(backends)("admin access on $name", (backend) => {
  let database: TestDatabase;
  let server: SpawnedServer;
  let reader: Database;
  /** The seeded enquiry every refused request aims at. */
  let enquiryId: string;
  /** "__Host-admin_session=<token>" of the admin's session. */
  let session: string;
  /** The seeded project every refused request aims at, and two uploads a project form may refer to. */
  let projectId: string;
  let beforeUrl: string;
  let afterUrl: string;
  let imagesDir: string;

  /** What a request aimed at the seeded data sends (the credentials differ by test). */
  const seeded = (credentials: { email: string; password: string }): Values => ({
    id: enquiryId,
    ...credentials,
    projectId,
    beforeUrl,
    afterUrl,
    marker: "refused",
    siteRevision: "0",
    // A link that names no invitation: a request that must be refused never joins.
    invitationToken: "A".repeat(43),
    // A link that names no reset: a request that must be refused sets no password.
    resetToken: "A".repeat(43),
  });

  /** One request, exactly as given (node:http: no headers of its own but Host and Connection). */
  function request(call: Call, values: Values, headers: Record<string, string> = {}, method: string = call.method): Promise<RawResponse> {
    let body: string | Buffer | undefined;
    let contentType = "application/x-www-form-urlencoded";
    if (method === "GET" || method === "HEAD") body = undefined;
    else if (call.files) {
      const fields = Object.entries(call.form?.(values) ?? {}).map(([name, value]) => ({ name, value }));
      const files = Object.entries(call.files()).map(([name, file]) => ({ name, ...file }));
      ({ contentType, body } = multipartBody([...fields, ...files]));
    } else body = new URLSearchParams(call.form?.(values) ?? {}).toString();
    return rawRequest(server.port, {
      method,
      path: call.path(values),
      headers: {
        ...(body === undefined ? {} : { "content-type": contentType, "content-length": String(Buffer.byteLength(body)) }),
        ...headers,
      },
      body,
    });
  }

  const sameOrigin = () => ({ origin: server.url });

  async function seedEnquiry(overrides: Partial<typeof ENQUIRY> = {}): Promise<string> {
    const response = await fetch(`${server.url}/api/contact`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.url },
      body: JSON.stringify({ ...ENQUIRY, ...overrides }),
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  }

  async function signIn(): Promise<string> {
    const call = TABLE.find((entry) => entry.route === "admin/sign-in")!.calls[0]!;
    const response = await request(call, { ...PLACEHOLDERS, ...ADMIN }, sameOrigin());
    expect(response.status, "sign-in").toBe(302);
    const [cookie] = sessionsSet(response);
    expect(cookie, "a session cookie").toBeTruthy();
    return cookie!.split(";")[0]!;
  }

  /** A pending invitation (an owner's, with e-mail off), by its link's token. */
  async function invitationFor(email: string): Promise<string> {
    const owner = await reader.db.selectFrom("admin_users").select("id").where("email", "=", ADMIN.email).executeTakeFirstOrThrow();
    const invited = await inviteMember(
      reader.db,
      { email, role: "owner" },
      memberActor({ adminId: owner.id, email: ADMIN.email, role: "owner" }, "127.0.0.1"),
      {
        mail: undefined,
        companyName: "Test",
        siteUrl: server.url,
      },
    );
    if (!invited.ok || invited.delivery.kind !== "link") throw new Error(`${email} was not invited`);
    return new URL(invited.delivery.link).searchParams.get("token")!;
  }

  /** Control projects are created last in the list, each below the one before. */
  let controlOrder = 50_000;
  function controlProject([before, after]: string[]) {
    return createProject(
      reader.db,
      {
        title: `Control project ${controlOrder}`,
        category: "Kitchen Renovation",
        description: "A project for one request of the table.",
        duration: "1 week",
        budget: "£1,000",
        before_image_url: before!,
        after_image_url: after!,
        display_order: controlOrder++,
      },
      TEST_ACTOR,
    );
  }

  async function enquiriesAs(cookie: string) {
    const response = await fetch(`${server.url}/api/admin/enquiries`, { headers: { cookie } });
    return { status: response.status, body: (await response.json()) as { submissions?: Array<{ id: string; is_read: boolean }> } };
  }

  /**
   * What a refused request must leave as it was: everything a request can
   * change (tests/support/data-snapshot.ts) but the limits' counts, where a
   * refused sign-in is rightly recorded (auth.test.ts).
   */
  async function snapshot() {
    const { limits: _recorded, ...unchanged } = await dataSnapshot(reader, imagesDir);
    return unchanged;
  }

  /** Nothing changed: as the admin sees it over HTTP, and in the database. */
  async function expectUnchanged(before: Awaited<ReturnType<typeof snapshot>>, what: string) {
    const { status, body } = await enquiriesAs(session);
    expect(status, `${what}: the admin's session still works`).toBe(200);
    expect(
      body.submissions?.find((submission) => submission.id === enquiryId),
      `${what}: the enquiry is there, unread`,
    ).toMatchObject({
      is_read: false,
    });
    expect(await snapshot(), `${what}: the database`).toEqual(before);
  }

  beforeAll(async () => {
    database = await backend.createDatabase({ migrated: true });
    imagesDir = path.join(database.env.DATA_DIR, "images");
    const seeding = database.open();
    const hidden = await createProject(
      seeding.db,
      {
        title: HIDDEN_PROJECT,
        category: "Basement Conversion",
        description: "Not yet published.",
        duration: "9 weeks",
        budget: "£40,000",
        before_image_url: "/samples/kitchen-before.svg",
        after_image_url: "/samples/kitchen-after.svg",
        is_active: false,
      },
      TEST_ACTOR,
    );
    projectId = hidden.id;
    const images = { db: seeding.db, storage: new LocalDiskStorage(imagesDir, IMAGE_NAMING) };
    beforeUrl = (await saveImage(images, JPEG, TEST_ACTOR)).url;
    afterUrl = (await saveImage(images, JPEG, TEST_ACTOR)).url;
    await seeding.close();
    // Every request of the tables comes from this one address: the sign-in's and the invitation's per-address limits are not under test.
    server = await startServer({
      ...database.env,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      CONTACT_RATE_LIMIT: "1000",
      LOGIN_RATE_LIMIT: "1000",
    });
    reader = database.open();
    enquiryId = await seedEnquiry();
    session = await signIn();
  });

  afterAll(async () => {
    await server?.stop();
    await database?.cleanup();
  });

  describe("every admin route in app/routes.ts, anonymously", () => {
    /** "admin/data-requests" and the like: every route under the admin prefix but the sign-in and the invitation's page, open by nature. */
    async function adminRoutePaths(): Promise<string[]> {
      const paths = (await appRoutes()).map((route) => route.path).filter((routePath) => ADMIN_PATH.test(routePath) && !OPEN_TO_ANYBODY.has(routePath));
      return [...new Set(paths)];
    }

    /**
     * A request whose body never ends: its answer proves the server decided
     * without reading the body (a handler that read it would wait for ever).
     */
    function answerWithoutBody(method: "GET" | "POST", routePath: string): Promise<number> {
      return new Promise((resolve, reject) => {
        const socket = net.connect(server.port, "127.0.0.1");
        let text = "";
        socket.setEncoding("latin1");
        socket.setTimeout(10_000, () => {
          socket.destroy();
          reject(new Error(`${method} /${routePath}: no answer in 10 s; the body must have been waited for`));
        });
        socket.on("data", (chunk: string) => {
          text += chunk;
          const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
          if (status) {
            socket.destroy();
            resolve(Number(status[1]));
          }
        });
        socket.on("error", reject);
        const headers = [`${method} /${routePath} HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, `Origin: ${server.url}`];
        if (method === "POST") headers.push("Content-Type: application/x-www-form-urlencoded", "Transfer-Encoding: chunked");
        socket.write(`${headers.join("\r\n")}\r\n\r\n${method === "POST" ? "5\r\nintent\r\n" : ""}`);
      });
    }

    it("is refused, GET and POST alike, before any body is read", async () => {
      const paths = await adminRoutePaths();
      expect(paths).toEqual(expect.arrayContaining(["admin", "admin/enquiries", "admin/data-requests", "api/admin/images"]));
      for (const routePath of paths) {
        for (const method of ["GET", "POST"] as const) {
          const status = await answerWithoutBody(method, routePath);
          // A page visit gets the sign-in page (200); writes and APIs 401.
          expect([200, 401], `${method} /${routePath}: ${status}`).toContain(status);
          if (method === "POST") expect(status, `POST /${routePath}`).toBe(401);
        }
      }
    });
  });

  describe("without a session", () => {
    // Same origin, so that the missing session is the only reason to refuse.
    // The sign-in is sent with wrong credentials: it is open to anybody, and must then refuse them.
    it.each(allCases)("refuses $label and shows no admin data", async ({ entry, call }) => {
      const before = await snapshot();
      const values = seeded({ email: "stranger@example.com", password: "not the password at all" });
      const response = await request(call, values, call.method === "GET" ? {} : sameOrigin());
      const what = label(call);

      expectNoStore(response, what);
      expectNoAdminData(response, what);
      expect(sessionsSet(response), `${what}: no session cookie`).toEqual([]);

      if (entry.access === "redirect") {
        // Reads nothing and says nothing: sends the visitor to /admin (single fetch encodes the redirect in a 202).
        if (call.format === "document") {
          expect(response.status, what).toBe(302);
          expect(header(response, "location")).toBe("/admin");
        } else {
          expect(response.status, what).toBe(202);
          expect(response.text).toMatch(/"SingleFetchRedirect".*"redirect","\/admin"/);
        }
      } else if (entry.access === "sign-in") {
        expect(response.status, what).toBe(401);
        expect(response.text).toContain(LOGIN_TEXT.failure);
      } else if (entry.access === "reset") {
        // Asking for a link: the same answer for every address, the page that says one is on its way.
        // The made-up link: said plainly, with nothing of the team in it.
        if (entry.route === "admin/forgot-password") {
          expect(response.status, what).toBe(call.format === "document" ? 302 : 202);
          expect(call.format === "document" ? header(response, "location") : response.text, what).toContain("/admin/forgot-password?sent");
        } else {
          expect(response.status, what).toBe(404);
          if (call.format === "document") expect(htmlText(response.text)).toContain(RESET_TEXT.invalid);
          else expect(response.text).toContain('"state","invalid"');
        }
      } else if (entry.access === "invitation") {
        // The made-up link: said plainly, with nothing of the team in it.
        expect(response.status, what).toBe(404);
        expect(response.text).toContain(INVITATION_TEXT.unknownLink);
      } else if (entry.access === "public") {
        expectPublicAnswer(response, what);
      } else {
        // A page visit is answered with the sign-in page, 200 as sign-in pages are (isSignInPage in
        // app/auth/require-admin.server.ts); writes, data requests and the API with 401.
        expect(response.status, what).toBe(call.format === "document" && call.method === "GET" ? 200 : 401);
        if (call.format === "document") {
          // The route's ErrorBoundary renders the sign-in form in place of the page.
          expect(header(response, "content-type")).toMatch(/^text\/html/);
          expect(response.text).toContain(LOGIN_TEXT.title);
        } else if (call.format === "json") {
          expect(header(response, "content-type")).toMatch(/^application\/json/);
          expect(JSON.parse(response.text)).toEqual({ error: "Sign in required." });
        } else if (call.format === "file") {
          // No file is handed out: a bare refusal, with nothing to save.
          expect(header(response, "content-disposition"), what).toBe("");
          expect(header(response, "content-type"), what).not.toMatch(/^text\/csv/);
        } else {
          // Single fetch answers a thrown 401 with status 401 and the error, turbo-stream encoded
          // (["ErrorResponse", …, 401, "Sign in required", …]) in place of any loader data:
          // a refusal the client renders as the sign-in form, with no admin data in it.
          expect(header(response, "content-type")).toMatch(/^text\/x-script/);
          expect(response.text).toContain('"ErrorResponse"');
          expect(response.text).toMatch(/\b401\b/);
        }
      }
      await expectUnchanged(before, what);
    });
  });

  describe("from another site", () => {
    const cases = actionCases.flatMap((action) =>
      FOREIGN.flatMap((foreign) =>
        [true, false].map((signedIn) => ({
          ...action,
          foreign,
          signedIn,
          label: `${action.label}, ${foreign.label}, ${signedIn ? "signed in" : "no session"}`,
        })),
      ),
    );

    it.each(cases)("refuses $label with 403", async ({ call, foreign, signedIn }) => {
      const before = await snapshot();
      // For the sign-in, the right credentials: only where the request comes from may stop it.
      const values = seeded(ADMIN);
      const response = await request(call, values, { ...foreign.headers(server.url), ...(signedIn ? { cookie: session } : {}) });
      const what = `${label(call)}, ${foreign.label}`;

      expect(response.status, what).toBe(403);
      expectNoStore(response, what);
      expectNoAdminData(response, what);
      expect(sessionsSet(response), `${what}: no session cookie`).toEqual([]);
      if (call.format === "document") expect(response.text).toContain(CROSS_SITE_MESSAGE);
      else expect(JSON.parse(response.text)).toEqual({ error: CROSS_SITE_MESSAGE });
      await expectUnchanged(before, what);
    });
  });

  describe("GET and HEAD never change anything", () => {
    // Every request of the table, as a GET or HEAD with its form fields in the query string: what a
    // link or an <img> on another site can make a signed-in browser send (SameSite=Lax lets the
    // cookie through on a top-level navigation).
    const cases = allCases.flatMap((item) =>
      (["GET", "HEAD"] as const).flatMap((method) =>
        [false, true].map((crossSite) => ({
          ...item,
          method,
          crossSite,
          label: `${method} ${label(item.call).replace(/^\S+ /, "")}${crossSite ? ", from another site" : ""}`,
        })),
      ),
    );

    it.each(cases)("$label", async ({ call, method, crossSite }) => {
      const before = await snapshot();
      const values = seeded(ADMIN);
      const query = new URLSearchParams(call.form?.(values) ?? {}).toString();
      const target = call.path(values);
      const asGet: Call = { ...call, path: () => (query ? `${target}${target.includes("?") ? "&" : "?"}${query}` : target) };
      const response = await request(
        asGet,
        values,
        { cookie: session, ...(crossSite ? { origin: "https://evil.example", "sec-fetch-site": "cross-site" } : {}) },
        method,
      );
      const what = `${method} ${asGet.path(values)}`;

      expect(response.status, what).toBeLessThan(500);
      expectNoStore(response, what);
      expect(sessionsSet(response), `${what}: no session cookie`).toEqual([]);
      // Another site's script may not read the answer either.
      expect(header(response, "access-control-allow-origin"), `${what}: CORS`).toBe("");
      await expectUnchanged(before, what);
    });
  });

  describe("a form posted to the dashboard's own address, which takes none (each tab's forms post to the tab)", () => {
    it("is answered 405 (a page from before the tabs were routes), changing nothing, in one log line with no stack trace", async () => {
      const before = await snapshot();
      const log = () => server.stdout() + server.stderr();
      const from = log().length;
      const paths = ["/admin", "/admin?tab=contacts", "/admin?index", "/admin.data?tab=contacts"];
      for (const target of paths) {
        const body = `intent=mark-read&id=${enquiryId}`;
        const response = await rawRequest(server.port, {
          method: "POST",
          path: target,
          headers: { ...sameOrigin(), cookie: session, "content-type": "application/x-www-form-urlencoded", "content-length": String(body.length) },
          body,
        });
        expect(response.status, target).toBe(405);
        expectNoStore(response, target);
      }
      const requestLines = () => logLines(log().slice(from)).filter((line) => line.msg === "request");
      await waitFor(`${paths.length} request lines`, () => requestLines().length >= paths.length);
      const output = log().slice(from);
      expect(
        output.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("{")),
        "output that is not a log line",
      ).toEqual([]);
      expect(output, "a stack trace in the log").not.toMatch(/"stack"|\\n\s+at /);
      await expectUnchanged(before, "POST /admin");
    });
  });

  describe("under other spellings of the same paths", () => {
    // React Router matches paths case-insensitively and percent-decoded, so these reach the same
    // loaders: they must be refused, and kept out of caches, as the canonical paths are.
    const ALIASES = [
      "/Admin",
      "/ADMIN/enquiries",
      "/%61dmin/enquiries?filter=unread",
      "/admin/enquiries/",
      "/Admin/Enquiries.data",
      "/admin/PROJECTS",
      "/API/admin/enquiries",
      "/api/Admin/enquiries",
    ];

    it.each(ALIASES)("GET %s without a session: refused, no admin data, not stored", async (alias) => {
      const response = await rawRequest(server.port, { method: "GET", path: alias });
      expectNoAdminData(response, alias);
      if (response.status === 200) expect(response.text, `${alias}: the sign-in page`).toContain(LOGIN_TEXT.title);
      else expect(response.status, alias).toBe(401);
      expectNoStore(response, alias);
    });

    it.each(ALIASES)("GET %s signed in: the admin's data, not stored", async (alias) => {
      const response = await rawRequest(server.port, { method: "GET", path: alias, headers: { cookie: session } });
      expect(response.status, alias).toBe(200);
      expect(response.text, `${alias}: served by the admin's loader`).toContain(alias.toLowerCase().startsWith("/api/") ? enquiryId : ADMIN.email);
      expectNoStore(response, alias);
    });
  });

  describe("sent properly (signed in, same origin), every request of the table works", () => {
    it.each(allCases)("$label", async ({ call }) => {
      const what = label(call);
      const anotherEnquiry = await seedEnquiry({ name: "Control Enquiry", email: "control@example.com", message: `Control for ${what}` });
      // A project of its own with a neighbour below it (last in the list), and two new uploads for the forms.
      const images = { db: reader.db, storage: new LocalDiskStorage(imagesDir, IMAGE_NAMING) };
      const controlImages = [(await saveImage(images, JPEG, TEST_ACTOR)).url, (await saveImage(images, JPEG, TEST_ACTOR)).url];
      const control = await controlProject(controlImages);
      await controlProject(controlImages);
      const values: Values = {
        id: anotherEnquiry,
        ...ADMIN,
        projectId: control.id,
        beforeUrl: (await saveImage(images, JPEG, TEST_ACTOR)).url,
        afterUrl: (await saveImage(images, JPEG, TEST_ACTOR)).url,
        marker: randomBytes(6).toString("hex"),
        siteRevision: String((await reader.db.selectFrom("site_draft").select("revision").executeTakeFirst())?.revision ?? 0),
        invitationToken:
          call.effect === "join" || call.effect === "join-page" ? await invitationFor(`joiner-${randomBytes(6).toString("hex")}@example.com`) : "",
        resetToken:
          call.effect === "reset" || call.effect === "reset-page"
            ? await memberWithResetLink(reader.db, `resetter-${randomBytes(6).toString("hex")}@example.com`)
            : "",
      };
      const properly = () => request(call, values, { ...sameOrigin(), cookie: session });
      const redirected = call.format === "document" ? 302 : 202;
      const storedFiles = async (urls: string[]) => {
        const files = await filesIn(imagesDir);
        return urls.map(imageNameFromUrl).filter((name) => name !== undefined && files.includes(name));
      };

      switch (call.effect) {
        case "read": {
          const response = await request(call, values, { cookie: session });
          expect(response.status, what).toBe(200);
          expectNoStore(response, what);
          // The loader ran for the admin: the page or data holds what only the admin sees.
          expect(response.text).toContain(call.path(values).startsWith("/api/") ? anotherEnquiry : ADMIN.email);
          break;
        }
        case "redirect": {
          const response = await request(call, values, { cookie: session });
          expect(response.status, what).toBe(call.format === "document" ? 302 : 202);
          expect((await enquiriesAs(session)).status, "the session survives").toBe(200);
          break;
        }
        case "mark-unread": {
          await reader.db.updateTable("contact_submissions").set({ is_read: true }).where("id", "=", anotherEnquiry).execute();
          const response = await request(call, values, { ...sameOrigin(), cookie: session });
          expect(response.status, what).toBe(200);
          const row = await reader.db.selectFrom("contact_submissions").select("is_read").where("id", "=", anotherEnquiry).executeTakeFirstOrThrow();
          expect(toBoolean(row.is_read), `${what}: unread`).toBe(false);
          break;
        }
        case "not-spam": {
          await reader.db.updateTable("contact_submissions").set({ spam_reason: "links", is_read: true }).where("id", "=", anotherEnquiry).execute();
          const response = await request(call, values, { ...sameOrigin(), cookie: session });
          expect(response.status, what).toBe(200);
          const row = await reader.db
            .selectFrom("contact_submissions")
            .select(["spam_reason", "is_read"])
            .where("id", "=", anotherEnquiry)
            .executeTakeFirstOrThrow();
          expect({ spam: row.spam_reason, read: toBoolean(row.is_read) }, `${what}: in the inbox, unread`).toEqual({ spam: null, read: false });
          break;
        }
        case "retry-notification": {
          // A notification that gave up (no next attempt); Retry now makes it due again.
          const at = new Date().toISOString();
          const job = randomUUID();
          await reader.db
            .insertInto("email_outbox")
            .values({
              id: job,
              submission_id: anotherEnquiry,
              kind: "notification",
              message: "{}",
              status: "failed",
              attempts: 8,
              next_attempt_at: null,
              last_error: "Connection refused",
              created_at: at,
              updated_at: at,
            })
            .execute();
          const response = await request(call, values, { ...sameOrigin(), cookie: session });
          expect(response.status, what).toBe(200);
          const row = await reader.db.selectFrom("email_outbox").select("next_attempt_at").where("id", "=", job).executeTakeFirstOrThrow();
          expect(row.next_attempt_at, `${what}: due again`).not.toBeNull();
          break;
        }
        case "download": {
          const response = await request(call, values, { cookie: session });
          expect(response.status, what).toBe(200);
          expectNoStore(response, what);
          if (call.format !== "data") expect(header(response, "content-disposition"), what).toMatch(/^attachment; filename="/);
          // The file (or its single-fetch form) holds the seeded enquiry: the loader ran for the admin.
          expect(response.text, what).toContain(ENQUIRY.email);
          break;
        }
        case "erase": {
          const response = await properly();
          expect(response.status, what).toBe(200);
          const left = await reader.db.selectFrom("contact_submissions").select("id").where("email", "=", "control@example.com").execute();
          expect(left, `${what}: erased`).toEqual([]);
          const seededEnquiry = await reader.db.selectFrom("contact_submissions").select("id").where("id", "=", enquiryId).executeTakeFirst();
          expect(seededEnquiry, `${what}: another address's enquiry stays`).toBeDefined();
          break;
        }
        case "mark-read":
        case "delete": {
          const response = await request(call, values, { ...sameOrigin(), cookie: session });
          expect(response.status, what).toBe(200);
          const row = await reader.db.selectFrom("contact_submissions").select("is_read").where("id", "=", anotherEnquiry).executeTakeFirst();
          if (call.effect === "delete") expect(row, `${what}: deleted`).toBeUndefined();
          else expect(toBoolean(row!.is_read), `${what}: read`).toBe(true);
          break;
        }
        case "sign-out": {
          const other = await signIn();
          const response = await request(call, values, { ...sameOrigin(), cookie: other });
          expect(response.status, what).toBe(call.format === "document" ? 302 : 202);
          expect((await enquiriesAs(other)).status, "the signed-out session").toBe(401);
          expect((await enquiriesAs(session)).status, "the admin's other session").toBe(200);
          break;
        }
        case "public": {
          expectPublicAnswer(await properly(), what);
          break;
        }
        case "end-other-sessions": {
          const other = await signIn();
          const response = await properly();
          expect(response.status, what).toBe(200);
          expect((await enquiriesAs(other)).status, "the other session").toBe(401);
          expect((await enquiriesAs(session)).status, "the session that asked").toBe(200);
          break;
        }
        case "passkey-options": {
          // Passkeys need a name, not a bare IP: as a browser at http://localhost:<port> sends it.
          const host = `localhost:${server.port}`;
          const body = JSON.stringify(call.form!(values));
          const response = await rawRequest(server.port, {
            method: "POST",
            path: call.path(values),
            headers: { host, origin: `http://${host}`, cookie: session, "content-type": "application/json", "content-length": String(body.length) },
            body,
          });
          expect(response.status, `${what}: ${response.text}`).toBe(200);
          expectNoStore(response, what);
          expect(JSON.parse(response.text), what).toMatchObject({ rp: { id: "localhost" }, user: { name: ADMIN.email } });
          break;
        }
        case "sign-in": {
          const response = await request(call, values, sameOrigin());
          expect(response.status, what).toBe(call.format === "document" ? 302 : 202);
          const [cookie] = sessionsSet(response);
          expect(cookie, `${what}: a session cookie`).toBeTruthy();
          expect((await enquiriesAs(cookie!.split(";")[0]!)).status, "the new session").toBe(200);
          break;
        }
        case "upload": {
          const response = await properly();
          expect(response.status, `${what}: ${response.text}`).toBe(201);
          expectNoStore(response, what);
          const { url, name } = JSON.parse(response.text) as { url: string; name: string };
          expect(url).toBe(`/images/${name}`);
          expect(await reader.db.selectFrom("images").select("name").where("name", "=", name).executeTakeFirst(), `${what}: recorded`).toBeDefined();
          expect(await storedFiles([url]), `${what}: stored`).toEqual([name]);
          break;
        }
        case "create-project": {
          const response = await properly();
          expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBe(redirected);
          const created = (await listAllProjects(reader.db)).find((project) => project.title === `Created ${values.marker}`);
          expect(created, `${what}: created`).toBeDefined();
          if (call.files) {
            // The files of the form, stored as new uploads.
            expect(created!.before_image_url).toMatch(/^\/images\//);
            expect(created!.before_image_url).not.toBe(values.beforeUrl);
            expect(created!.before_image_sources).not.toBeNull();
          } else {
            expect(created).toMatchObject({ before_image_url: values.beforeUrl, after_image_url: values.afterUrl });
          }
          break;
        }
        case "update-project": {
          const response = await properly();
          expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBe(redirected);
          expect(await getProject(reader.db, control.id), `${what}: saved`).toMatchObject({
            title: `Updated ${values.marker}`,
            before_image_url: values.beforeUrl,
            after_image_url: values.afterUrl,
          });
          // The replaced images are still used by the neighbour, so they stay.
          expect(await storedFiles(controlImages)).toHaveLength(2);
          break;
        }
        case "toggle-project": {
          const response = await properly();
          expect(response.status, what).toBe(200);
          expect((await getProject(reader.db, control.id))!.is_active, `${what}: hidden`).toBe(false);
          break;
        }
        case "move-project": {
          const before = (await listAllProjects(reader.db)).map((project) => project.id);
          const response = await properly();
          expect(response.status, what).toBe(200);
          const after = (await listAllProjects(reader.db)).map((project) => project.id);
          expect(after.indexOf(control.id), `${what}: one place down`).toBe(before.indexOf(control.id) + 1);
          break;
        }
        case "delete-project": {
          const response = await properly();
          expect(response.status, what).toBe(200);
          expect(await getProject(reader.db, control.id), `${what}: deleted`).toBeUndefined();
          break;
        }
        case "save-settings": {
          const response = await properly();
          expect(response.status, what).toBe(200);
          const { reasons } = await readEnquirySettings(reader.db);
          expect(reasons, `${what}: saved`).toEqual([`Reason ${values.marker}`]);
          break;
        }
        case "reply": {
          // This server has no mail server: the reply is refused, says why (the mailto link instead), and nothing is kept.
          const response = await properly();
          expect(response.status, what).toBe(409);
          expect(response.text, what).toContain(htmlText(REPLY_TEXT.noMail));
          expect(await reader.db.selectFrom("enquiry_replies").select("id").execute(), what).toEqual([]);
          break;
        }
        case "save-site": {
          const response = await properly();
          expect(response.status, what).toBe(redirected);
          const draft = await reader.db.selectFrom("site_draft").select("content").executeTakeFirstOrThrow();
          expect(JSON.parse(draft.content).company.name, `${what}: saved to the draft`).toBe(`Company ${values.marker}`);
          break;
        }
        case "moved": {
          const response = await request(call, values, { cookie: session });
          expectNoStore(response, what);
          if (call.format === "document") {
            expect(response.status, what).toBe(301);
            expect(header(response, "location"), what).toBe(call.location);
          } else {
            expect(response.status, what).toBe(202);
            expect(response.text, what).toContain(`"redirect","${call.location}"`);
          }
          break;
        }
        case "invite": {
          const response = await properly();
          expect(response.status, what).toBe(200);
          const invited = await reader.db
            .selectFrom("admin_invitations")
            .select("role")
            .where("email", "=", `invitee-${values.marker}@example.com`)
            .executeTakeFirst();
          expect(invited, `${what}: invited`).toEqual({ role: "editor" });
          break;
        }
        case "figures-download": {
          const response = await request(call, values, { cookie: session });
          expect(response.status, what).toBe(200);
          expectNoStore(response, what);
          if (call.format !== "data") expect(header(response, "content-disposition"), what).toMatch(/^attachment; filename="enquiry-figures-/);
          // The month-by-month table, with the seeded enquiry's month: the loader ran for the admin.
          expect(response.text, what).toContain("Median time to first response");
          break;
        }
        case "audit-download": {
          const response = await request(call, values, { cookie: session });
          expect(response.status, what).toBe(200);
          expectNoStore(response, what);
          expect(header(response, "content-disposition"), what).toMatch(/^attachment; filename="audit-log-/);
          // The admin's sign-ins are in the log: the loader ran for them.
          expect(response.text, what).toContain(ADMIN.email);
          break;
        }
        case "reset-request": {
          // The same answer for every address: the page that says a link is on its way (which, e-mail being off here, says none can be sent).
          const response = await request(call, values, sameOrigin());
          expect(response.status, what).toBe(redirected);
          expect(call.format === "document" ? header(response, "location") : response.text, what).toContain("/admin/forgot-password?sent");
          break;
        }
        case "reset-page": {
          const response = await request(call, values);
          expect(response.status, what).toBe(200);
          expectNoStore(response, what);
          expect(response.text, `${what}: the member's address`).toContain("@example.com");
          expect(htmlText(response.text), what).not.toContain(RESET_TEXT.invalid);
          break;
        }
        case "reset": {
          const response = await request(call, values, sameOrigin());
          expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBe(redirected);
          expect(sessionsSet(response), `${what}: no session: the member signs in with the new password`).toEqual([]);
          break;
        }
        case "join-page": {
          const response = await request(call, values);
          expect(response.status, what).toBe(200);
          expectNoStore(response, what);
          expect(response.text, `${what}: the invitation's address`).toContain("@example.com");
          expect(response.text, what).not.toContain(INVITATION_TEXT.unknownLink);
          break;
        }
        case "join": {
          // From a browser of its own: joining ends the session a browser had (the admin's, here).
          const response = await request(call, values, sameOrigin());
          expect(response.status, `${what}: ${response.text.slice(0, 300)}`).toBe(redirected);
          const [cookie] = sessionsSet(response);
          expect(cookie, `${what}: a session cookie`).toBeTruthy();
          expect((await enquiriesAs(cookie!.split(";")[0]!)).status, "the new member's session").toBe(200);
          break;
        }
        case "preview": {
          const response = await request(call, values, { cookie: session });
          expect(response.status, what).toBe(200);
          expectNoStore(response, what);
          expect(header(response, "x-robots-tag"), `${what}: never indexed`).toMatch(/noindex/);
          expect(response.text, `${what}: the landing page's texts`).toContain("Professional Property Management Services");
          break;
        }
      }
    });
  });
});
