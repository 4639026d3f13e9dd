// Brevo (api.brevo.com/v3, the API key in the `api-key` header): the account behind a key (`GET /account`) and its
// contact lists (`GET /contacts/lists`), which are the audiences an issue goes to. Calls go through the guarded
// outbound client; SVC_PROVIDER_ORIGINS `brevo` points them elsewhere (tests, a proxy).
import type { App } from "../../app/context.ts";
import { NoAnswer, networkRequest } from "../plumbing/http.ts";
import { providerOrigin } from "../plumbing/origins.ts";
import type { MailAnswer, MailAudience, MailCredentials, MailProvider } from "./types.ts";

const base = (app: App) => `${providerOrigin(app, "brevo", "https://api.brevo.com")}/v3`;

/** One GET; a 401 (wrong or revoked key) is a refusal, a 5xx or no answer is unavailable. */
async function get(app: App, creds: MailCredentials, path: string): Promise<MailAnswer<unknown>> {
  try {
    const res = await networkRequest(app, {
      method: "GET",
      url: `${base(app)}${path}`,
      headers: { "api-key": creds.secrets.api_key ?? "" },
      timeoutMs: 30_000,
    });
    if (res.status === 200) return { kind: "ok", value: res.json };
    const message = (res.json as { message?: string } | undefined)?.message ?? `HTTP ${res.status}`;
    if (res.status === 401 || res.status === 403) return { kind: "rejected", message };
    return { kind: "unavailable", message: `Brevo answered ${res.status}: ${message}` };
  } catch (e) {
    if (e instanceof NoAnswer) return { kind: "unavailable", message: e.message };
    throw e;
  }
}

interface BrevoList {
  id: number;
  name: string;
  totalSubscribers?: number;
  uniqueSubscribers?: number;
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
};
