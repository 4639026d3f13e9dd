// The sandbox network: test mode's only destination. It "posts" into the database and behaves like a real
// network that makes no idempotency promise, and metadata.svc_simulate makes it fail the way networks do
// (reference §3), so a product can test its handling of every outcome without a real account.
import type { App } from "../../app/context.ts";
import type {
  Adapter,
  DeleteOutcome,
  EngagementOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
  RemoteInput,
} from "../adapter.ts";
import { sandboxPermalink, storeSandboxPart } from "./posts.ts";

/** The values of metadata.svc_simulate; anything else is refused by the post (`simulation_invalid`). */
export const SIMULATIONS = [
  "rate_limited",
  "auth_revoked",
  "rejected",
  "timeout_after_send",
  "slow",
] as const;
export type Simulation = (typeof SIMULATIONS)[number];
export const isSimulation = (s: unknown): s is Simulation =>
  typeof s === "string" && (SIMULATIONS as readonly string[]).includes(s);

export const SIMULATED_RETRY_AFTER_MS = 5000;
export const SLOW_MS = 3000;
/**
 * How long the sandbox "processes" a video before the post is up, as video networks do after an upload (the worker
 * waits up to 20 minutes for it). Settable for tests and benchmarks.
 */
export const sandboxVideo = { processingMs: 2000 };

/** Resolves true after `ms`, or false as soon as the signal aborts. */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * metadata.svc_simulate_channels (comma-separated channel IDs or emulated networks) limits the simulation to those
 * channels, so a post to several sandbox channels can fail on some and publish on the rest (partly published).
 */
function simulatedOn(input: PublishInput): boolean {
  const only = input.metadata.svc_simulate_channels;
  if (only === undefined) return true;
  const names = only.split(",").map((s) => s.trim());
  return (
    names.includes(input.channel.id) ||
    (input.channel.emulates !== null && names.includes(input.channel.emulates))
  );
}

async function publish(app: App, input: PublishInput): Promise<PublishOutcome> {
  if (input.livemode)
    return {
      kind: "rejected",
      code: "provider_unsupported",
      message: "The sandbox is test mode only; a live post never reaches it.",
    };
  const simulate = simulatedOn(input) ? input.metadata.svc_simulate : undefined;
  switch (simulate) {
    case "rate_limited":
      if (input.attempt === 1)
        return {
          kind: "rate_limited",
          retryAfterMs: SIMULATED_RETRY_AFTER_MS,
          message: "The sandbox asks to slow down (svc_simulate=rate_limited); a later attempt succeeds.",
        };
      break;
    case "auth_revoked":
      return {
        kind: "auth_revoked",
        message: "The sandbox revoked this channel's access (svc_simulate=auth_revoked).",
      };
    case "rejected":
      return {
        kind: "rejected",
        code: "rejected",
        message: "The sandbox refused the post (svc_simulate=rejected).",
      };
    case "slow":
      if (!(await wait(SLOW_MS, input.signal)))
        return { kind: "transient", message: "Stopped while the sandbox was slow; nothing was posted." };
      break;
  }

  // The sandbox_posts rows belong to the channel's org, so deleting the org removes them.
  const channel = await app.db
    .selectFrom("channels")
    .select("org_id")
    .where("id", "=", input.channel.id)
    .executeTakeFirst();
  if (!channel)
    return { kind: "rejected", code: "unauthorized", message: "The sandbox channel no longer exists." };

  if (input.parts.some((p) => p.media.some((m) => m.kind === "video"))) {
    if (!(await wait(sandboxVideo.processingMs, input.signal)))
      return {
        kind: "transient",
        message: "Stopped while the sandbox processed the video; nothing was posted.",
      };
  }

  const done = new Set(input.done.map((p) => p.index));
  const todo = input.parts.filter((p) => !done.has(p.index)).sort((a, b) => a.index - b.index);
  const at = {
    orgId: channel.org_id,
    channelId: input.channel.id,
    targetId: input.targetId,
    attempt: input.attempt,
  };
  for (const [i, part] of todo.entries()) {
    if (input.signal.aborted)
      return {
        kind: "transient",
        message: `Stopped before part ${part.index + 1} was sent; the parts before it are saved.`,
      };
    const published = await storeSandboxPart(app, at, part);
    // The network took the last part, but its answer is lost: the service cannot know it was posted.
    if (simulate === "timeout_after_send" && input.attempt === 1 && i === todo.length - 1)
      return {
        kind: "uncertain",
        message:
          "The sandbox stored the post but its answer never arrived (svc_simulate=timeout_after_send).",
      };
    await input.onPartPublished(published);
  }
  return { kind: "published", permalink: sandboxPermalink(app, input.targetId) };
}

/**
 * Simulated engagement, so test mode shows the whole feature: counts grow with the post's age, the same for the
 * same target and time (likes = floor(2 * sqrt(hours since the first part was stored)) + the target's own 0-2;
 * reposts likes/4, replies likes/6, quotes likes/10, views likes * 20, rounded down). A target whose stored
 * copies are gone reads as deleted.
 */
async function engagement(
  app: App,
  input: RemoteInput & { parts: PublishedPart[] },
): Promise<EngagementOutcome> {
  const first = await app.db
    .selectFrom("sandbox_posts")
    .select("created_at")
    .where("target_id", "=", input.targetId)
    .orderBy("created_at")
    .limit(1)
    .executeTakeFirst();
  if (!first) return { kind: "deleted" };
  const hours = Math.max(0, (app.clock.now() - Number(first.created_at)) / 3600_000);
  const own = [...input.targetId].reduce((n, c) => n + c.charCodeAt(0), 0) % 3;
  const likes = Math.floor(2 * Math.sqrt(hours)) + own;
  return {
    kind: "counts",
    counts: {
      likes,
      reposts: Math.floor(likes / 4),
      replies: Math.floor(likes / 6),
      quotes: Math.floor(likes / 10),
      views: likes * 20,
    },
  };
}

/** The sandbox deletes what it stored for the target: its permalink page shows nothing any more. */
async function deletePublished(app: App, input: RemoteInput): Promise<DeleteOutcome> {
  await app.db.deleteFrom("sandbox_media").where("target_id", "=", input.targetId).execute();
  await app.db.deleteFrom("sandbox_posts").where("target_id", "=", input.targetId).execute();
  return { kind: "deleted" };
}

export const sandboxAdapter: Adapter = {
  provider: "sandbox",
  idempotent: false,
  publish,
  engagement,
  deletePublished,
};
