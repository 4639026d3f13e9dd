// Connect fields: what a provider asks for to connect a channel (its connect_fields), split into settings that
// may be shown and secrets that are sealed to the channel row and never returned (ARCHITECTURE rule 6).
import type { App } from "../../app/context.ts";
import type { Db, Tx } from "../../db/index.ts";
import type { ChannelsTable } from "../../db/tables/channels.ts";
import { type Problem, problem, ServiceError } from "../../lib/errors.ts";
import type { PlatformRules } from "../../platforms/types.ts";

export interface SplitFields {
  settings: Record<string, string>;
  secrets: Record<string, string>;
}

/** Checks the given fields against the provider's connect_fields; every problem is listed. */
export function splitFields(
  rules: PlatformRules,
  given: Record<string, string>,
): SplitFields & { problems: Problem[] } {
  const problems: Problem[] = [];
  const settings: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  const known = new Set(rules.connect_fields.map((f) => f.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name))
      problems.push(
        problem(
          "field_unknown",
          `${rules.name} takes no field ${name}; it takes ${[...known].join(", ") || "none"}.`,
          `fields.${name}`,
        ),
      );
  }
  for (const f of rules.connect_fields) {
    const raw = given[f.name];
    // A blank value is no value: a form sends "" for a field left empty.
    const value = raw === undefined || raw.trim() === "" ? (f.default ?? undefined) : raw.trim();
    if (value === undefined) {
      if (!f.optional)
        problems.push(
          problem("field_required", `${rules.name} needs ${f.label} (${f.name}).`, `fields.${f.name}`),
        );
      continue;
    }
    (f.secret ? secrets : settings)[f.name] = value;
  }
  return { settings, secrets, problems };
}

const sealedAt = (channelId: string) => ({ table: "channels", row: channelId, column: "secrets" });

/** The secrets sealed to this channel's row and column; null when the provider has none to keep. */
export async function sealSecrets(
  db: Db | Tx,
  app: App,
  orgId: string,
  channelId: string,
  secrets: Record<string, string>,
): Promise<string | null> {
  if (Object.keys(secrets).length === 0) return null;
  return app.keys.seal(db, orgId, sealedAt(channelId), JSON.stringify(secrets));
}

/**
 * The channel's secret fields in the clear, for its adapter. A value that does not open (tampered, copied to
 * another row, or sealed under a data key that is gone) is `credentials_unreadable`: reconnecting fixes it.
 */
export async function openSecrets(
  app: App,
  channel: Pick<ChannelsTable, "id" | "org_id" | "secrets">,
): Promise<Record<string, string>> {
  if (channel.secrets === null) return {};
  try {
    return JSON.parse(await app.keys.open(app.db, channel.org_id, sealedAt(channel.id), channel.secrets));
  } catch (e) {
    // No master key is an outage of the whole install (503), not a problem of this channel.
    if (e instanceof ServiceError) throw e;
    throw new ServiceError(
      500,
      "credentials_unreadable",
      `The credentials of channel ${channel.id} cannot be read; connect it again.`,
      { detail: { channel: channel.id } },
    );
  }
}
