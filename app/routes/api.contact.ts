import { requestContext } from "~/platform/http/context";
import { servicesContext } from "~/services";
import type { Route } from "./+types/api.contact";
import { CONTACT_API_METHOD_NOT_ALLOWED, answerContactApi, type JsonAnswer } from "./contact-api.server";

/*
 * POST /api/contact is answered ahead of React Router (server/express-app.ts, decision 083);
 * this route answers what Express leaves to it (another method, a path only React Router
 * matches: /api/%63ontact), with the same implementation (contact-api.server.ts).
 */

const respond = ({ status, body, headers }: JsonAnswer) => Response.json(body, { status, headers });

export function loader() {
  return respond(CONTACT_API_METHOD_NOT_ALLOWED);
}

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return respond(CONTACT_API_METHOD_NOT_ALLOWED);
  return respond(await answerContactApi(context.get(servicesContext), context.get(requestContext).clientIp, request));
}
