// Brevo (api.brevo.com/v3, the API key in the `api-key` header): the account behind a key (`GET /account`) and its
// contact lists (`GET /contacts/lists`), which are the audiences an issue goes to. Calls go through the guarded
// outbound client; SVC_PROVIDER_ORIGINS `brevo` points them elsewhere (tests, a proxy).
import type { App } from "../../app/context.ts";
import { NoAnswer, networkRequest } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import type { MailAnswer, MailAudience, MailCredentials, MailProvider } from "./types.ts";

const base = (app: App) => `${providerOrigin(app, "brevo", "https://api.brevo.com")}/v3`;

/** One request; a 401 (wrong or revoked key) is a refusal, a 5xx or no answer is unavailable. */
async function call(
  app: App,
  creds: MailCredentials,
  method: "GET" | "POST" | "PUT",
  path: string,
  json?: unknown,
): Promise<MailAnswer<unknown>> {
  try {
    const res = await networkRequest(app, {
      method,
      url: `${base(app)}${path}`,
      headers: { "api-key": creds.secrets.api_key ?? "" },
      ...(json === undefined ? {} : { json }),
      timeoutMs: 30_000,
    });
    if (res.status >= 200 && res.status < 300) return { kind: "ok", value: res.json };
    const message = (res.json as { message?: string } | undefined)?.message ?? `HTTP ${res.status}`;
    if (res.status >= 400 && res.status < 500 && res.status !== 429) return { kind: "rejected", message };
    return { kind: "unavailable", message: `Brevo answered ${res.status}: ${message}` };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: e.message };
    throw e;
  }
}

const get = (app: App, creds: MailCredentials, path: string) => call(app, creds, "GET", path);

interface BrevoList {
  id: number;
  name: string;
  totalSubscribers?: number;
  uniqueSubscribers?: number;
}

interface BrevoCampaign {
  id: number;
  tag?: string;
}

// Brevo pages lists 50 at a time at most; an agency's client rarely has more than a few hundred.
const PAGE = 50;
const MAX_PAGES = 20;

export const brevoMail: MailProvider = {
  provider: "brevo",
  name: "Brevo",
  mode: "live",
  unsubscribe: "{{ unsubscribe }}",
  fields: [
    {
      name: "api_key",
      label: "API key",
      help: "An API key from Brevo (SMTP & API, API keys).",
      secret: true,
      optional: false,
      default: null,
    },
  ],
  async check(app, creds) {
    const a = await get(app, creds, "/account");
    if (a.kind !== "ok") return a;
    const acct = a.value as { email: string; companyName?: string };
    return { kind: "ok", account: { ref: acct.email, name: acct.companyName || acct.email } };
  },
  async audiences(app, creds) {
    const out: MailAudience[] = [];
    for (let p = 0; p < MAX_PAGES; p++) {
      const a = await get(app, creds, `/contacts/lists?limit=${PAGE}&offset=${p * PAGE}`);
      if (a.kind !== "ok") return a;
      const body = a.value as { lists?: BrevoList[]; count?: number };
      const lists = body.lists ?? [];
      for (const l of lists)
        out.push({ id: String(l.id), name: l.name, size: l.uniqueSubscribers ?? l.totalSubscribers ?? null });
      if (lists.length < PAGE || out.length >= (body.count ?? 0)) break;
    }
    return { kind: "ok", value: out };
  },
  async createCampaign(app, creds, c) {
    try {
      const res = await networkRequest(app, {
        method: "POST",
        url: `${base(app)}/emailCampaigns`,
        headers: { "api-key": creds.secrets.api_key ?? "" },
        json: {
          name: c.name,
          tag: c.marker,
          subject: c.subject,
          ...(c.previewText ? { previewText: c.previewText } : {}),
          sender: { name: c.fromName, email: c.fromEmail },
          ...(c.replyTo ? { replyTo: c.replyTo } : {}),
          htmlContent: c.html,
          recipients: { listIds: c.audiences.map(Number) },
          scheduledAt: new Date(c.sendAt).toISOString(),
        },
        timeoutMs: 30_000,
      });
      if (res.status === 201)
        return { kind: "ok", value: { campaignId: String((res.json as { id: number }).id) } };
      const message = (res.json as { message?: string } | undefined)?.message ?? `HTTP ${res.status}`;
      // A 5xx may come after Brevo stored the campaign: look for it before creating again.
      if (res.status >= 500) return { kind: "unsure", message: `Brevo answered ${res.status}: ${message}` };
      if (res.status === 429) return { kind: "unavailable", message };
      return { kind: "rejected", message };
    } catch (e) {
      if (e instanceof NoAnswer)
        return e.sent === "unsent"
          ? { kind: "unavailable", message: e.message }
          : { kind: "unsure", message: e.message };
      throw e;
    }
  },
  async findCampaign(app, creds, marker) {
    for (let p = 0; p < 10; p++) {
      const a = await get(
        app,
        creds,
        `/emailCampaigns?type=classic&limit=100&offset=${p * 100}&sort=desc&excludeHtmlContent=true`,
      );
      if (a.kind !== "ok") return a;
      const list = ((a.value as { campaigns?: BrevoCampaign[] }).campaigns ?? []) as BrevoCampaign[];
      const hit = list.find((x) => x.tag === marker);
      if (hit) return { kind: "ok", value: String(hit.id) };
      if (list.length < 100) break;
    }
    return { kind: "ok", value: null };
  },
  async moveCampaign(app, creds, campaignId, sendAt) {
    const a = await call(app, creds, "PUT", `/emailCampaigns/${encodeURIComponent(campaignId)}`, {
      scheduledAt: new Date(sendAt).toISOString(),
    });
    return a.kind === "ok" ? { kind: "ok", value: true } : a;
  },
  async cancelCampaign(app, creds, campaignId) {
    const a = await call(app, creds, "PUT", `/emailCampaigns/${encodeURIComponent(campaignId)}/status`, {
      status: "suspended",
    });
    return a.kind === "ok" ? { kind: "ok", value: true } : a;
  },
  async results(app, creds, campaignId) {
    const a = await get(
      app,
      creds,
      `/emailCampaigns/${encodeURIComponent(campaignId)}?statistics=globalStats`,
    );
    if (a.kind !== "ok") return a;
    const g =
      (a.value as { statistics?: { globalStats?: Record<string, number> } }).statistics?.globalStats ?? {};
    return {
      kind: "ok",
      value: {
        sent: g.sent ?? 0,
        opens: g.uniqueViews ?? 0,
        clicks: g.uniqueClicks ?? 0,
        unsubscribes: g.unsubscriptions ?? 0,
        bounces: (g.hardBounces ?? 0) + (g.softBounces ?? 0),
      },
    };
  },
  // A transactional email (POST /smtp/email) to the test addresses: Brevo's campaign test send needs a campaign
  // and addresses on its test list, and no campaign exists before the hand-off.
  async sendTest(app, creds, m) {
    const a = await call(app, creds, "POST", "/smtp/email", {
      sender: { name: m.fromName, email: m.fromEmail },
      to: m.to.map((email) => ({ email })),
      ...(m.replyTo ? { replyTo: { email: m.replyTo } } : {}),
      subject: m.subject,
      htmlContent: m.html,
      textContent: m.text,
    });
    return a.kind === "ok" ? { kind: "ok", value: true } : a;
  },
};
