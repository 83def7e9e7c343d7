import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLACEHOLDER_COMPANY, companyFrom } from "~/company/company";
import { EnvError, parseEnv } from "./env.server";
import { parseMailbox } from "./settings.server";

/** The company the settings make: what COMPANY_* says, placeholders for the rest. */
const companyOf = (source: Record<string, string | undefined>) => companyFrom(parseEnv(source).company);

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
      initialAdmin: undefined,
      loginRateLimit: 5,
      contactRateLimit: 5,
      contactSiteLimit: 100,
      contactHardLimit: 5_000,
      enquiryRetentionDays: undefined,
      auditRetentionDays: 365,
      mail: undefined,
      trustProxy: false,
      publicUrl: undefined,
      s3: undefined,
      publicImagesUrl: undefined,
      shutdownDrainMs: 10_000,
      keepAliveTimeoutMs: 65_000,
      databasePool: { max: 10, connectTimeoutMs: 5_000, statementTimeoutMs: 30_000 },
      logLevel: "info",
      metricsToken: undefined,
      company: {},
    });
  });

  it("reads the fleet's settings: drain, keep-alive and the PostgreSQL pool", () => {
    const env = parseEnv({
      SHUTDOWN_DRAIN_MS: "0",
      KEEP_ALIVE_TIMEOUT_MS: "75000",
      DATABASE_POOL_MAX: "25",
      DATABASE_CONNECT_TIMEOUT_MS: "2000",
      DATABASE_STATEMENT_TIMEOUT_MS: "15000",
    });
    expect(env).toMatchObject({
      shutdownDrainMs: 0,
      keepAliveTimeoutMs: 75_000,
      databasePool: { max: 25, connectTimeoutMs: 2_000, statementTimeoutMs: 15_000 },
    });
  });

  it.each([
    ["SHUTDOWN_DRAIN_MS", "-1"],
    ["KEEP_ALIVE_TIMEOUT_MS", "500"],
    ["DATABASE_POOL_MAX", "0"],
    ["DATABASE_CONNECT_TIMEOUT_MS", "soon"],
    ["DATABASE_STATEMENT_TIMEOUT_MS", "1.5"],
  ])("refuses %s=%s with a message naming it", (name, value) => {
    expect(envErrorOf({ [name]: value }).message).toMatch(new RegExp(`\\b${name}\\b`));
  });

  it("reads LOG_LEVEL and METRICS_TOKEN, and never echoes a bad token", () => {
    expect(parseEnv({ LOG_LEVEL: "debug", METRICS_TOKEN: "0123456789abcdef-token" })).toMatchObject({
      logLevel: "debug",
      metricsToken: "0123456789abcdef-token",
    });
    expect(() => parseEnv({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent/);
    let message = "";
    try {
      parseEnv({ METRICS_TOKEN: "short secret" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/METRICS_TOKEN: must be at least 16 characters/);
    expect(message).not.toContain("short secret");
  });

  it("reads BACKUP_KEY as 32 bytes of base64, and refuses anything else without echoing it", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    expect(Buffer.from(parseEnv({ BACKUP_KEY: key }).backupKey!)).toEqual(Buffer.alloc(32, 7));
    expect(parseEnv({}).backupKey).toBeUndefined();
    for (const bad of [
      Buffer.alloc(16, 7).toString("base64"),
      "correct horse battery staple",
      `${key.slice(0, -2)}!=`,
      Buffer.alloc(33, 7).toString("base64"),
    ]) {
      const { message } = envErrorOf({ BACKUP_KEY: bad });
      expect(message).toMatch(/BACKUP_KEY: must be 32 random bytes in base64 \(44 characters\), e\.g\. made by `openssl rand -base64 32`/);
      expect(message).not.toContain(bad);
    }
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

  it("listens on every address in production but on this machine only under npm run dev, unless HOST says otherwise", () => {
    expect(parseEnv({}).host).toBe("0.0.0.0");
    expect(parseEnv({ NODE_ENV: "development" }).host).toBe("127.0.0.1");
    expect(parseEnv({ NODE_ENV: "development", HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
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
        ADMIN_EMAIL: "",
        ADMIN_PASSWORD: "",
        LOGIN_RATE_LIMIT: "",
        TRUST_PROXY: "",
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
    const company = companyOf({ COMPANY_NAME: "  Acme Lettings Ltd  ", COMPANY_PHONE: "   " });
    expect(company.name).toBe("Acme Lettings Ltd");
    expect(company.phone).toBe(PLACEHOLDER_COMPANY.phone);
  });

  it("lets every COMPANY_* variable override the placeholder", () => {
    expect(
      companyOf({
        COMPANY_NAME: "Acme Lettings Ltd",
        COMPANY_SHORT_NAME: "Acme",
        COMPANY_PHONE: "0161 496 0000",
        COMPANY_EMAIL: "office@acme.example",
        COMPANY_ADDRESS: "2 High Street, Manchester M1 1AA",
        COMPANY_LOGO_URL: "/brand/acme.svg",
      }),
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
    expect(companyOf({ COMPANY_NAME: "Acme Lettings Ltd" }).shortName).toBe("Acme Lettings Ltd");
  });

  it("keeps the placeholder for what is not overridden", () => {
    const company = companyOf({ COMPANY_PHONE: "0161 496 0000" });
    expect(company).toEqual({ ...PLACEHOLDER_COMPANY, phone: "0161 496 0000" });
  });

  it("refuses a COMPANY_EMAIL that is not an e-mail address", () => {
    expect(envErrorOf({ COMPANY_EMAIL: "office at acme" }).message).toMatch(/\bCOMPANY_EMAIL\b/);
  });

  describe("ADMIN_EMAIL and ADMIN_PASSWORD", () => {
    const password = "a long enough passphrase";

    it("give the admin to create at start", () => {
      expect(parseEnv({ ADMIN_EMAIL: " owner@example.com ", ADMIN_PASSWORD: password }).initialAdmin).toEqual({
        email: "owner@example.com",
        password,
      });
    });

    it("keep the password exactly as given, spaces included", () => {
      expect(parseEnv({ ADMIN_EMAIL: "owner@example.com", ADMIN_PASSWORD: `  ${password}  ` }).initialAdmin?.password).toBe(`  ${password}  `);
    });

    it.each([
      ["ADMIN_EMAIL without ADMIN_PASSWORD", { ADMIN_EMAIL: "owner@example.com" }],
      ["ADMIN_PASSWORD without ADMIN_EMAIL", { ADMIN_PASSWORD: password }],
    ])("refuse %s, naming both", (_label, source) => {
      const { message } = envErrorOf(source);
      expect(message).toMatch(/\bADMIN_EMAIL\b/);
      expect(message).toMatch(/\bADMIN_PASSWORD\b/);
      expect(message).not.toContain(password);
    });

    it("refuse an ADMIN_PASSWORD shorter than 12 characters, without ever showing it", () => {
      const short = "Hunter2!xyz"; // 11 characters
      const { message } = envErrorOf({ ADMIN_EMAIL: "owner@example.com", ADMIN_PASSWORD: short });
      expect(message).toMatch(/\bADMIN_PASSWORD\b/);
      expect(message).toContain("12");
      expect(message).not.toContain(short);
      expect(message).not.toContain(JSON.stringify(short));
    });

    it("accept an ADMIN_PASSWORD of exactly 12 characters", () => {
      expect(parseEnv({ ADMIN_EMAIL: "owner@example.com", ADMIN_PASSWORD: "Hunter2!xyz1" }).initialAdmin?.password).toBe("Hunter2!xyz1");
    });

    it("never show a refused ADMIN_PASSWORD even when other variables are refused too", () => {
      const short = "s3cr3t-pw";
      const { message } = envErrorOf({ ADMIN_EMAIL: "not an address", ADMIN_PASSWORD: short, PORT: "abc" });
      expect(message).toMatch(/\bADMIN_EMAIL\b/);
      expect(message).toMatch(/\bADMIN_PASSWORD\b/);
      expect(message).toMatch(/\bPORT\b/);
      expect(message).not.toContain(short);
    });

    it("refuse an ADMIN_EMAIL that is not an e-mail address", () => {
      expect(envErrorOf({ ADMIN_EMAIL: "owner at example", ADMIN_PASSWORD: password }).message).toMatch(/\bADMIN_EMAIL\b/);
    });
  });

  describe("LOGIN_RATE_LIMIT", () => {
    it("accepts whole numbers from 1 to 1000", () => {
      expect(parseEnv({ LOGIN_RATE_LIMIT: "1" }).loginRateLimit).toBe(1);
      expect(parseEnv({ LOGIN_RATE_LIMIT: "3" }).loginRateLimit).toBe(3);
      expect(parseEnv({ LOGIN_RATE_LIMIT: "1000" }).loginRateLimit).toBe(1000);
    });

    it.each(["0", "-1", "1001", "2.5", "abc", "five"])("refuses LOGIN_RATE_LIMIT=%s with a message naming it", (value) => {
      const { message } = envErrorOf({ LOGIN_RATE_LIMIT: value });
      expect(message).toMatch(/\bLOGIN_RATE_LIMIT\b/);
      expect(message).toContain(JSON.stringify(value));
    });
  });

  describe("TRUST_PROXY", () => {
    it.each([
      ["false", false],
      ["true", true],
      ["TRUE", true],
      ["0", 0],
      ["2", 2],
      ["loopback", ["loopback"]],
      ["loopback, 10.0.0.0/8", ["loopback", "10.0.0.0/8"]],
      ["192.0.2.10,2001:db8::/32, uniquelocal", ["192.0.2.10", "2001:db8::/32", "uniquelocal"]],
    ] as const)("parses TRUST_PROXY=%s", (value, expected) => {
      expect(parseEnv({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
    });

    it.each(["banana", "10.0.0.0/33", "2001:db8::/129", "10.0.0.0/8/1", "10.0.0.0/x", "loopback,", "300.1.1.1"])(
      "refuses TRUST_PROXY=%s with a message naming it",
      (value) => {
        const { message } = envErrorOf({ TRUST_PROXY: value });
        expect(message).toMatch(/\bTRUST_PROXY\b/);
        expect(message).toContain(JSON.stringify(value));
      },
    );
  });

  describe("PUBLIC_URL", () => {
    it.each([
      ["https://www.example-lettings.co.uk", "https://www.example-lettings.co.uk"],
      ["https://www.example-lettings.co.uk/", "https://www.example-lettings.co.uk"],
      [" HTTPS://WWW.Example-Lettings.co.uk// ", "https://www.example-lettings.co.uk"],
      ["http://localhost:3000", "http://localhost:3000"],
      ["https://example.com:443/", "https://example.com"],
    ] as const)("reads PUBLIC_URL=%j as %s", (value, expected) => {
      expect(parseEnv({ PUBLIC_URL: value }).publicUrl).toBe(expected);
    });

    it("is undefined when unset or blank", () => {
      expect(parseEnv({ PUBLIC_URL: "  " }).publicUrl).toBeUndefined();
    });

    it.each([
      "www.example.com",
      "ftp://example.com",
      "https://",
      "https:///path",
      "https://example.com/lettings",
      "https://example.com/?utm=1",
      "https://example.com/#top",
      "https://user:pw@example.com",
      "https://exa mple.com",
    ])("refuses PUBLIC_URL=%s with a message naming it", (value) => {
      const { message } = envErrorOf({ PUBLIC_URL: value });
      expect(message).toMatch(/\bPUBLIC_URL\b/);
      expect(message).toContain(JSON.stringify(value));
    });
  });

  describe("images: S3_* and PUBLIC_IMAGES_URL", () => {
    const s3 = {
      S3_BUCKET: "acme-images",
      S3_ENDPOINT: "https://s3.example.net",
      S3_REGION: "eu-west-2",
      S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      S3_SECRET_ACCESS_KEY: "s3cret/Key+with=signs",
      S3_FORCE_PATH_STYLE: "true",
    };

    it("keeps images on disk without S3_BUCKET", () => {
      expect(parseEnv({}).s3).toBeUndefined();
    });

    it("reads the bucket, the server, the region, the keys and the addressing", () => {
      expect(parseEnv(s3).s3).toEqual({
        bucket: "acme-images",
        endpoint: "https://s3.example.net",
        region: "eu-west-2",
        credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "s3cret/Key+with=signs" },
        forcePathStyle: true,
      });
    });

    it("needs only S3_BUCKET: AWS's endpoint, us-east-1, the SDK's own credentials, virtual-host addressing", () => {
      expect(parseEnv({ S3_BUCKET: "acme-images" }).s3).toEqual({
        bucket: "acme-images",
        endpoint: undefined,
        region: "us-east-1",
        credentials: undefined,
        forcePathStyle: false,
      });
    });

    it.each(["S3_ENDPOINT", "S3_REGION", "S3_ACCESS_KEY_ID", "S3_FORCE_PATH_STYLE"] as const)("refuses %s without S3_BUCKET, naming both", (name) => {
      const { message } = envErrorOf({ [name]: s3[name] });
      expect(message).toMatch(new RegExp(`\\b${name}\\b`));
      expect(message).toMatch(/\bS3_BUCKET\b/);
    });

    it("refuses one key without the other, and never shows the secret", () => {
      const { S3_ACCESS_KEY_ID: _id, ...withoutId } = s3;
      const missingId = envErrorOf(withoutId).message;
      expect(missingId).toMatch(/\bS3_ACCESS_KEY_ID\b/);
      expect(missingId).not.toContain(s3.S3_SECRET_ACCESS_KEY);
      const { S3_SECRET_ACCESS_KEY: _secret, ...withoutSecret } = s3;
      expect(envErrorOf(withoutSecret).message).toMatch(/\bS3_SECRET_ACCESS_KEY\b/);
      const badSecret = "has a space";
      const { message } = envErrorOf({ ...s3, S3_SECRET_ACCESS_KEY: badSecret });
      expect(message).toMatch(/\bS3_SECRET_ACCESS_KEY\b/);
      expect(message).not.toContain(badSecret);
    });

    it.each([
      ["S3_BUCKET", "Acme_Images"],
      ["S3_BUCKET", "ab"],
      ["S3_BUCKET", "-acme"],
      ["S3_ENDPOINT", "s3.example.net"],
      ["S3_ENDPOINT", "ftp://s3.example.net"],
      ["S3_ENDPOINT", "https://key:secret@s3.example.net"],
      ["S3_ENDPOINT", "https://s3.example.net/?x=1"],
      ["S3_REGION", "EU West 2"],
      ["S3_FORCE_PATH_STYLE", "sometimes"],
    ])("refuses %s=%j with a message naming it", (name, value) => {
      expect(envErrorOf({ ...s3, [name]: value }).message).toMatch(new RegExp(`\\b${name}\\b`));
    });

    it("reads PUBLIC_IMAGES_URL as a prefix ending in /, with or without S3_BUCKET", () => {
      expect(parseEnv({ PUBLIC_IMAGES_URL: "https://cdn.example.net" }).publicImagesUrl).toBe("https://cdn.example.net/");
      expect(parseEnv({ ...s3, PUBLIC_IMAGES_URL: "https://cdn.example.net/acme/images/" }).publicImagesUrl).toBe("https://cdn.example.net/acme/images/");
    });

    it.each(["cdn.example.net", "/images/", "https://cdn.example.net/?v=1", "https://cdn.example.net/#x", "https://u:p@cdn.example.net/"])(
      "refuses PUBLIC_IMAGES_URL=%s with a message naming it",
      (value) => {
        expect(envErrorOf({ PUBLIC_IMAGES_URL: value }).message).toMatch(/\bPUBLIC_IMAGES_URL\b/);
      },
    );
  });

  describe("e-mail: SMTP_URL, MAIL_FROM, CONTACT_NOTIFY_TO", () => {
    const mail = {
      SMTP_URL: "smtp://mailer:s3cret-smtp-pw@mail.example.com:587",
      MAIL_FROM: "Acme Lettings <enquiries@acme.example>",
      CONTACT_NOTIFY_TO: "office@acme.example, boss@acme.example",
    };

    it("is off without SMTP_URL, even when the addresses are set", () => {
      const { SMTP_URL: _unused, ...addresses } = mail;
      expect(parseEnv(addresses).mail).toBeUndefined();
    });

    it("reads the server, the sender and every recipient; STARTTLS required by default", () => {
      expect(parseEnv(mail).mail).toEqual({
        smtpUrl: mail.SMTP_URL,
        from: "Acme Lettings <enquiries@acme.example>",
        notifyTo: ["office@acme.example", "boss@acme.example"],
        insecure: false,
      });
    });

    it("lets plain SMTP through only when SMTP_INSECURE says so", () => {
      expect(parseEnv({ ...mail, SMTP_INSECURE: "true" }).mail?.insecure).toBe(true);
      expect(parseEnv({ ...mail, SMTP_INSECURE: "false" }).mail?.insecure).toBe(false);
      expect(envErrorOf({ ...mail, SMTP_INSECURE: "maybe" }).message).toMatch(/\bSMTP_INSECURE\b: must be true or false/);
    });

    it("no longer reads CONTACT_ACKNOWLEDGE: an owner turns the acknowledgement on in the dashboard (decision 059)", () => {
      expect(parseEnv({ ...mail, CONTACT_ACKNOWLEDGE: "true" }).mail).not.toHaveProperty("acknowledge");
    });

    it.each([
      ["MAIL_FROM", { MAIL_FROM: undefined }],
      ["CONTACT_NOTIFY_TO", { CONTACT_NOTIFY_TO: undefined }],
    ])("refuses SMTP_URL without %s, naming both, never showing the URL", (_name, change) => {
      const { message } = envErrorOf({ ...mail, ...change });
      expect(message).toMatch(/\bMAIL_FROM\b/);
      expect(message).toMatch(/\bCONTACT_NOTIFY_TO\b/);
      expect(message).not.toContain("s3cret-smtp-pw");
    });

    it.each(["http://mail.example.com", "mail.example.com:587", "smtp://", "smtp:///x"])("refuses SMTP_URL=%s without echoing it", (value) => {
      const { message } = envErrorOf({ ...mail, SMTP_URL: value });
      expect(message).toMatch(/\bSMTP_URL\b/);
      expect(message).not.toContain(JSON.stringify(value));
    });

    it.each([
      ["MAIL_FROM", "not an address"],
      ["MAIL_FROM", "Acme <a@b.example>, other@c.example"],
      ["MAIL_FROM", "Acme\r\nBcc: x@evil.example <a@b.example>"],
      ["CONTACT_NOTIFY_TO", "office@acme.example; boss@acme.example"],
      ["CONTACT_NOTIFY_TO", "office@acme.example,"],
      ["CONTACT_NOTIFY_TO", "Office <office@acme.example>"],
    ])("refuses %s=%j with a message naming it", (name, value) => {
      expect(envErrorOf({ ...mail, [name]: value }).message).toMatch(new RegExp(`\\b${name}\\b`));
    });

    it("parses mailboxes as an address or a name and address", () => {
      expect(parseMailbox("enquiries@acme.example")).toEqual({ address: "enquiries@acme.example" });
      expect(parseMailbox(' "Acme Lettings" <enquiries@acme.example> ')).toEqual({
        name: "Acme Lettings",
        address: "enquiries@acme.example",
      });
      expect(parseMailbox("<enquiries@acme.example>")).toEqual({ address: "enquiries@acme.example" });
      expect(parseMailbox("Acme <not-an-address>")).toBeUndefined();
    });
  });

  describe("CONTACT_RATE_LIMIT, CONTACT_SITE_LIMIT, ENQUIRY_RETENTION_DAYS and AUDIT_RETENTION_DAYS", () => {
    it("read whole numbers", () => {
      expect(parseEnv({ CONTACT_RATE_LIMIT: "20", CONTACT_SITE_LIMIT: "500", ENQUIRY_RETENTION_DAYS: "365", AUDIT_RETENTION_DAYS: "730" })).toMatchObject({
        contactRateLimit: 20,
        contactSiteLimit: 500,
        enquiryRetentionDays: 365,
        auditRetentionDays: 730,
      });
    });

    it.each([
      ["CONTACT_SITE_LIMIT", "0"],
      ["CONTACT_SITE_LIMIT", "lots"],
      ["CONTACT_RATE_LIMIT", "0"],
      ["CONTACT_RATE_LIMIT", "ten"],
      ["CONTACT_RATE_LIMIT", "1.5"],
      ["ENQUIRY_RETENTION_DAYS", "0"],
      ["ENQUIRY_RETENTION_DAYS", "-30"],
      ["ENQUIRY_RETENTION_DAYS", "a year"],
      ["AUDIT_RETENTION_DAYS", "0"],
      ["AUDIT_RETENTION_DAYS", "36501"],
      ["AUDIT_RETENTION_DAYS", "forever"],
      ["CONTACT_HARD_LIMIT", "0"],
      ["CONTACT_HARD_LIMIT", "many"],
    ])("refuse %s=%s with a message naming it", (name, value) => {
      const { message } = envErrorOf({ [name]: value });
      expect(message).toMatch(new RegExp(`\\b${name}\\b`));
      expect(message).toContain(JSON.stringify(value));
    });

    it("hold a flood between CONTACT_SITE_LIMIT and CONTACT_HARD_LIMIT, 5,000 an hour unless the site-wide limit is higher", () => {
      expect(parseEnv({})).toMatchObject({ contactSiteLimit: 100, contactHardLimit: 5_000 });
      expect(parseEnv({ CONTACT_SITE_LIMIT: "20000" })).toMatchObject({ contactHardLimit: 20_000 });
      expect(parseEnv({ CONTACT_SITE_LIMIT: "50", CONTACT_HARD_LIMIT: "800" })).toMatchObject({ contactSiteLimit: 50, contactHardLimit: 800 });
    });

    it("refuse a CONTACT_HARD_LIMIT below CONTACT_SITE_LIMIT, naming both", () => {
      const { message } = envErrorOf({ CONTACT_SITE_LIMIT: "200", CONTACT_HARD_LIMIT: "150" });
      expect(message).toMatch(/CONTACT_HARD_LIMIT: must be at least CONTACT_SITE_LIMIT \(200\)/);
      expect(message).toContain('"150"');
    });
  });
});
