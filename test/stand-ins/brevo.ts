// Brevo's API v3 (developers.brevo.com), stateful: accounts reached by their API key (the `api-key` header), each
// with contact lists (the audiences). A revoked key answers 401 `unauthorized` ("Key not found"), which Brevo
// documents on its authentication page rather than per operation in its description. Every request and answer
// is checked against Brevo's published OpenAPI description in ../shared/api-specs/brevo.

import { type StandIn, startStandIn } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface BrevoList {
  id: number;
  name: string;
  subscribers: number;
}

export interface BrevoAccount {
  apiKey: string;
  email: string;
  companyName: string;
  lists: BrevoList[];
  revoked: boolean;
}

export interface BrevoStandIn extends StandIn {
  addAccount(opts: { email: string; companyName?: string; lists?: string[] }): BrevoAccount;
  accounts: BrevoAccount[];
}

export async function startBrevo(): Promise<BrevoStandIn> {
  const spec = await loadSpec({ file: "brevo/swagger_definition_v3.yml" });
  const accounts: BrevoAccount[] = [];
  let nextList = 10;
  let nextKey = 1;

  const error = (status: number, code: string, message: string) => ({ status, body: { code, message } });

  const s = startStandIn({
    spec,
    route(path) {
      const m = /^\/v3(\/.*)$/.exec(path);
      return m ? { path: m[1]! } : null;
    },
    invalid: (problems) => error(400, "invalid_parameter", problems.join("; ")),
    documentedElsewhere: {
      401: "developers.brevo.com, Authentication: 401 unauthorized when the api-key is missing or unknown",
      500: "developers.brevo.com, HTTP status codes: 5xx on Brevo's side",
    },
    failure(kind) {
      if (kind === "rate_limited") return error(429, "too_many_requests", "Too many requests");
      if (kind === "revoked") return error(401, "unauthorized", "Key not found");
      return { status: 500, body: { code: "internal_error", message: "Internal error" } };
    },
    handle(req) {
      const acct = accounts.find((a) => a.apiKey === req.headers["api-key"] && !a.revoked);
      if (!acct) return error(401, "unauthorized", "Key not found");
      if (req.method === "GET" && req.path === "/account")
        return {
          status: 200,
          body: {
            email: acct.email,
            firstName: "Agency",
            lastName: "Owner",
            companyName: acct.companyName,
            address: { street: "1 Main Street", city: "Paris", zipCode: "75001", country: "France" },
            plan: [{ type: "subscription", credits: 20000, creditsType: "sendLimit" }],
            relay: {
              enabled: true,
              data: { userName: acct.email, relay: "smtp-relay.brevo.com", port: 587 },
            },
          },
        };
      if (req.method === "GET" && req.path === "/contacts/lists") {
        const limit = Number(req.query.limit ?? 10);
        const offset = Number(req.query.offset ?? 0);
        // Brevo lists the newest first unless sort=asc.
        const all = req.query.sort === "asc" ? acct.lists : [...acct.lists].reverse();
        return {
          status: 200,
          body: {
            lists: all.slice(offset, offset + limit).map((l) => ({
              id: l.id,
              name: l.name,
              totalBlacklisted: 0,
              totalSubscribers: l.subscribers,
              uniqueSubscribers: l.subscribers,
              folderId: 1,
            })),
            count: all.length,
          },
        };
      }
      return error(404, "document_not_found", "Not served by the stand-in");
    },
  });

  return {
    ...s,
    accounts,
    addAccount(opts) {
      const acct: BrevoAccount = {
        apiKey: `xkeysib-${String(nextKey++).padStart(8, "0")}-standin`,
        email: opts.email,
        companyName: opts.companyName ?? "Agency client",
        lists: (opts.lists ?? ["Newsletter"]).map((name) => ({ id: nextList++, name, subscribers: 100 })),
        revoked: false,
      };
      accounts.push(acct);
      return acct;
    },
  };
}
