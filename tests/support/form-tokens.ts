import { createFormTokens, type FormTokens } from "~/enquiries/form-token.server";
import type { Db } from "~/platform/db/db.server";
import { createSecrets } from "~/platform/db/secrets.server";

/** The contact form's tokens as a server on this database issues and checks them. */
export function formTokensOf(db: Db): FormTokens {
  return createFormTokens(createSecrets(db));
}
