import { data } from "react-router";
import { issueFormToken } from "~/enquiries/form-token.server";
import { FAILURE_MESSAGE, SUCCESS_MESSAGE, type ContactActionData } from "~/enquiries/schema";
import { HONEYPOT_FIELD } from "~/enquiries/spam";
import { submitEnquiry } from "~/enquiries/submit.server";
import { LandingPage } from "~/landing/LandingPage";
import { requestContext, servicesContext } from "~/platform/context";
import type { Db } from "~/platform/db.server";
import { BodyError, CONTACT_BODY_LIMIT, bodyErrorHeaders, readFormFields } from "~/platform/request-body.server";
import { listActiveProjects } from "~/projects/projects.server";
import type { Route } from "./+types/home";

export function meta({ loaderData }: Route.MetaArgs) {
  const name = loaderData?.company.name ?? "Property Management";
  return [
    { title: `${name} | Professional Property Management Services` },
    {
      name: "description",
      content:
        "Property management for landlords, property investors and tenants: rent collection, maintenance, tenant relations, legal compliance and renovations. No VAT added, no hidden fees.",
    },
  ];
}

/** The page depends only on its loader data: rendered once per version of it (see document-cache.server.ts). */
export const handle = { cacheDocument: true };

export async function loader({ context }: Route.LoaderArgs) {
  const { db, company, contact } = context.get(servicesContext);
  // Not awaited: the gallery shows its loading state while the projects are on
  // their way during client-side navigation. The server waits for it before
  // sending a document, so the projects are always in the HTML.
  const projects = listActiveProjects(db).catch((error: unknown) => {
    console.error("Could not load renovation projects:", error);
    throw error;
  });
  return { company, projects, formToken: await formTokenFor(db), retentionDays: contact.retentionDays };
}

/**
 * The time-trap token the form sends back. Without its key (database down)
 * the page still renders; an enquiry sent from it is kept, under Spam.
 */
async function formTokenFor(db: Db): Promise<string> {
  try {
    return await issueFormToken(db);
  } catch (error) {
    console.error("Could not issue a contact form token:", error);
    return "";
  }
}

/** Headers an action sets (Retry-After on a 429, Connection: close on a 413) reach the response. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/** The contact form posted as an HTML form: works with and without JavaScript. */
export async function action({ request, context }: Route.ActionArgs) {
  let fields: Record<string, string>;
  try {
    fields = await readFormFields(request, CONTACT_BODY_LIMIT);
  } catch (error) {
    if (!(error instanceof BodyError)) throw error;
    return data<ContactActionData>({ status: "error", error: error.message, fields: [], values: {} }, {
      status: error.status,
      headers: bodyErrorHeaders(error),
    });
  }
  const values = {
    name: fields.name ?? "",
    email: fields.email ?? "",
    phone: fields.phone ?? "",
    userType: fields.userType ?? "",
    message: fields.message ?? "",
  };
  const result = await submitEnquiry(context.get(servicesContext), {
    input: { ...values, [HONEYPOT_FIELD]: fields[HONEYPOT_FIELD], formToken: fields.formToken },
    clientIp: context.get(requestContext).clientIp,
    tokenRequired: true,
  });
  if (!result.ok) {
    return data<ContactActionData>(
      { status: "error", error: result.error, fields: result.fields, values },
      {
        status: result.status,
        headers: result.status === 429 ? { "Retry-After": String(result.retryAfterSeconds) } : undefined,
      },
    );
  }
  return data<ContactActionData>({ status: "success", message: SUCCESS_MESSAGE });
}

/**
 * In the browser: if the request itself fails (network down, an answer the
 * router cannot read), show the form's error notice and keep what was typed,
 * instead of replacing the page with the error boundary.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs): Promise<ContactActionData> {
  try {
    return await serverAction();
  } catch (error) {
    console.error("Could not send the enquiry:", error);
    return { status: "error", error: FAILURE_MESSAGE, fields: [], values: {} };
  }
}

export default function Home({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <LandingPage
      company={loaderData.company}
      projects={loaderData.projects}
      contactResult={actionData}
      formToken={loaderData.formToken}
      retentionDays={loaderData.retentionDays}
    />
  );
}
