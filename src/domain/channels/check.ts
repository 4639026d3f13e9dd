// The daily credential check (`channels.check`): every live, active channel whose network can check credentials
// is asked once a day (X, which bills look-ups, once a week); refused credentials make it needs_reauth (with `channel.needs_reauth`) before a post fails
// on it. A network that cannot be reached concludes nothing: the error is noted and the next run asks again.
import type { App } from "../../app/context.ts";
import type { ChannelsTable } from "../../db/tables/channels.ts";
import { adapterFor } from "../../platforms/adapter-registry.ts";
import { platforms } from "../../platforms/rules-registry.ts";
import { openSecrets } from "./fields.ts";
import { markNeedsReauth } from "./state.ts";
import { askNetwork } from "./verify.ts";

export const CHECK_EVERY_MS = 24 * 3600_000;
/** X bills its look-ups, so its channels are checked weekly (interface.md "Background tasks"; reference §5). */
const CHECK_EVERY_MS_BY_PROVIDER: Readonly<Record<string, number>> = { x: 7 * 24 * 3600_000 };
export const checkEveryMs = (provider: string) => CHECK_EVERY_MS_BY_PROVIDER[provider] ?? CHECK_EVERY_MS;
/** After a network could not be reached, the channel is asked again this much later. */
const UNAVAILABLE_RETRY_MS = 3600_000;

export type CheckResult = "ok" | "needs_reauth" | "unavailable" | "skipped";

/** Checks one channel now and records the result. */
export async function checkChannel(app: App, row: ChannelsTable): Promise<CheckResult> {
  let secrets: Record<string, string>;
  try {
    secrets = await openSecrets(app, row);
  } catch (e) {
    await note(app, row.id, `credentials unreadable: ${(e as Error).message}`, app.clock.now());
    return "unavailable";
  }
  const settings = JSON.parse(row.settings) as Record<string, string>;
  const outcome = await askNetwork(app, row.provider, row.livemode === 1, { settings, secrets });
  const now = app.clock.now();
  if (outcome === null) return "skipped";
  if (outcome.kind === "rejected") {
    await app.db.transaction().execute((tx) => markNeedsReauth(tx, app, row.id, outcome.message));
    return "needs_reauth";
  }
  if (outcome.kind === "unavailable") {
    // checked_at moves so that the channel is asked again in an hour, not at once; the error says why.
    await note(app, row.id, outcome.message, now - checkEveryMs(row.provider) + UNAVAILABLE_RETRY_MS);
    return "unavailable";
  }
  const a = outcome.account;
  await app.db
    .updateTable("channels")
    .set({
      checked_at: now,
      check_error: null,
      ...(a.handle !== null ? { handle: a.handle } : {}),
      ...(a.display_name !== null ? { display_name: a.display_name } : {}),
      ...(a.profile_url !== null ? { profile_url: a.profile_url } : {}),
      updated_at: now,
    })
    .where("id", "=", row.id)
    // A channel someone reconnected or disabled meanwhile keeps what they did.
    .where("status", "=", "active")
    .execute();
  return "ok";
}

async function note(app: App, id: string, error: string, checkedAt: number): Promise<void> {
  await app.db
    .updateTable("channels")
    .set({ checked_at: checkedAt, check_error: error.slice(0, 500) })
    .where("id", "=", id)
    .execute();
}

/** Checks up to `limit` live active channels not checked within their interval (a day; X a week), oldest first. */
export async function checkDueChannels(app: App, limit = 100): Promise<Record<CheckResult, number>> {
  const now = app.clock.now();
  const providers = platforms
    .filter((p) => !p.test_only && adapterFor(p.provider)?.connect !== undefined)
    .map((p) => p.provider);
  const counts: Record<CheckResult, number> = { ok: 0, needs_reauth: 0, unavailable: 0, skipped: 0 };
  if (providers.length === 0) return counts;
  const due = await app.db
    .selectFrom("channels")
    .selectAll()
    .where("livemode", "=", 1)
    .where("status", "=", "active")
    .where("provider", "in", providers)
    .where((eb) =>
      eb.or([
        eb("checked_at", "is", null),
        ...[...new Set(providers.map(checkEveryMs))].map((every) =>
          eb.and([
            eb(
              "provider",
              "in",
              providers.filter((p) => checkEveryMs(p) === every),
            ),
            eb("checked_at", "<=", now - every),
          ]),
        ),
      ]),
    )
    .orderBy((eb) => eb.fn.coalesce("checked_at", eb.lit(0)))
    .limit(limit)
    .execute();
  for (const row of due) counts[await checkChannel(app, row)]++;
  return counts;
}
