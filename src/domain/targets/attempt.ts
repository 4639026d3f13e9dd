// One publish attempt's pieces, used by the worker: what the adapter is called with, the call under its deadline,
// the remote parts saved on the target row as they happen, and settlements written with the step's outcomes.
import type { App } from "../../app/context.ts";
import type { Dialect, Tx } from "../../db/index.ts";
import { updateMany } from "../../db/update-many.ts";
import { once } from "../../lib/once.ts";
import type {
  Adapter,
  PublishedPart,
  PublishInput,
  PublishMedia,
  PublishOutcome,
} from "../../platforms/adapter.ts";
import { signInSpec } from "../../platforms/signin/specs.ts";
import { withFirstComment } from "../posts/first-comment.ts";
import type { Settlement } from "../posts/present.ts";
import type { Claimed } from "./claimed.ts";

const loadRenew = once(() => import("../connect/renew.ts"));

export type PreparedInput = Omit<PublishInput, "signal" | "onPartPublished" | "done">;

/** What the adapter is called with (the channel's secrets opened), or why it cannot be called. */
export async function prepare(
  app: App,
  c: Claimed,
  media: PublishMedia[],
): Promise<{ input: PreparedInput } | { outcome: PublishOutcome }> {
  // A sign-in channel whose token expires within 5 minutes is renewed first; a refusal has marked it needs_reauth.
  // Channels of other networks keep no expiring token: renewal (and the OAuth client behind it) loads only for
  // the first sign-in channel.
  const renewal = signInSpec(c.channel.provider)
    ? await (await loadRenew()).renewBeforePublish(app, c.target.channel_id, c.channel.provider)
    : ({ kind: "fresh", secrets: null } as const);
  if (renewal.kind === "refused") return { outcome: { kind: "auth_revoked", message: renewal.message } };
  // What a renewal (ours or another worker's) stored, else the secrets read with the claim.
  const sealed =
    renewal.kind === "renewed"
      ? renewal.secrets
      : renewal.kind === "fresh" && renewal.secrets
        ? renewal.secrets
        : c.channel.secrets;
  let secrets: Record<string, string> = {};
  try {
    if (sealed) {
      secrets = JSON.parse(
        await app.keys.open(
          app.db,
          c.target.org_id,
          { table: "channels", row: c.target.channel_id, column: "secrets" },
          sealed,
        ),
      );
    }
  } catch (e) {
    return { outcome: { kind: "transient", message: `credentials_unreadable: ${(e as Error).message}` } };
  }
  return {
    input: {
      targetId: c.target.id,
      postId: c.target.post_id,
      livemode: c.target.livemode === 1,
      attempt: c.target.attempts,
      channel: {
        id: c.target.channel_id,
        provider: c.channel.provider,
        emulates: c.channel.emulates,
        settings: c.channel.settings ? (JSON.parse(c.channel.settings) as Record<string, unknown>) : {},
        secrets,
      },
      // Media attach to the first part; a first comment is the part after the last, so it is posted as the
      // account's reply right after the post, and resumed, never repeated, as any part is.
      parts: withFirstComment(JSON.parse(c.target.parts) as string[], c.target.first_comment ?? null).map(
        (text, index) => ({ index, text, media: index === 0 ? media : [] }),
      ),
      metadata: c.metadata,
    },
  };
}

/** One adapter call with a deadline (uncertain when it passes); the worker renews its lease meanwhile. */
export async function attempt(
  app: App,
  c: Claimed,
  adapter: Adapter,
  timeoutMs: number,
  input: PreparedInput,
): Promise<PublishOutcome | { kind: "error"; message: string }> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<PublishOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ kind: "uncertain", message: `no answer within ${Math.round(timeoutMs / 1000)} s` });
    }, timeoutMs);
  });
  try {
    const done = JSON.parse(c.target.remote_parts) as PublishedPart[];
    return await Promise.race([
      adapter.publish(app, {
        ...input,
        done,
        signal: controller.signal,
        onPartPublished: (part) => savePart(app, c.target.id, part),
      }),
      deadline,
    ]);
  } catch (e) {
    return { kind: "error", message: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** When the attempt before this one started (the lost one, for a reclaimed target). */
export async function previousAttemptStart(app: App, c: Claimed): Promise<number> {
  const row = await app.db
    .selectFrom("post_attempts")
    .select("started_at")
    .where("target_id", "=", c.target.id)
    .where("attempt", "=", c.target.attempts - 1)
    .executeTakeFirst();
  return row ? Number(row.started_at) : 0;
}

/** The parts saved as posted so far. */
export async function remoteParts(app: App, targetId: string): Promise<PublishedPart[]> {
  const row = await app.db
    .selectFrom("post_targets")
    .select("remote_parts")
    .where("id", "=", targetId)
    .executeTakeFirstOrThrow();
  return JSON.parse(row.remote_parts) as PublishedPart[];
}

/**
 * How the step's uncertain attempts were settled (`settlements`, by attempt ID), on their rows: one statement in
 * the transaction that records their outcomes, and none in a step without any.
 */
export async function recordSettlements(
  tx: Tx,
  dialect: Dialect,
  finished: readonly { claimed: Claimed }[],
  settlements: ReadonlyMap<string, Settlement>,
): Promise<void> {
  if (settlements.size === 0) return;
  const settled = finished.filter((f) => settlements.has(f.claimed.attemptId));
  await updateMany(tx, dialect, {
    table: "post_attempts",
    key: "id",
    columns: { settlement: "text" },
    rows: settled,
    keyOf: (f) => f.claimed.attemptId,
    valueOf: (f) => JSON.stringify(settlements.get(f.claimed.attemptId)),
  });
}

/** Each part's remote reference is saved as it succeeds, so a retry resumes at the first part not yet posted. */
export async function savePart(app: App, targetId: string, part: PublishedPart): Promise<void> {
  await app.db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom("post_targets")
      .select("remote_parts")
      .where("id", "=", targetId)
      .executeTakeFirstOrThrow();
    const parts = (JSON.parse(row.remote_parts) as PublishedPart[]).filter((p) => p.index !== part.index);
    parts.push(part);
    await tx
      .updateTable("post_targets")
      .set({ remote_parts: JSON.stringify(parts) })
      .where("id", "=", targetId)
      .execute();
  });
}
