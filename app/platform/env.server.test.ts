import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLACEHOLDER_COMPANY } from "~/company/company";
import { EnvError, parseEnv } from "./env.server";

function envErrorOf(source: Record<string, string | undefined>): EnvError {
  try {
    parseEnv(source);
  } catch (error) {
    if (error instanceof EnvError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(source)} to be refused`);
}

describe("parseEnv", () => {
  it("has working defaults for an empty environment", () => {
    expect(parseEnv({})).toEqual({
      mode: "production",
      port: 3000,
      host: "0.0.0.0",
      dataDir: path.resolve("data"),
      databaseUrl: undefined,
      company: PLACEHOLDER_COMPANY,
    });
  });

  it("reads every setting", () => {
    const env = parseEnv({
      NODE_ENV: "development",
      PORT: "8080",
      HOST: "127.0.0.1",
      DATA_DIR: "/var/lib/site",
      DATABASE_URL: "postgres://site:secret@db.internal:5432/site",
    });
    expect(env).toMatchObject({
      mode: "development",
      port: 8080,
      host: "127.0.0.1",
      dataDir: "/var/lib/site",
      databaseUrl: "postgres://site:secret@db.internal:5432/site",
    });
  });

  it("resolves a relative DATA_DIR against the working directory", () => {
    expect(parseEnv({ DATA_DIR: "./var/data" }).dataDir).toBe(path.resolve("var/data"));
  });

  it("accepts PORT=0 (any free port) and 65535", () => {
    expect(parseEnv({ PORT: "0" }).port).toBe(0);
    expect(parseEnv({ PORT: "65535" }).port).toBe(65535);
  });

  it.each(["abc", "80a", "3000.5", "-1", "65536", "1e9"])("refuses PORT=%s with a message naming PORT", (port) => {
    const error = envErrorOf({ PORT: port });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("EnvError");
    expect(error.message).toMatch(/\bPORT\b/);
    expect(error.message).toContain(JSON.stringify(port));
  });

  it("accepts postgres:// and postgresql:// URLs", () => {
    expect(parseEnv({ DATABASE_URL: "postgresql://u:p@localhost/db" }).databaseUrl).toBe("postgresql://u:p@localhost/db");
    expect(parseEnv({ DATABASE_URL: "postgres://localhost/db" }).databaseUrl).toBe("postgres://localhost/db");
  });

  it.each(["mysql://u:p@localhost/db", "sqlite:./data/app.sqlite", "localhost:5432", "file:///tmp/x"])(
    "refuses DATABASE_URL=%s with a message naming DATABASE_URL",
    (url) => {
      expect(envErrorOf({ DATABASE_URL: url }).message).toMatch(/\bDATABASE_URL\b/);
    },
  );

  it("refuses an unknown NODE_ENV", () => {
    expect(envErrorOf({ NODE_ENV: "staging" }).message).toMatch(/\bNODE_ENV\b/);
  });

  it("names every invalid variable at once", () => {
    const { message } = envErrorOf({ PORT: "abc", DATABASE_URL: "mysql://x", COMPANY_EMAIL: "nobody" });
    expect(message).toMatch(/\bPORT\b/);
    expect(message).toMatch(/\bDATABASE_URL\b/);
    expect(message).toMatch(/\bCOMPANY_EMAIL\b/);
  });

  it("treats empty strings as unset", () => {
    expect(
      parseEnv({
        NODE_ENV: "",
        PORT: "",
        HOST: "",
        DATA_DIR: "",
        DATABASE_URL: "",
        COMPANY_NAME: "",
        COMPANY_SHORT_NAME: "",
        COMPANY_PHONE: "",
        COMPANY_EMAIL: "",
        COMPANY_ADDRESS: "",
        COMPANY_LOGO_URL: "",
      }),
    ).toEqual(parseEnv({}));
  });

  it("never turns a PORT of white space into port 0 (a random port)", () => {
    // Either refused or treated as unset, like an empty string; anything but a silent random port.
    let port: number;
    try {
      port = parseEnv({ PORT: "  " }).port;
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      expect((error as EnvError).message).toMatch(/\bPORT\b/);
      return;
    }
    expect(port).toBe(3000);
  });

  it("treats undefined values as unset", () => {
    expect(parseEnv({ PORT: undefined, DATABASE_URL: undefined })).toEqual(parseEnv({}));
  });

  it("trims company settings and treats white space alone as unset", () => {
    const env = parseEnv({ COMPANY_NAME: "  Acme Lettings Ltd  ", COMPANY_PHONE: "   " });
    expect(env.company.name).toBe("Acme Lettings Ltd");
    expect(env.company.phone).toBe(PLACEHOLDER_COMPANY.phone);
  });

  it("lets every COMPANY_* variable override the placeholder", () => {
    expect(
      parseEnv({
        COMPANY_NAME: "Acme Lettings Ltd",
        COMPANY_SHORT_NAME: "Acme",
        COMPANY_PHONE: "0161 496 0000",
        COMPANY_EMAIL: "office@acme.example",
        COMPANY_ADDRESS: "2 High Street, Manchester M1 1AA",
        COMPANY_LOGO_URL: "/brand/acme.svg",
      }).company,
    ).toEqual({
      name: "Acme Lettings Ltd",
      shortName: "Acme",
      phone: "0161 496 0000",
      email: "office@acme.example",
      address: "2 High Street, Manchester M1 1AA",
      logoUrl: "/brand/acme.svg",
    });
  });

  it("uses COMPANY_NAME as the short name when COMPANY_SHORT_NAME is unset", () => {
    expect(parseEnv({ COMPANY_NAME: "Acme Lettings Ltd" }).company.shortName).toBe("Acme Lettings Ltd");
  });

  it("keeps the placeholder for what is not overridden", () => {
    const { company } = parseEnv({ COMPANY_PHONE: "0161 496 0000" });
    expect(company).toEqual({ ...PLACEHOLDER_COMPANY, phone: "0161 496 0000" });
  });

  it("refuses a COMPANY_EMAIL that is not an e-mail address", () => {
    expect(envErrorOf({ COMPANY_EMAIL: "office at acme" }).message).toMatch(/\bCOMPANY_EMAIL\b/);
  });
});
