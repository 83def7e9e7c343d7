import { createContext } from "react-router";
import type { Company } from "~/company/company";
import type { Db } from "./db.server";

/** What every loader and action gets from the server, created once at start-up. */
export type AppServices = {
  db: Db;
  company: Company;
};

export const servicesContext = createContext<AppServices>();

/** The per-request nonce that lets our inline scripts pass the Content-Security-Policy. */
export const cspNonceContext = createContext<string>("");
