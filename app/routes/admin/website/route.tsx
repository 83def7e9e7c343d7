import { data, redirect } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { FORM_TEXT, WEBSITE_TEXT_ADMIN } from "~/admin/texts";
import type { WebsiteActionData, WebsiteNotice, WebsiteView } from "~/admin/website-types";
import { WebsitePanel } from "~/admin/WebsitePanel";
import { formatSubmittedAt, fromLondonTime, londonLabel } from "~/platform/dates";
import { MAX_IMAGE_BYTES, UPLOAD_TEXT } from "~/images/image-files";
import { findStoredFile, saveCertificate, saveImage, type ImageServices, type StoredImage } from "~/images/images.server";
import { ImageError } from "~/images/process.server";
import { firstOfEach, readFormEntries, readMultipartForm, withBody, type UploadedFile } from "~/platform/http/request-body.server";
import { requireMember, servicesContext } from "~/services";
import {
  FILE_FIELDS,
  SECTION_LABELS,
  SITE_SECTIONS,
  WEBSITE_TEXT,
  parseSection,
  sectionFields,
  sectionValues,
  siteDefaults,
  type SiteContent,
  type SiteSection,
} from "~/website/content";
import { POLICIES, POLICY_MAX, policyTemplate } from "~/website/sections/policies";
import { parseMove } from "~/website/sections/services";
import type { Actor } from "~/audit/actor";
import { LEGAL_DETAILS_TEXT, isLegalSection } from "~/website/legal-sections";
import { can } from "~/auth/roles";
import { discardDraft, listVersions, publishDraft, readDraft, restoreVersion, saveDraft } from "~/website/website.server";
import { cancelSchedule, readSchedule, schedulePublish } from "~/website/schedule.server";
import type { Route } from "./+types/route";

export function meta() {
  return [{ title: "Website | Admin Dashboard" }, { name: "robots", content: "noindex, nofollow" }];
}

function sectionFrom(value: string | null | undefined): SiteSection {
  return (SITE_SECTIONS as readonly string[]).includes(value ?? "") ? (value as SiteSection) : "company";
}

const wholeNumber = (value: string | null | undefined) => (value && /^\d{1,9}$/.test(value) ? Number(value) : undefined);

/** The notice a redirect after a change asks for (?notice=…), read with own-property checks only. */
function noticeFrom(params: URLSearchParams, section: SiteSection): WebsiteNotice | undefined {
  const version = wholeNumber(params.get("version"));
  switch (params.get("notice")) {
    case "saved":
      return { kind: "success", text: WEBSITE_TEXT_ADMIN.saved(SECTION_LABELS[section]) };
    case "published":
      return version === undefined ? undefined : { kind: "success", text: WEBSITE_TEXT_ADMIN.published(version) };
    case "discarded":
      return { kind: "success", text: WEBSITE_TEXT_ADMIN.discarded };
    case "scheduled":
      return { kind: "success", text: WEBSITE_TEXT_ADMIN.scheduledNotice };
    case "unscheduled":
      return { kind: "success", text: WEBSITE_TEXT_ADMIN.unscheduled };
    case "restored": {
      const from = wholeNumber(params.get("from"));
      return version === undefined || from === undefined ? undefined : { kind: "success", text: WEBSITE_TEXT_ADMIN.restored(from, version) };
    }
    default:
      return undefined;
  }
}

/** The Website tab: the draft, section by section, its state against the live site, and the history. */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  requireMember(args, "website");
  const services = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const section = sectionFrom(params.get("section"));
  let website: WebsiteView;
  try {
    const defaults = siteDefaults(services.company);
    const [draft, versions, schedule] = await Promise.all([readDraft(services.db, defaults), listVersions(services.db), readSchedule(services.db)]);
    website = {
      status: "ok",
      section,
      content: draft.content,
      revision: draft.revision,
      unpublished: draft.unpublished,
      lastSaved: draft.updatedAt && draft.updatedBy ? { when: formatSubmittedAt(draft.updatedAt), by: draft.updatedBy } : undefined,
      versions: versions.map((version) => ({ ...version, publishedLabel: formatSubmittedAt(version.publishedAt) })),
      notice: noticeFrom(params, section),
      schedule: schedule && {
        label: londonLabel(new Date(schedule.publishAt)),
        by: schedule.scheduledBy,
        ofCurrentDraft: schedule.revision === draft.revision,
      },
    };
  } catch (error) {
    services.log.error({ err: error }, "Could not load the website's content");
    website = { status: "error", section };
  }
  return { website };
}

/** Headers an action sets (Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/**
 * The editor's forms are short texts but for the policies: three of
 * POLICY_MAX characters in one form. A browser sends it url-encoded, where a
 * character of three UTF-8 bytes (€) takes nine (%E2%82%AC), and so does a
 * line break (%0D%0A, one character in the field), so three full policies
 * need up to 3 × 30,000 × 9 bytes, plus the form around them (64 KB, the
 * longest other section's form with room to spare). Only a signed-in admin's
 * body is read this far: the admin guard checks the session before any byte.
 */
const WEBSITE_FORM_LIMIT = POLICIES.length * POLICY_MAX * 9 + 64 * 1024;

/**
 * The body: a section with an upload (logo, hero image, certificate) is a
 * multipart form whose one file is capped while it arrives (under 10 MB, as
 * the gallery's); every other form is text only.
 */
async function readWebsiteForm(request: Request): Promise<{ fields: Record<string, string>; files: Record<string, UploadedFile> }> {
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    return readMultipartForm(request, {
      fileFields: Object.values(FILE_FIELDS).map((name) => `${name}.file`),
      maxFileBytes: MAX_IMAGE_BYTES,
      fileTooLarge: UPLOAD_TEXT.tooLarge,
      maxFieldBytes: WEBSITE_FORM_LIMIT,
      unreadable: FORM_TEXT.notUnderstood,
    });
  }
  return { fields: firstOfEach(await readFormEntries(request, WEBSITE_FORM_LIMIT, FORM_TEXT.notUnderstood)), files: {} };
}

/**
 * The section's upload, if any, into the fields as the URL of the stored file:
 * a new file is checked by content and stored (the image pipeline, or for the
 * certificate a PDF's own checks), Remove empties the field, and a URL the
 * draft does not already hold must be one of our recorded uploads. Undefined
 * when all is well, else the field's refusal (nothing was stored).
 */
async function takeUpload(
  services: ImageServices,
  section: SiteSection,
  fields: Record<string, string>,
  files: Record<string, UploadedFile>,
  current: SiteContent,
  actor: Actor,
): Promise<{ status: number; field: string; message: string } | undefined> {
  const field = FILE_FIELDS[section];
  if (!field) return undefined;
  const label = sectionFields(section, current).find((spec) => spec.name === field)!.label;
  if (fields[`${field}.remove`]) fields[field] = "";
  const file = files[`${field}.file`];
  if (file) {
    let stored: StoredImage;
    try {
      stored = section === "legal" ? await saveCertificate(services, file.bytes, actor) : await saveImage(services, file.bytes, actor);
    } catch (error) {
      if (error instanceof ImageError) return { status: error.status, field, message: error.message };
      throw error;
    }
    fields[field] = stored.url;
    return undefined;
  }
  const url = (fields[field] ?? "").trim();
  if (url && url !== sectionValues(section, current)[field] && !(await findStoredFile(services.db, url))) {
    return { status: 400, field, message: WEBSITE_TEXT.fileMissing(label) };
  }
  return undefined;
}

export async function action(args: Route.ActionArgs) {
  requireMember(args, "website");
  return websiteAction(args);
}

/** An Editor's change that would touch the Fees, Legal details or Policies sections (decision 042). */
const legalRefusal = (text: string = LEGAL_DETAILS_TEXT.ownersOnly) => data<WebsiteActionData>({ notice: { kind: "error", text } }, { status: 403 });

const websiteAction = withBody(
  readWebsiteForm,
  (refusal) => data<WebsiteActionData>({ notice: { kind: "error", text: refusal.message } }, { status: refusal.status, headers: refusal.headers }),
  async (args: Route.ActionArgs, { fields, files }) => {
    const { admin, actor } = requireMember(args, "website");
    const services = args.context.get(servicesContext);
    const { db } = services;
    const defaults = siteDefaults(services.company);
    const change = { by: admin.email, actor, now: services.clock.now() };
    const baseRevision = wholeNumber(fields.revision);
    const stale = (extra: Partial<WebsiteActionData> = {}) =>
      data<WebsiteActionData>({ ...extra, notice: { kind: "error", text: WEBSITE_TEXT_ADMIN.stale } }, { status: 409 });
    if (baseRevision === undefined) return data<WebsiteActionData>({ notice: { kind: "error", text: FORM_TEXT.notUnderstood } }, { status: 400 });

    switch (fields.intent) {
      case "save-section": {
        const section = sectionFrom(fields.section);
        const draft = await readDraft(db, defaults);
        // "Start from a template": the empty policy it names is filled in, the rest saved as typed.
        const template = POLICIES.find((policy) => policy.key === fields.template);
        if (section === "policies" && template && !(fields[`policies.${template.key}`] ?? "").trim()) {
          fields[`policies.${template.key}`] = policyTemplate(template.key, { content: draft.content, retentionDays: services.contact.retentionDays });
        }
        if (draft.revision !== baseRevision) return stale({ section, values: Object.fromEntries(Object.entries(fields)) });
        if (isLegalSection(section) && !can(admin.role, "legal-details")) return legalRefusal();
        const refusedUpload = await takeUpload(services, section, fields, files, draft.content, actor);
        if (refusedUpload) {
          return data<WebsiteActionData>(
            {
              section,
              errors: { [refusedUpload.field]: refusedUpload.message },
              values: { ...sectionValues(section, draft.content), ...Object.fromEntries(Object.entries(fields)) },
              notice: { kind: "error", text: WEBSITE_TEXT.fixErrors },
            },
            { status: refusedUpload.status },
          );
        }
        const parsed = parseSection(section, fields, draft.content);
        if (!parsed.ok) {
          return data<WebsiteActionData>(
            { section, errors: parsed.errors, values: parsed.values, notice: { kind: "error", text: WEBSITE_TEXT.fixErrors } },
            { status: 400 },
          );
        }
        const saved =
          draft.revision === baseRevision
            ? await saveDraft(db, { ...change, defaults, section, content: parsed.content, baseRevision })
            : ({ ok: false, reason: "stale" } as const);
        if (!saved.ok && saved.reason === "legal-details") return legalRefusal();
        if (!saved.ok) return stale({ section, values: Object.fromEntries(Object.entries(fields)) });
        // A service moved by its button: the page puts focus back on that button, in the service's new place.
        const move = section === "services" ? parseMove(fields.move ?? "") : undefined;
        const moved = move ? `&moved=${move.group}.${move.index + move.by}.${move.by < 0 ? "up" : "down"}` : "";
        throw redirect(`/admin/website?section=${section}&notice=saved${moved}`);
      }
      case "publish": {
        const published = await publishDraft(db, { ...change, defaults, baseRevision });
        if (published.ok) throw redirect(`/admin/website?notice=published&version=${published.version}`);
        if (published.reason === "nothing-to-publish") return data<WebsiteActionData>({ notice: { kind: "info", text: WEBSITE_TEXT_ADMIN.nothingToPublish } });
        if (published.reason === "legal-details") return legalRefusal(LEGAL_DETAILS_TEXT.draftHasLegalChanges);
        return stale();
      }
      case "discard": {
        const discarded = await discardDraft(db, { ...change, defaults, baseRevision });
        if (discarded.ok) throw redirect("/admin/website?notice=discarded");
        if (discarded.reason === "legal-details") return legalRefusal(LEGAL_DETAILS_TEXT.draftHasLegalChanges);
        return stale();
      }
      case "schedule": {
        const publishAt = fromLondonTime(fields.publishAt ?? "");
        if (!publishAt) return data<WebsiteActionData>({ notice: { kind: "error", text: WEBSITE_TEXT_ADMIN.scheduleInvalid } }, { status: 400 });
        if (publishAt.getTime() <= change.now.getTime())
          return data<WebsiteActionData>({ notice: { kind: "error", text: WEBSITE_TEXT_ADMIN.schedulePast } }, { status: 400 });
        const scheduled = await schedulePublish(db, { ...change, defaults, baseRevision, publishAt });
        if (scheduled.ok) throw redirect("/admin/website?notice=scheduled");
        if (scheduled.reason === "legal-details") return legalRefusal(LEGAL_DETAILS_TEXT.draftHasLegalChanges);
        return stale();
      }
      case "cancel-schedule": {
        if ((await cancelSchedule(db, { defaults, actor })) === "legal-details") return legalRefusal(LEGAL_DETAILS_TEXT.draftHasLegalChanges);
        throw redirect("/admin/website?notice=unscheduled");
      }
      case "restore": {
        const number = wholeNumber(fields.version);
        if (number === undefined) return data<WebsiteActionData>({ notice: { kind: "error", text: WEBSITE_TEXT_ADMIN.notFound } }, { status: 400 });
        const restored = await restoreVersion(db, { ...change, defaults, number, baseRevision });
        if (restored.ok) throw redirect(`/admin/website?notice=restored&from=${number}&version=${restored.version}`);
        if (restored.reason === "not-found") return data<WebsiteActionData>({ notice: { kind: "error", text: WEBSITE_TEXT_ADMIN.notFound } }, { status: 404 });
        if (restored.reason === "legal-details") return legalRefusal(LEGAL_DETAILS_TEXT.versionHasOtherLegalDetails);
        return stale();
      }
      default:
        return data<WebsiteActionData>({ notice: { kind: "error", text: "Unknown action." } }, { status: 400 });
    }
  },
);

export default function WebsiteTab({ loaderData, actionData }: Route.ComponentProps) {
  return <WebsitePanel view={loaderData.website} actionData={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
