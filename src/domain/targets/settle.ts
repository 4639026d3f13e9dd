// Settling an uncertain attempt before anyone is asked: where the adapter can look for the post among the
// account's own posts (`find`), the worker looks at once and, if it is not there yet, once more when the
// network's consistency window has passed. Found → the target is published with what was found; not found after
// the window → nothing was posted, so it is queued again (safe: the network's own view says so); the network
// could not be asked → the usual rule (queued again if idempotent, else needs_attention). The decision is
// recorded on the attempt (post_attempts.settlement).
import type { App } from "../../app/context.ts";
import { iso } from "../../lib/clock.ts";
import type {
  Adapter,
  FindOutcome,
  PublishedPart,
  PublishInput,
  PublishOutcome,
} from "../../platforms/adapter.ts";
import type { Settlement } from "../posts/present.ts";

const FIND_TIMEOUT_MS = 20_000;
const DEFAULT_WINDOW_MS = 10_000;

export interface SettleInput {
  app: App;
  adapter: Adapter;
  /** What the publish call was given (channel with opened secrets, parts). */
  publish: Omit<PublishInput, "signal" | "onPartPublished" | "done">;
  /** Parts saved as posted, read again now. */
  done: () => Promise<PublishedPart[]>;
  /** When the attempt started (the network cannot have the post from before). */
  startedAt: number;
  uncertain: string;
  save: (part: PublishedPart) => Promise<void>;
  /** Waits (interruptible by the worker stopping); false when interrupted. */
  wait: (ms: number) => Promise<boolean>;
}

async function look(s: SettleInput): Promise<FindOutcome> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      s.adapter.find!(s.app, {
        targetId: s.publish.targetId,
        livemode: s.publish.livemode,
        channel: s.publish.channel,
        signal: controller.signal,
        parts: s.publish.parts,
        done: await s.done(),
        since: s.startedAt,
      }),
      new Promise<FindOutcome>((resolve) => {
        timer = setTimeout(() => {
          controller.abort();
          resolve({ kind: "unknown", message: `no answer within ${FIND_TIMEOUT_MS / 1000} s` });
        }, FIND_TIMEOUT_MS);
      }),
    ]);
  } catch (e) {
    return { kind: "unknown", message: e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/** The outcome to decide on instead of `uncertain`, and the settlement to record. */
export async function settle(s: SettleInput): Promise<{ outcome: PublishOutcome; settlement: Settlement }> {
  const windowMs = s.adapter.consistencyWindowMs ?? DEFAULT_WINDOW_MS;
  let found = await look(s);
  const left = s.startedAt + windowMs - s.app.clock.now();
  if (found.kind === "not_found" && left > 0) {
    // Not seen yet, but the network may not show it yet: look again when the window has passed.
    if (await s.wait(left)) found = await look(s);
    else found = { kind: "unknown", message: "the worker stopped before the consistency window passed" };
  }
  const at = iso(s.app.clock.now());
  if (found.kind === "found") {
    for (const p of found.parts) await s.save(p);
    return {
      outcome: { kind: "published", permalink: found.permalink },
      settlement: {
        decision: "found",
        uncertain: s.uncertain,
        detail: "The network's answer was lost, but the post was found among the account's posts.",
        looked_at: at,
      },
    };
  }
  if (found.kind === "not_found")
    return {
      outcome: {
        kind: "transient",
        message: `The network's answer was lost and the post is not on the account after the ${Math.round(windowMs / 1000)} s consistency window: nothing was posted.`,
      },
      settlement: {
        decision: "not_found",
        uncertain: s.uncertain,
        detail: "Not found after the consistency window; queued again.",
        looked_at: at,
      },
    };
  return {
    outcome: { kind: "uncertain", message: s.uncertain },
    settlement: {
      decision: "unknown",
      uncertain: s.uncertain,
      detail: `Could not look for the post: ${found.message}`,
      looked_at: at,
    },
  };
}
