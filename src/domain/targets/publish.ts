// Publishing one claimed target: its media (only when the post has any), the adapter call within its deadline,
// and the settling of an uncertain outcome where the adapter can look for the post. Ends in the decision the
// worker records with the rest of its step.
import type { App } from "../../app/context.ts";
import { once } from "../../lib/once.ts";
import type { Adapter, PublishedPart, PublishMedia, PublishOutcome } from "../../platforms/adapter.ts";
import { uploadQuota } from "../../platforms/quotas.ts";
import type { PreparedMedia } from "../media/publish.ts";
import type { Settlement } from "../posts/present.ts";
import { attempt, prepare, previousAttemptStart, remoteParts, savePart } from "./attempt.ts";
import type { Claimed, Finished } from "./claimed.ts";
import { decide } from "./decide.ts";
import { exhaustQuota, reserveUpload } from "./quota.ts";
import { settle } from "./settle.ts";

// Media handling loads with the first post that has media (a process that publishes text only never needs it).
const loadMedia = once(() => import("../media/publish.ts"));

/** Publishing waits up to 20 minutes for a network that processes video (reference §6), renewing its lease. */
export const VIDEO_TIMEOUT_MS = 20 * 60_000;

type Outcome = PublishOutcome | { kind: "error"; message: string };

/** What the worker lends each publish. */
export interface PublishRun {
  app: App;
  adapterFor: (provider: string) => Adapter | null;
  timeoutMs: number;
  /** The deadline of a publish that carries a video (the network processes it). */
  videoTimeoutMs: number;
  /** Waits `ms`, or less when the worker is stopping (then false). */
  pause(ms: number): Promise<boolean>;
  /** True once the worker is stopping: an uncertain outcome is then left to the reclaimer, not settled now. */
  stopping(): boolean;
  /** A video publish started (true) or ended (false): it mostly waits on the network, so it holds no slot. */
  video(started: boolean, orgId: string): void;
  /** How uncertain attempts were settled, by attempt ID: written with their outcomes, in the step recording them. */
  settlements: Map<string, Settlement>;
}

/** The decision for a target whose publish never reached the network (nothing was sent). */
export function unsent(run: PublishRun, c: Claimed, outcome: Outcome): Finished {
  return { claimed: c, decision: decide(outcome, c.target, false, run.app.clock.now()) };
}

export async function publishClaimed(run: PublishRun, c: Claimed): Promise<Finished> {
  const { app } = run;
  const adapter = run.adapterFor(c.channel.provider);
  if (!adapter)
    return unsent(run, c, {
      kind: "rejected",
      code: "provider_unsupported",
      message: `No adapter publishes to ${c.channel.provider}.`,
    });
  // A post without media (the claim says so) costs no media query.
  const media: PreparedMedia = !c.hasMedia
    ? { ok: true, media: [], video: false }
    : await (await loadMedia())
        .mediaForTarget(app, c.target.post_id, c.channel)
        .catch((e): PreparedMedia => ({ ok: false, code: "media_unreadable", message: String(e) }));
  let outcome: Outcome;
  if (!media.ok) outcome = { kind: "rejected", code: media.code, message: media.message };
  else if (media.video) {
    run.video(true, c.target.org_id);
    try {
      outcome = await publishOrSettle(run, c, adapter, run.videoTimeoutMs, media.media);
    } finally {
      run.video(false, c.target.org_id);
    }
  } else outcome = await publishOrSettle(run, c, adapter, run.timeoutMs, media.media);
  return { claimed: c, decision: decide(outcome, c.target, adapter.idempotent ?? false, app.clock.now()) };
}

/** The adapter call, and the settling of an uncertain outcome where the adapter can look for the post. */
async function publishOrSettle(
  run: PublishRun,
  c: Claimed,
  adapter: Adapter,
  deadlineMs: number,
  media: PublishMedia[],
): Promise<Outcome> {
  const { app, settlements } = run;
  const prepared = await prepare(app, c, media);
  if ("outcome" in prepared) return prepared.outcome;
  const input = prepared.input;
  const common = {
    app,
    adapter,
    publish: input,
    done: () => remoteParts(app, c.target.id),
    save: (part: PublishedPart) => savePart(app, c.target.id, part),
    wait: (ms: number) => run.pause(ms),
  };
  // A worker died publishing this target to a network that does not dedupe: look for the post before sending
  // it again (its window has long passed: the reclaimer waited for the lease to expire).
  if (c.target.error_code === "worker_lost" && adapter.find && !adapter.idempotent) {
    const settled = await settle({
      ...common,
      startedAt: await previousAttemptStart(app, c),
      uncertain: "The worker publishing it stopped mid-publish (worker_lost).",
    });
    if (settled.settlement.decision !== "not_found") {
      settlements.set(c.attemptId, settled.settlement);
      return settled.outcome;
    }
    settlements.set(c.attemptId, {
      ...settled.settlement,
      detail: "Not on the network after the lost attempt: sent again.",
    });
  }
  // An upload that spends the app's daily quota takes its units first; a video already up (a part saved by an
  // earlier attempt, now waited for) costs nothing more.
  const uploads =
    media.some((m) => m.kind === "video") && (JSON.parse(c.target.remote_parts) as unknown[]).length === 0;
  if (uploads && uploadQuota(c.channel.provider)) {
    const held = await reserveUpload(app, c.channel.provider, c.target.channel_id);
    if (held) return held;
  }
  const startedAt = app.clock.now();
  const outcome = await attempt(app, c, adapter, deadlineMs, input);
  if (outcome.kind === "rate_limited" && outcome.quotaExhausted)
    await exhaustQuota(app, c.channel.provider, c.target.channel_id);
  if (outcome.kind !== "uncertain" || !adapter.find || run.stopping()) return outcome;
  const settled = await settle({ ...common, startedAt, uncertain: outcome.message });
  settlements.set(c.attemptId, settled.settlement);
  return settled.outcome;
}
