// Asking a mail provider, with what it answers turned into the spec's codes: credentials refused → 422
// `connect_failed` when connecting; no usable answer → 503 `provider_unavailable` (nothing saved; try again).
// Secrets are sealed to the account's row and column, like a channel's.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { MailAccountsTable } from "../../db/tables/newsletters.ts";
import { invalid, type Problem, problem, ServiceError } from "../../lib/errors.ts";
import { mailProvider } from "../../platforms/mail/registry.ts";
import type { MailCredentials, MailProvider } from "../../platforms/mail/types.ts";
import type { Actor } from "../actor.ts";

/** The provider for this mode, or 422 `provider_invalid` / `provider_unavailable`. */
export function providerFor(actor: Actor, name: string): MailProvider {
  const p = mailProvider(name);
  if (!p) throw invalid([problem("provider_invalid", `There is no mail provider ${name}.`, "provider")]);
  if (p.mode === "test" && actor.livemode)
    throw invalid([
      problem("provider_unavailable", `${p.name} is for test mode only; use a test key.`, "provider"),
    ]);
  if (p.mode === "live" && !actor.livemode)
    throw invalid([
      problem(
        "provider_unavailable",
        `Test mode reaches only the sandbox mail provider; connect ${p.name} with a live key.`,
        "provider",
      ),
    ]);
  return p;
}

/** The given fields checked against the provider's, split into shown settings and sealed secrets. */
export function splitMailFields(p: MailProvider, given: Record<string, string>): MailCredentials {
  const problems: Problem[] = [];
  const settings: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  const known = new Set(p.fields.map((f) => f.name));
  for (const n of Object.keys(given))
    if (!known.has(n))
      problems.push(
        problem(
          "field_unknown",
          `${p.name} takes no field ${n}; it takes ${[...known].join(", ") || "none"}.`,
          `fields.${n}`,
        ),
      );
  for (const f of p.fields) {
    const raw = given[f.name];
    const value = raw === undefined || raw.trim() === "" ? (f.default ?? undefined) : raw.trim();
    if (value === undefined) {
      if (!f.optional)
        problems.push(
          problem("field_required", `${p.name} needs ${f.label} (${f.name}).`, `fields.${f.name}`),
        );
      continue;
    }
    (f.secret ? secrets : settings)[f.name] = value;
  }
  if (problems.length) throw invalid(problems);
  return { settings, secrets };
}

export const unavailable = (p: MailProvider, message: string) =>
  new ServiceError(
    503,
    "provider_unavailable",
    `${p.name} could not be reached; nothing was changed. Try again.`,
    { detail: { provider: p.provider, reason: message }, headers: { "retry-after": "30" } },
  );

/** Checks credentials before they are saved: the account the provider names, and its audiences. */
export async function checkCredentials(app: App, p: MailProvider, creds: MailCredentials) {
  const c = await p.check(app, creds);
  if (c.kind === "rejected")
    throw invalid([
      problem("connect_failed", `${p.name} refused these credentials: ${c.message}`, "fields", {
        provider: p.provider,
        reason: c.message,
      }),
    ]);
  if (c.kind === "unavailable") throw unavailable(p, c.message);
  return c.account;
}

/** 422 `audience_unknown` for each audience the provider does not have. */
export async function checkAudiences(
  app: App,
  p: MailProvider,
  creds: MailCredentials,
  wanted: readonly string[],
  param: string,
): Promise<void> {
  if (wanted.length === 0) return;
  const a = await p.audiences(app, creds);
  if (a.kind === "unavailable") throw unavailable(p, a.message);
  if (a.kind === "rejected")
    throw invalid([problem("connect_failed", `${p.name} refused these credentials: ${a.message}`, "fields")]);
  const known = new Set(a.value.map((x) => x.id));
  const problems = wanted
    .map((id, i) => [id, i] as const)
    .filter(([id]) => !known.has(id))
    .map(([id, i]) =>
      problem("audience_unknown", `${p.name} has no audience ${id} in this account.`, `${param}.${i}`),
    );
  if (problems.length) throw invalid(problems);
}

const sealedAt = (id: string) => ({ table: "mail_accounts", row: id, column: "secrets" });

export async function sealMailSecrets(
  db: Db | Tx,
  app: App,
  orgId: string,
  id: string,
  secrets: Record<string, string>,
): Promise<string | null> {
  if (Object.keys(secrets).length === 0) return null;
  return app.keys.seal(db, orgId, sealedAt(id), JSON.stringify(secrets));
}

/** The stored credentials in the clear, for the provider. */
export async function openCredentials(app: App, row: MailAccountsTable): Promise<MailCredentials> {
  const settings = JSON.parse(row.settings) as Record<string, string>;
  if (row.secrets === null) return { settings, secrets: {} };
  try {
    const plain = await app.keys.open(app.db, row.org_id, sealedAt(row.id), row.secrets);
    return { settings, secrets: JSON.parse(plain) };
  } catch (e) {
    if (e instanceof ServiceError) throw e;
    throw new ServiceError(
      500,
      "credentials_unreadable",
      `The credentials of mail account ${row.id} cannot be read; connect it again.`,
    );
  }
}
