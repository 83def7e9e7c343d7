import path from "node:path";
import { z } from "zod";
import { PLACEHOLDER_COMPANY, type Company } from "~/company/company";

/**
 * The one place that reads process.env. Everything else receives the parsed,
 * typed result, so a bad value stops the start with a message naming the
 * variable instead of failing later in some request.
 */
const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: z.coerce
    .number({ error: "must be a whole number from 0 to 65535" })
    .int("must be a whole number from 0 to 65535")
    .min(0, "must be a whole number from 0 to 65535")
    .max(65535, "must be a whole number from 0 to 65535")
    .default(3000),
  HOST: z.string().trim().min(1, "must not be empty").default("0.0.0.0"),
  DATA_DIR: z.string().trim().min(1, "must not be empty").default("./data"),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL (leave it unset for the embedded SQLite database)")
      .optional(),
  ),
  COMPANY_NAME: optionalText,
  COMPANY_SHORT_NAME: optionalText,
  COMPANY_PHONE: optionalText,
  COMPANY_EMAIL: optionalText.pipe(z.email("must be an e-mail address").optional()),
  COMPANY_ADDRESS: optionalText,
  COMPANY_LOGO_URL: optionalText,
});

const SECRET_VARIABLES = new Set(["DATABASE_URL"]);

export type Env = {
  mode: "production" | "development" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  company: Company;
};

export class EnvError extends Error {
  override name = "EnvError";
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // Empty strings mean "not set", as in most .env tooling.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const raw = source[name];
      // Never echo a connection string: it may hold a password.
      const shown = raw === undefined || SECRET_VARIABLES.has(name) ? "" : ` (got ${JSON.stringify(raw)})`;
      return `  ${name}: ${issue.message}${shown}`;
    });
    throw new EnvError(`Invalid environment variables:\n${problems.join("\n")}`);
  }
  const env = result.data;
  return {
    mode: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir: path.resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    company: {
      name: env.COMPANY_NAME ?? PLACEHOLDER_COMPANY.name,
      shortName: env.COMPANY_SHORT_NAME ?? env.COMPANY_NAME ?? PLACEHOLDER_COMPANY.shortName,
      phone: env.COMPANY_PHONE ?? PLACEHOLDER_COMPANY.phone,
      email: env.COMPANY_EMAIL ?? PLACEHOLDER_COMPANY.email,
      address: env.COMPANY_ADDRESS ?? PLACEHOLDER_COMPANY.address,
      logoUrl: env.COMPANY_LOGO_URL ?? PLACEHOLDER_COMPANY.logoUrl,
    },
  };
}

export function loadEnv(): Env {
  return parseEnv(process.env);
}
