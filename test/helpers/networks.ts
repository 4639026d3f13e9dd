// Helpers for the real networks' tests: an App whose adapters reach local stand-ins (SVC_PROVIDER_ORIGINS, private
// addresses allowed), a PublishInput for calling an adapter directly, and the real publish worker run until the
// queue has nothing due.
import { expect } from "bun:test";
import type { Dialect } from "../../src/db/migration.ts";
import type { PublishedPart, PublishInput, PublishOutcome } from "../../src/platforms/adapter.ts";
import { adapterFor } from "../../src/platforms/adapter-registry.ts";
import { startPublishWorker } from "../../src/queue/publish/worker.ts";
import { type TestApp, testApp } from "./app.ts";
import type { Tenant } from "./factories.ts";
import { upload } from "./media.ts";
import { makeVideo } from "./video.ts";

/**
 * A test App reaching the stand-ins: `origins` is what SVC_PROVIDER_ORIGINS would say; `env` adds settings (a
 * bucket's SVC_S3_* for video).
 */
export function networkApp(
  dialect: Dialect,
  origins: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<TestApp> {
  return testApp(dialect, {
    env: {
      ...env,
      SVC_ALLOW_PRIVATE_NETWORKS: "true",
      SVC_PROVIDER_ORIGINS: Object.entries(origins)
        .map(([k, v]) => `${k}=${v}`)
        .join(","),
    },
  });
}

/** Calls a provider's adapter directly, as the worker would, collecting the parts it reports. */
export async function publishDirect(
  t: TestApp,
  provider: string,
  opts: {
    settings?: Record<string, unknown>;
    secrets: Record<string, string>;
    parts: string[];
    done?: PublishedPart[];
    targetId?: string;
    attempt?: number;
    /** Media on the first part. */
    media?: PublishInput["parts"][number]["media"];
  },
): Promise<{ outcome: PublishOutcome; parts: PublishedPart[] }> {
  const adapter = adapterFor(provider);
  if (!adapter) throw new Error(`no adapter for ${provider}`);
  const parts: PublishedPart[] = [];
  const input: PublishInput = {
    targetId: opts.targetId ?? `ptgt_${crypto.randomUUID().replaceAll("-", "")}`,
    postId: "post_test",
    livemode: true,
    attempt: opts.attempt ?? 1,
    channel: {
      id: "chan_test",
      provider,
      emulates: null,
      settings: opts.settings ?? {},
      secrets: opts.secrets,
    },
    parts: opts.parts.map((text, index) => ({ index, text, media: index === 0 ? (opts.media ?? []) : [] })),
    done: opts.done ?? [],
    metadata: {},
    signal: new AbortController().signal,
    onPartPublished: async (p) => {
      parts.push(p);
    },
  };
  return { outcome: await adapter.publish(t.app, input), parts };
}

/** Connects a live channel through the API and returns it. */
export async function connectLive(
  t: TestApp,
  a: Tenant,
  provider: string,
  fields: Record<string, string>,
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON
): Promise<any> {
  const r = await t.request("POST", "/v1/channels", {
    key: a.liveKey,
    body: { brand: a.brandId, provider, fields },
  });
  expect(r.status).toBe(201);
  return r.body;
}

/** Creates a live post for one channel and runs the real publish worker until nothing is due; returns the post. */
export async function publishLive(
  t: TestApp,
  a: Tenant,
  channel: string,
  content: { body?: string; parts?: string[] },
  media?: string[],
  // biome-ignore lint/suspicious/noExplicitAny: the API's JSON
): Promise<any> {
  const r = await t.request("POST", "/v1/posts", {
    key: a.liveKey,
    body: { brand: a.brandId, content, channels: [channel], ...(media ? { media } : {}) },
  });
  expect(r.status).toBe(201);
  await drain(t);
  return (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.liveKey })).body;
}

/** A real 2-second MP4 (320x240, made by ffmpeg) uploaded in live mode with its alt text: its ID and bytes. */
export async function liveVideo(t: TestApp, a: Tenant, alt: string): Promise<{ id: string; bytes: Buffer }> {
  const bytes = makeVideo({ seconds: 2, width: 320, height: 240 });
  const r = await upload(t, a.liveKey, {
    brand: a.brandId,
    alt,
    file: { bytes, name: "launch.mp4", type: "video/mp4" },
  });
  expect(r.status).toBe(201);
  return { id: r.body.id, bytes };
}

/** Runs one publish worker with the real adapters until nothing is due now. */
export async function drain(t: TestApp): Promise<void> {
  const w = startPublishWorker(t.app, { adapterFor, pollMs: 20 });
  for (let i = 0; i < 100; i++) {
    await Bun.sleep(20);
    await w.idle();
    const due = await t.app.db
      .selectFrom("post_targets")
      .select("id")
      .where("status", "in", ["queued", "publishing"])
      .where("next_attempt_at", "<=", t.app.clock.now())
      .execute();
    if (due.length === 0) break;
  }
  await w.stop();
}
