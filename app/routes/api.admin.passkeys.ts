import { ACCOUNT_TEXT } from "~/admin/account-texts";
import { memberActor } from "~/audit/actor";
import { PasskeyError, passkeyRegistrationOptions, verifyPasskeyRegistration } from "~/auth/passkeys.server";
import { relyingParty } from "~/auth/relying-party.server";
import { requestContext } from "~/platform/http/context";
import { jsonRefusal, readJsonObject, withBody } from "~/platform/http/request-body.server";
import { adminContext, servicesContext } from "~/services";
import type { Route } from "./+types/api.admin.passkeys";

/** A WebAuthn registration response is a few kilobytes (the attestation object, the client data). */
const PASSKEY_BODY_LIMIT = 32 * 1024;

/**
 * POST /api/admin/passkeys: the signed-in member adds a passkey (the account
 * page's "Add a passkey", with JavaScript). `{ "step": "options" }` answers
 * the registration options (the challenge is stored, five minutes, single
 * use); `{ "step": "verify", "response": …, "name": "…" }` checks the
 * browser's answer, adds the passkey and ends the member's other sessions:
 * 201 `{ name, endedSessions, message }`. Refusals are 4xx `{ error }`.
 */
export async function action(args: Route.ActionArgs) {
  if (args.request.method !== "POST") return Response.json({ error: "Use POST." }, { status: 405, headers: { Allow: "POST" } });
  return addPasskey(args);
}

const addPasskey = withBody(
  (request) => readJsonObject(request, PASSKEY_BODY_LIMIT),
  jsonRefusal,
  async ({ request, context }: Route.ActionArgs, body) => {
    const services = context.get(servicesContext);
    const admin = context.get(adminContext);
    const T = ACCOUNT_TEXT.passkeys;
    const now = new Date();
    if (body.step === "options") {
      const rp = relyingParty(services.publicUrl, request.url);
      if (!rp.ok) return Response.json({ error: rp.message }, { status: 400 });
      const options = await passkeyRegistrationOptions(services.db, { adminId: admin.adminId, email: admin.email, rp, rpName: services.company.name, now });
      return Response.json(options, { headers: { "Cache-Control": "no-store" } });
    }
    if (body.step === "verify" && typeof body.response === "object" && body.response !== null) {
      const actor = memberActor(admin, context.get(requestContext).clientIp);
      const name = typeof body.name === "string" ? body.name : undefined;
      let result;
      try {
        result = await verifyPasskeyRegistration(services.db, { member: actor, response: body.response, name, keepSessionId: admin.sessionId, now });
      } catch (error) {
        if (error instanceof PasskeyError) return Response.json({ error: error.message }, { status: 400 });
        throw error;
      }
      if (!result.ok) {
        const words = { expired: T.expired, invalid: T.invalid, "already-added": T.alreadyAdded } as const;
        if (result.detail) services.log.warn({ ip: actor.ip }, `Passkey not added for ${admin.email}: ${result.detail}`);
        return Response.json({ error: words[result.reason] }, { status: result.reason === "already-added" ? 409 : 400 });
      }
      return Response.json(
        { name: result.passkey.name, endedSessions: result.endedSessions, message: T.added(result.endedSessions) },
        { status: 201, headers: { "Cache-Control": "no-store" } },
      );
    }
    return Response.json({ error: ACCOUNT_TEXT.invalid }, { status: 400 });
  },
);
