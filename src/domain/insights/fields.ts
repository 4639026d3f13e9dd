// Connect fields of ad accounts and analytics sources, as channels take them: checked against the provider's
// connect_fields (field_required, field_unknown), split into shown settings and secrets sealed to the row.
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import { invalid, type Problem, problem, ServiceError } from "../../lib/errors.ts";
import type { ProviderInfo, Refusal } from "../../platforms/insights/types.ts";

export interface Split {
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

export function splitFields(p: ProviderInfo, given: Record<string, string>): Split & { problems: Problem[] } {
  const problems: Problem[] = [];
  const settings: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  const known = new Set(p.connect_fields.map((f) => f.name));
  for (const name of Object.keys(given))
    if (!known.has(name))
      problems.push(
        problem(
          "field_unknown",
          `${p.name} takes no field ${name}; it takes ${[...known].join(", ")}.`,
          `fields.${name}`,
        ),
      );
  for (const f of p.connect_fields) {
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
  return { settings, secrets, problems };
}

/** Where a row's secrets are sealed: bound to its table, row and column. */
const sealedAt = (table: string, id: string) => ({ table, row: id, column: "secrets" });

export async function sealSecrets(
  db: Db | Tx,
  app: App,
  orgId: string,
  table: "ad_accounts" | "analytics_sources",
  id: string,
  secrets: Record<string, string>,
): Promise<string | null> {
  if (Object.keys(secrets).length === 0) return null;
  return app.keys.seal(db, orgId, sealedAt(table, id), JSON.stringify(secrets));
}

/** The row's secrets in the clear, for its adapter; a seal that does not open is `credentials_unreadable`. */
export async function openSecrets(
  app: App,
  table: "ad_accounts" | "analytics_sources",
  row: { id: string; org_id: string; secrets: string | null },
): Promise<Record<string, string>> {
  if (row.secrets === null) return {};
  try {
    return JSON.parse(await app.keys.open(app.db, row.org_id, sealedAt(table, row.id), row.secrets));
  } catch (e) {
    if (e instanceof ServiceError) throw e;
    throw new ServiceError(
      500,
      "credentials_unreadable",
      `The credentials of ${row.id} cannot be read; connect it again.`,
      {
        detail: { id: row.id },
      },
    );
  }
}

/** A provider that must be real in live mode and the sandbox in test mode. */
export function modeProblems(p: ProviderInfo, livemode: boolean, param: string): Problem[] {
  if (p.livemode && !livemode)
    return [problem("livemode_required", `${p.name} is a real service: connect it with a live key.`, param)];
  if (!p.livemode && livemode)
    return [problem("testmode_required", `${p.name} is for test mode: connect it with a test key.`, param)];
  return [];
}

/** A refusal at connect time: 422 connect_failed (the network said no) or 503 (it did not answer). */
export function connectRefused(name: string, key: string, r: Refusal): ServiceError {
  if (r.kind === "refused")
    return invalid([
      problem("connect_failed", `${name} refused these credentials: ${r.message}`, "fields", {
        provider: key,
        reason: r.message,
      }),
    ]);
  return new ServiceError(
    503,
    "provider_unavailable",
    `${name} could not be reached to check the credentials; nothing was saved. Try again.`,
    {
      detail: { provider: key, reason: r.message },
      headers: { "retry-after": "30" },
    },
  );
}

export const CONNECT_TIMEOUT_MS = 30_000;
