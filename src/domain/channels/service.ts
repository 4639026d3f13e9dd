// Channels: accounts on networks, each of one brand and one mode. Test mode reaches only the sandbox, live mode
// every real network; a channel's secret connect fields are sealed and never returned.
import { type RawBuilder, sql } from "kysely";
import type { App } from "../../app/context.ts";
import type { Tx } from "../../db/index.ts";
import { targetHeldOrUncertain, targetQueued, targetWaiting } from "../../db/sql/channel-waiting-targets.ts";
import { where } from "../../db/sql/statement.ts";
import type { ChannelsTable } from "../../db/tables/channels.ts";
import { conflict, invalid, type Problem, problem } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import { fieldChoices } from "../../platforms/field-choices.ts";
import { DEFAULT_EMULATES, getPlatform, isProvider } from "../../platforms/rules-registry.ts";
import type { Provider } from "../../platforms/types.ts";
import { type Actor, requireScope } from "../actor.ts";
import { audit } from "../audit/service.ts";
import { loadBrand } from "../brands/service.ts";
import { recordEvent, scopeOf } from "../events/record.ts";
import { assertWithinLimit } from "../orgs/limits.ts";
import { listParams, page } from "../pagination.ts";
import { lockPosts } from "../targets/lock-posts.ts";
import { refreshPosts } from "../targets/refresh-posts.ts";
import { inTx } from "../tx.ts";
import { parse } from "../validate.ts";
import { sealSecrets, splitFields } from "./fields.ts";
import { loadChannel } from "./load.ts";
import { presentChannel } from "./present.ts";
import { ChannelCreate, ChannelReconnect, ChannelUpdate } from "./schema.ts";
import { type Verified, verifyFields } from "./verify.ts";

// What the publishing engine uses, from one place.
export { openSecrets } from "./fields.ts";
export { channelsForPost, loadChannel, type PostChannel, type PostChannels } from "./load.ts";
export { type Channel, presentChannel } from "./present.ts";
export { adapterChannel, holdChannel, markNeedsReauth } from "./state.ts";

export interface ConnectInput {
  provider: string;
  emulates?: string | null | undefined;
  fields?: Record<string, string> | undefined;
}

export async function listChannels(app: App, actor: Actor, query: Record<string, unknown>) {
  requireScope(actor, "channels:read");
  const p = listParams(query, "chan");
  let q = app.db
    .selectFrom("channels")
    .selectAll()
    .where("org_id", "=", actor.orgId)
    .where("livemode", "=", actor.livemode ? 1 : 0);
  if (typeof query.brand === "string" && query.brand !== "")
    q = q.where("brand_id", "=", (await loadBrand(app.db, actor, query.brand)).id);
  if (actor.brandId) q = q.where("brand_id", "=", actor.brandId);
  return page(q, p, "/v1/channels", presentChannel);
}

export async function getChannel(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:read");
  return presentChannel(await loadChannel(app.db, actor, id));
}

export async function createChannel(app: App, actor: Actor, input: unknown) {
  requireScope(actor, "channels:write");
  const b = parse(ChannelCreate, input);
  // Everything that can be refused without the network is refused first; then the network is asked, outside the
  // transaction; then the channel is saved with what the network said.
  await loadBrand(app.db, actor, b.brand);
  const { rules, split } = checkedFields(actor, b);
  const verified = await verifyFields(app, rules, actor.livemode, split);
  return inTx(app, async (tx) => {
    const brand = await loadBrand(tx, actor, b.brand);
    return connectChannel(tx, app, actor, brand.id, b, verified);
  });
}

/** The provider's rules and the given fields split, or a 422 with every problem. */
function checkedFields(actor: Actor, c: ConnectInput) {
  const problems = providerProblems(actor, c);
  const rules = getPlatform(c.provider);
  const split = rules ? splitFields(rules, c.fields ?? {}) : null;
  if (split) problems.push(...split.problems);
  if (problems.length || !rules || !split) throw invalid(problems);
  return { rules, split };
}

/** What a provider and mode allow; the rules of reference §1 (test reaches only the sandbox). */
function providerProblems(actor: Actor, c: ConnectInput): Problem[] {
  const out: Problem[] = [];
  const rules = getPlatform(c.provider);
  if (!rules) {
    out.push(problem("provider_invalid", `There is no provider ${c.provider}.`, "provider"));
  } else if (rules.test_only && actor.livemode) {
    out.push(
      problem("provider_unavailable", `${rules.name} is for test mode only; use a test key.`, "provider"),
    );
  } else if (!rules.test_only && !actor.livemode) {
    out.push(
      problem(
        "provider_unavailable",
        `Test mode reaches only sandbox channels; connect ${rules.name} with a live key.`,
        "provider",
      ),
    );
  }
  if (c.emulates != null) {
    if (c.provider !== "sandbox")
      out.push(problem("provider_invalid", "Only a sandbox channel emulates another provider.", "emulates"));
    else if (!isProvider(c.emulates))
      out.push(problem("provider_unknown", `There is no provider ${c.emulates} to emulate.`, "emulates"));
  }
  return out;
}

/** The name and handle a channel shows. Real networks' adapters fill them from the account when they check it. */
function identity(
  provider: Provider,
  emulates: Provider | null,
  settings: Record<string, string>,
  id: string,
) {
  if (provider !== "sandbox") return { display_name: getPlatform(provider)!.name, handle: null };
  return {
    display_name: settings.display_name ?? `Sandbox ${getPlatform(emulates ?? DEFAULT_EMULATES)!.name}`,
    handle: settings.handle ?? `sandbox-${id.slice(-6)}`,
  };
}

/** The account the network reported, as the channel shows it (a name is always shown). */
const shownAccount = (v: Verified, networkName: string) => ({
  display_name: v.account.display_name ?? v.account.handle ?? networkName,
  handle: v.account.handle,
  profile_url: v.account.profile_url,
});

/**
 * Connects a channel to a brand the caller has already found, in the caller's transaction: the row, its sealed
 * secrets, the `channel.connected` event and the audit row. Bootstrap uses it for the first sandbox channel.
 */
export async function connectChannel(
  tx: Tx,
  app: App,
  actor: Actor,
  brandId: string,
  c: ConnectInput,
  /** What the network said when it checked the credentials (verifyFields), if it did. */
  verified: Verified | null = null,
) {
  const { rules, split: given } = checkedFields(actor, c);
  const split = verified ? { settings: verified.settings, secrets: verified.secrets } : given;
  if (actor.livemode)
    await assertWithinLimit(
      tx,
      actor.orgId,
      "channels",
      async () => 1 + (await countLiveChannels(tx, actor.orgId)),
    );
  const provider = rules.provider;
  const emulates = provider === "sandbox" ? ((c.emulates ?? DEFAULT_EMULATES) as Provider) : null;
  const now = app.clock.now();
  const id = newId("chan", now);
  const row: ChannelsTable = {
    id,
    org_id: actor.orgId,
    brand_id: brandId,
    livemode: actor.livemode ? 1 : 0,
    provider,
    emulates,
    ...identity(provider, emulates, split.settings, id),
    profile_url: null,
    ...(verified ? shownAccount(verified, rules.name) : {}),
    settings: JSON.stringify(split.settings),
    secrets: await sealSecrets(tx, app, actor.orgId, id, split.secrets),
    status: "active",
    status_note: null,
    // The sandbox has nothing to verify; a real network's credentials were just checked when it has an adapter.
    checked_at: provider === "sandbox" || verified ? now : null,
    check_error: null,
    rate_limited_until: null,
    created_at: now,
    updated_at: now,
  };
  await tx.insertInto("channels").values(row).execute();
  const channel = presentChannel(row);
  await recordEvent(tx, app, scopeOf(actor), "channel.connected", channel);
  await audit(tx, app, actor, {
    action: "channel.create",
    target: id,
    detail: { brand: brandId, provider, emulates, fields: Object.keys(c.fields ?? {}) },
  });
  return channel;
}

export async function updateChannel(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "channels:write");
  const b = parse(ChannelUpdate, input);
  return inTx(app, async (tx) => {
    const cur = await loadChannel(tx, actor, id);
    const changed = b.fields ? settingsChange(cur, b.fields) : null;
    const statusChanges = b.status !== undefined && b.status !== cur.status;
    if (!statusChanges && !changed) return presentChannel(cur);
    if (statusChanges && b.status === "active" && cur.status === "needs_reauth")
      throw conflict("needs_reauth", "This channel must be connected again before it is enabled.", {
        param: "status",
        detail: `Reconnect it with POST /v1/channels/${cur.id}/reconnect; that makes it active.`,
      });
    const now = app.clock.now();
    const status = statusChanges ? b.status! : cur.status;
    const next: ChannelsTable = {
      ...cur,
      status,
      status_note: statusChanges ? null : cur.status_note,
      settings: changed ? JSON.stringify(changed) : cur.settings,
      updated_at: now,
    };
    await tx
      .updateTable("channels")
      .set({ status: next.status, status_note: next.status_note, settings: next.settings, updated_at: now })
      .where("id", "=", cur.id)
      .where("org_id", "=", actor.orgId)
      .execute();
    await audit(tx, app, actor, {
      action: "channel.update",
      target: cur.id,
      detail: {
        ...(statusChanges ? { status: { from: cur.status, to: next.status } } : {}),
        ...(b.fields ? { fields: Object.keys(b.fields) } : {}),
      },
    });
    return presentChannel(next);
  });
}

/**
 * The channel's settings with the given options changed (a YouTube channel's privacy), or a 422 listing every
 * problem: a field that is not an option of the provider, or a value it does not take. Null when nothing changes.
 */
function settingsChange(cur: ChannelsTable, given: Record<string, string>): Record<string, unknown> | null {
  const rules = getPlatform(cur.provider);
  // Only options change in place (fields with a fixed set of values); credentials and the account change by
  // reconnecting, which asks the network again.
  const open = new Map(
    (rules?.connect_fields ?? [])
      .filter((f) => !f.secret && fieldChoices(cur.provider, f.name))
      .map((f) => [f.name, f]),
  );
  const problems: Problem[] = [];
  const settings = cur.settings ? (JSON.parse(cur.settings) as Record<string, unknown>) : {};
  let changes = false;
  for (const [name, raw] of Object.entries(given)) {
    const value = raw.trim();
    const choices = fieldChoices(cur.provider, name);
    if (!open.has(name))
      problems.push(
        problem(
          "field_unknown",
          `${rules?.name ?? cur.provider} has no field ${name} to change here${[...open.keys()].length ? `; it takes ${[...open.keys()].join(", ")}` : ""} (other fields change by reconnecting).`,
          `fields.${name}`,
        ),
      );
    else if (choices && !choices.includes(value))
      problems.push(
        problem("field_invalid", `${name} must be one of ${choices.join(", ")}.`, `fields.${name}`),
      );
    else if (settings[name] !== value) {
      settings[name] = value;
      changes = true;
    }
  }
  if (problems.length) throw invalid(problems);
  return changes ? settings : null;
}

export async function deleteChannel(app: App, actor: Actor, id: string) {
  requireScope(actor, "channels:write");
  return inTx(app, async (tx) => {
    const cur = await loadChannel(tx, actor, id);
    // Targets waiting on this channel can never be published now: cancel them (a target being published
    // finishes and records its outcome), and derive their posts' status again. The conditions are literal SQL
    // for the indexes that find them (db/sql/channel-waiting-targets.ts). Their posts first, before the targets
    // change (posts/lock.ts).
    const waiting = await tx
      .selectFrom("post_targets")
      .select("post_id")
      .where("channel_id", "=", cur.id)
      .where(where(app.dialect, targetWaiting, []))
      .execute();
    // And the posts of a target being published now: its worker records the outcome under the same locks, so it
    // either finishes first (and a retry it queued is canceled below) or sees the channel gone and cancels the
    // target itself (domain/targets/orphans.ts), never queueing it on a channel that no longer exists.
    const inFlight = await tx
      .selectFrom("post_targets")
      .select("post_id")
      .where("channel_id", "=", cur.id)
      .where(sql<boolean>`status = 'publishing'`)
      .execute();
    await lockPosts(
      tx,
      app.dialect,
      [...waiting, ...inFlight].map((t) => t.post_id),
    );
    const cancel = (statuses: RawBuilder<boolean>) =>
      tx
        .updateTable("post_targets")
        .set({ status: "canceled", next_attempt_at: null, updated_at: app.clock.now() })
        .where("channel_id", "=", cur.id)
        .where(statuses)
        .returning("post_id")
        .execute();
    const orphaned = [
      ...(await cancel(where(app.dialect, targetQueued, []))),
      ...(await cancel(where(app.dialect, targetHeldOrUncertain, []))),
    ];
    await refreshPosts(tx, app, [...new Set(orphaned.map((t) => t.post_id))], actor.requestId);
    await tx.deleteFrom("channels").where("id", "=", cur.id).where("org_id", "=", actor.orgId).execute();
    await audit(tx, app, actor, {
      action: "channel.delete",
      target: cur.id,
      detail: { brand: cur.brand_id, provider: cur.provider, targets_canceled: orphaned.length },
    });
    return { id: cur.id, object: "channel" as const, deleted: true as const };
  });
}

/** New connect fields for a channel; a channel that needed them again becomes active. */
export async function reconnectChannel(app: App, actor: Actor, id: string, input: unknown) {
  requireScope(actor, "channels:write");
  const b = parse(ChannelReconnect, input);
  const before = await loadChannel(app.db, actor, id);
  const rules = getPlatform(before.provider);
  if (!rules) throw new Error(`channel ${before.id} has an unknown provider ${before.provider}`);
  const given = splitFields(rules, b.fields ?? {});
  if (given.problems.length) throw invalid(given.problems);
  // The network is asked before the transaction, like connecting.
  const verified = await verifyFields(app, rules, before.livemode === 1, given);
  const split = verified ? { settings: verified.settings, secrets: verified.secrets } : given;
  return inTx(app, async (tx) => {
    const cur = await loadChannel(tx, actor, id);
    const now = app.clock.now();
    const shown = identity(rules.provider, cur.emulates as Provider | null, split.settings, cur.id);
    const reauthed = cur.status === "needs_reauth";
    const next: ChannelsTable = {
      ...cur,
      // Only what was given replaces the sandbox's made-up name and handle.
      display_name: split.settings.display_name !== undefined ? shown.display_name : cur.display_name,
      handle: split.settings.handle !== undefined ? shown.handle : cur.handle,
      ...(verified ? shownAccount(verified, rules.name) : {}),
      settings: JSON.stringify(split.settings),
      secrets: await sealSecrets(tx, app, cur.org_id, cur.id, split.secrets),
      // A disabled channel stays disabled: someone turned it off on purpose.
      status: reauthed ? "active" : cur.status,
      status_note: reauthed ? null : cur.status_note,
      checked_at: rules.provider === "sandbox" || verified ? now : null,
      check_error: null,
      updated_at: now,
    };
    await tx
      .updateTable("channels")
      .set({
        display_name: next.display_name,
        handle: next.handle,
        profile_url: next.profile_url,
        settings: next.settings,
        secrets: next.secrets,
        status: next.status,
        status_note: next.status_note,
        checked_at: next.checked_at,
        check_error: null,
        updated_at: now,
      })
      .where("id", "=", cur.id)
      .where("org_id", "=", actor.orgId)
      .execute();
    const channel = presentChannel(next);
    await recordEvent(tx, app, scopeOf(actor), "channel.connected", channel);
    await audit(tx, app, actor, {
      action: "channel.reconnect",
      target: cur.id,
      detail: { fields: Object.keys(b.fields ?? {}), status: { from: cur.status, to: next.status } },
    });
    return channel;
  });
}

async function countLiveChannels(tx: Tx, orgId: string): Promise<number> {
  const r = await tx
    .selectFrom("channels")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("org_id", "=", orgId)
    .where("livemode", "=", 1)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}
