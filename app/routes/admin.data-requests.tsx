import { data } from "react-router";
import { AdminErrorBoundary } from "~/admin/AdminErrorBoundary";
import { FORM_TEXT } from "~/admin/texts";
import { DATA_REQUESTS_TEXT, DataRequestsPage, type DataRequestActionData, type DataRequestLookup } from "~/admin/DataRequestsPage";
import { downloadDate } from "~/enquiries/csv";
import { eraseDataHeld, exportDataHeld, parseRequestEmail, summariseDataHeld } from "~/enquiries/data-requests.server";
import { LIMITS } from "~/enquiries/schema";
import { requireMember, servicesContext } from "~/services";
import { ADMIN_FORM_LIMIT, readFormFields, withBody } from "~/platform/http/request-body.server";
import type { Route } from "./+types/admin.data-requests";

export function meta({ error }: Route.MetaArgs) {
  return [{ title: error ? "Admin Login" : DATA_REQUESTS_TEXT.title }, { name: "robots", content: "noindex, nofollow" }];
}

/**
 * ?email=…&format=json: the JSON file of everything held about the address.
 * A file, not a page, so it is answered here, before the page's loader would
 * turn it into page data; requireAdmin first, as in every admin handler (a
 * refusal renders the sign-in form, as the page's would). Anything else, and
 * an address that is not valid, goes on to the page, which says what is wrong.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async (args, next) => {
    const { request, context } = args;
    const { actor } = requireMember(args, "data-requests");
    const params = new URL(request.url).searchParams;
    if (params.get("format") !== "json" || (request.method !== "GET" && request.method !== "HEAD")) return next();
    const email = parseRequestEmail(params.get("email"));
    if (email === undefined) return next();
    const { db, log } = context.get(servicesContext);
    const now = new Date();
    try {
      const body = JSON.stringify(await exportDataHeld(db, email, now, actor), null, 2);
      // Express marks every admin response no-store.
      return new Response(body, {
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Content-Disposition": `attachment; filename="data-request-${downloadDate(now)}.json"`,
        },
      });
    } catch (error) {
      log.error({ err: error }, "Could not export the data held for an address");
      return new Response(DATA_REQUESTS_TEXT.loadFailure, { status: 503, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
  },
];

/** The page: the address asked about (?email=) and what is held for it. */
export async function loader(args: Route.LoaderArgs) {
  const { request, context } = args;
  const { admin } = requireMember(args, "data-requests");
  const { db, company, log } = context.get(servicesContext);
  const params = new URL(request.url).searchParams;
  const base = { adminEmail: admin.email, company: { name: company.name, logoUrl: company.logoUrl } };
  const input = params.get("email");
  if (input === null) {
    const lookup: DataRequestLookup = { status: "none" };
    return { ...base, lookup };
  }

  const email = parseRequestEmail(input);
  if (email === undefined) {
    // Cut: the page shows it back in the field, and nothing longer can be an address.
    const lookup: DataRequestLookup = { status: "invalid", input: input.trim().slice(0, LIMITS.email) };
    return data({ ...base, lookup }, { status: 400 });
  }
  try {
    const lookup: DataRequestLookup = { status: "found", email, held: await summariseDataHeld(db, email) };
    return { ...base, lookup };
  } catch (error) {
    log.error({ err: error }, "Could not look up the data held for an address");
    const lookup: DataRequestLookup = { status: "error", email };
    return data({ ...base, lookup }, { status: 503 });
  }
}

/** Headers an action sets (Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

const answer = (result: DataRequestActionData, status = 200, init: ResponseInit = {}) => data(result, { ...init, status });

/**
 * intent=erase, email: deletes every enquiry sent with the address and the
 * e-mails about them. Without confirmed=yes (no JavaScript, so no confirm()
 * has asked) it only asks, on the page. The log says how many, never whose.
 */
export async function action(args: Route.ActionArgs) {
  requireMember(args, "data-requests");
  return eraseWithBody(args);
}

const eraseWithBody = withBody(
  (request) => readFormFields(request, ADMIN_FORM_LIMIT, FORM_TEXT.notUnderstood),
  (refusal) => answer({ notice: { kind: "error", text: refusal.message } }, refusal.status, { headers: refusal.headers }),
  eraseAction,
);

async function eraseAction(args: Route.ActionArgs, fields: Record<string, string>) {
  const { actor } = requireMember(args, "data-requests");
  const { db, log } = args.context.get(servicesContext);
  if (fields.intent !== "erase") return answer({ notice: { kind: "error", text: "Unknown action." } }, 400);
  const email = parseRequestEmail(fields.email);
  if (email === undefined) return answer({ notice: { kind: "error", text: DATA_REQUESTS_TEXT.invalid } }, 400);

  try {
    if (fields.confirmed !== "yes") {
      const held = await summariseDataHeld(db, email);
      // Nothing to erase: nothing to ask either.
      if (held.submissions === 0) return answer({ notice: { kind: "success", text: DATA_REQUESTS_TEXT.held(email, held) } });
      return answer({ confirmErase: { email, submissions: held.submissions } });
    }
    const erased = await eraseDataHeld(db, email, actor);
    log.info(`Data request: erased ${erased.submissions} submissions and ${erased.emailJobs} e-mail jobs for one address`);
    if (!erased.purged) log.warn("Erased data stays in the SQLite write-ahead log until its next checkpoint: a reader was busy");
    return answer({ notice: { kind: "success", text: DATA_REQUESTS_TEXT.erased(email, erased.submissions) } });
  } catch (error) {
    log.error({ err: error }, "Could not erase the data held for an address");
    return answer({ notice: { kind: "error", text: DATA_REQUESTS_TEXT.eraseFailure } }, 503);
  }
}

export default function DataRequestsRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <DataRequestsPage {...loaderData} actionData={actionData} />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AdminErrorBoundary error={error} />;
}
