// Brevo's API v3 (developers.brevo.com), stateful: accounts reached by their API key (the `api-key` header), each
// with contact lists (the audiences) and email campaigns (created scheduled, listed with their tag, moved,
// suspended). A revoked key answers 401 `unauthorized` ("Key not found"), which Brevo
// documents on its authentication page rather than per operation in its description. Every request and answer
// is checked against Brevo's published OpenAPI description in ../shared/api-specs/brevo.

import { type StandIn, startStandIn } from "./server.ts";
import { loadSpec } from "./spec.ts";

export interface BrevoList {
  id: number;
  name: string;
  subscribers: number;
}

export interface BrevoCampaign {
  id: number;
  name: string;
  tag: string;
  subject: string;
  previewText: string;
  htmlContent: string;
  sender: { name: string; email: string };
  replyTo: string;
  listIds: number[];
  scheduledAt: string;
  status: "queued" | "suspended" | "sent";
  /** The counts Brevo reports once sent (a test sets them). */
  stats: ReturnType<typeof stats>;
  createdAt: string;
  modifiedAt: string;
}

export interface BrevoAccount {
  apiKey: string;
  email: string;
  companyName: string;
  lists: BrevoList[];
  revoked: boolean;
  campaigns: BrevoCampaign[];
  /** Transactional emails sent (test sends): who to and the subject. */
  transactional: { to: string[]; subject: string; html: string }[];
}

export interface BrevoStandIn extends StandIn {
  addAccount(opts: { email: string; companyName?: string; lists?: string[] }): BrevoAccount;
  accounts: BrevoAccount[];
}

const stats = () => ({
  uniqueClicks: 0,
  clickers: 0,
  complaints: 0,
  delivered: 0,
  sent: 0,
  softBounces: 0,
  hardBounces: 0,
  uniqueViews: 0,
  trackableViews: 0,
  unsubscriptions: 0,
  viewed: 0,
});

export async function startBrevo(): Promise<BrevoStandIn> {
  const spec = await loadSpec({ file: "brevo/swagger_definition_v3.yml" });
  const accounts: BrevoAccount[] = [];
  let nextList = 10;
  let nextKey = 1;
  let nextCampaign = 100;

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
      const campaignJson = (c: BrevoCampaign, html: boolean) => ({
        id: c.id,
        name: c.name,
        subject: c.subject,
        previewText: c.previewText,
        type: "classic",
        status: c.status,
        scheduledAt: c.scheduledAt,
        testSent: false,
        header: "[DEFAULT_HEADER]",
        footer: "[DEFAULT_FOOTER]",
        sender: { ...c.sender, id: 1 },
        replyTo: c.replyTo,
        ...(html ? { htmlContent: c.htmlContent } : { htmlContent: "" }),
        tag: c.tag,
        createdAt: c.createdAt,
        modifiedAt: c.modifiedAt,
        recipients: { lists: c.listIds, exclusionLists: [] },
        statistics: {
          globalStats: c.stats,
          campaignStats: [],
          mirrorClick: 0,
          remaining: 0,
          linksStats: {},
          statsByDomain: {},
          statsByDevice: {},
          statsByBrowser: {},
        },
      });
      if (req.method === "POST" && req.path === "/emailCampaigns") {
        const b = req.body as {
          name: string;
          tag?: string;
          subject?: string;
          previewText?: string;
          htmlContent?: string;
          sender: { name?: string; email?: string };
          replyTo?: string;
          recipients?: { listIds?: number[] };
          scheduledAt?: string;
        };
        const listIds = b.recipients?.listIds ?? [];
        if (listIds.some((id) => !acct.lists.some((l) => l.id === id)))
          return error(400, "invalid_parameter", "List not found");
        const at = new Date().toISOString();
        const c: BrevoCampaign = {
          id: nextCampaign++,
          name: b.name,
          tag: b.tag ?? "",
          subject: b.subject ?? "",
          previewText: b.previewText ?? "",
          htmlContent: b.htmlContent ?? "",
          sender: { name: b.sender.name ?? "", email: b.sender.email ?? "" },
          replyTo: b.replyTo ?? b.sender.email ?? "",
          listIds,
          scheduledAt: b.scheduledAt ?? at,
          status: "queued",
          stats: stats(),
          createdAt: at,
          modifiedAt: at,
        };
        acct.campaigns.push(c);
        return { status: 201, body: { id: c.id } };
      }
      if (req.method === "POST" && req.path === "/smtp/email") {
        const b = req.body as { to: { email: string }[]; subject?: string; htmlContent?: string };
        acct.transactional.push({
          to: b.to.map((x) => x.email),
          subject: b.subject ?? "",
          html: b.htmlContent ?? "",
        });
        return {
          status: 201,
          body: { messageId: `<${Date.now()}.${acct.transactional.length}@smtp-relay.brevo.com>` },
        };
      }
      if (req.method === "GET" && req.path === "/emailCampaigns") {
        const limit = Number(req.query.limit ?? 50);
        const offset = Number(req.query.offset ?? 0);
        const all = req.query.sort === "asc" ? acct.campaigns : [...acct.campaigns].reverse();
        const html = req.query.excludeHtmlContent !== "true";
        return {
          status: 200,
          body: {
            campaigns: all.slice(offset, offset + limit).map((c) => campaignJson(c, html)),
            count: all.length,
          },
        };
      }
      const one = /^\/emailCampaigns\/(\d+)(\/status)?$/.exec(req.path);
      if (one && !one[2] && req.method === "GET") {
        const c = acct.campaigns.find((x) => x.id === Number(one[1]));
        if (!c) return error(404, "document_not_found", "Campaign ID does not exist");
        return { status: 200, body: campaignJson(c, true) };
      }
      if (one && req.method === "PUT") {
        const c = acct.campaigns.find((x) => x.id === Number(one[1]));
        if (!c) return error(404, "document_not_found", "Campaign ID does not exist");
        if (c.status === "sent") return error(400, "campaign_sent", "Campaign already sent");
        const b = req.body as { scheduledAt?: string; status?: string };
        if (one[2]) c.status = b.status === "suspended" ? "suspended" : c.status;
        else if (b.scheduledAt) c.scheduledAt = b.scheduledAt;
        c.modifiedAt = new Date().toISOString();
        return { status: 204 };
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
        campaigns: [],
        transactional: [],
      };
      accounts.push(acct);
      return acct;
    },
  };
}
