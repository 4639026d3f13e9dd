// GET /v1/events/stream (reference §7): server-sent events of the org's events in the caller's mode.
// Everything that can be refused is checked before the stream opens, so errors are problem details. The
// stream then writes `retry: 3000` and `: connected`, one frame per event, and `: ping` after 15 s idle; it
// resumes after Last-Event-ID (or starting_after) in feed order, so a reconnect sees no gap and no duplicate.
import type { App } from "../../app/context.ts";
import { badRequest, notFound, ServiceError } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { type Actor, credentialOf } from "../actor.ts";
import { CREDENTIALS_SIGNAL, credentialStillValid } from "../identity/auth/still-valid.ts";
import { type Cursor, cursorOf, type FeedRow, headCursor, readAfter } from "./feed.ts";
import type { EventHook } from "./hooks.ts";
import { nudge } from "./nudge.ts";
import { presentEvent } from "./present.ts";
import { isEventType, requireEventsRead } from "./service.ts";

export const PING_AFTER_MS = 15_000;
export const POLL_MS = 500;
/** How often an open stream asks whether its credential still holds (and at once when this process ends one). */
export const CREDENTIAL_CHECK_MS = 2_000;
const BATCH = 100;
/** Open streams at once, per credential (a key's roll chain, a user token) and per org, in each server process. */
export const STREAMS_PER_CREDENTIAL = 5;
export const STREAMS_PER_ORG = 25;

/** The streams each App (each process) has open, by credential and by org. */
const openStreams = new WeakMap<App, Map<string, number>>();

/**
 * Takes a place for one more stream, or refuses (429) when the credential or its org holds all of theirs: every
 * open stream holds a connection and a polling loop, so one key must not open hundreds. Returns its release.
 */
function takeStreamPlace(app: App, actor: Actor): () => void {
  let open = openStreams.get(app);
  if (!open) {
    open = new Map();
    openStreams.set(app, open);
  }
  const keys = [
    [
      `cred:${credentialOf(actor) ?? actor.userTokenId ?? actor.userId ?? actor.orgId}`,
      STREAMS_PER_CREDENTIAL,
    ],
    [`org:${actor.orgId}`, STREAMS_PER_ORG],
  ] as const;
  for (const [key, max] of keys)
    if ((open.get(key) ?? 0) >= max)
      throw new ServiceError(
        429,
        "rate_limited",
        key.startsWith("org:")
          ? `This org has ${max} event streams open already; close one first.`
          : `This credential has ${max} event streams open already; close one first.`,
        { headers: { "Retry-After": "5" } },
      );
  for (const [key] of keys) open.set(key, (open.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const [key] of keys) {
      const n = (open.get(key) ?? 1) - 1;
      if (n > 0) open.set(key, n);
      else open.delete(key);
    }
  };
}

/** An event hook: every event written in this process wakes the streams it serves. */
export const wakeStreams: EventHook = async (_tx, app) => nudge(app, "events");

export interface StreamInput {
  types?: string | undefined;
  starting_after?: string | undefined;
  lastEventId?: string | null | undefined;
}

export interface StreamTiming {
  pingAfterMs?: number;
  pollMs?: number;
  credentialCheckMs?: number;
}

function parseTypes(raw: string | undefined): Set<string> | null {
  if (raw === undefined || raw.trim() === "") return null;
  const types = raw.split(",").map((s) => s.trim());
  const bad = types.find((t) => !isEventType(t));
  if (bad !== undefined) throw badRequest("parameter_invalid", `Unknown event type ${bad}.`, "types");
  return new Set(types);
}

async function startCursor(
  app: App,
  actor: Actor,
  input: StreamInput,
): Promise<{ cursor: Cursor; skip: Set<string> }> {
  // EventSource sends Last-Event-ID on its own reconnects, so it is the more recent of the two.
  const [param, id] =
    input.lastEventId != null && input.lastEventId !== ""
      ? ["Last-Event-ID", input.lastEventId]
      : ["starting_after", input.starting_after];
  if (id === undefined || id === "") return headCursor(app, actor.orgId, actor.livemode);
  if (!isId("evt", id)) throw badRequest("parameter_invalid", `${param} must be an evt_ ID.`, param);
  const c = await cursorOf(app, actor.orgId, actor.livemode, id);
  if (!c) throw notFound(`No event ${id} in this org and mode (events are kept 30 days).`, param);
  return { cursor: c, skip: new Set() };
}

const frame = (r: FeedRow) => `id: ${r.id}\nevent: ${r.type}\ndata: ${JSON.stringify(presentEvent(r))}\n\n`;

/** Checks the request and returns the stream's body; throws a ServiceError before anything is streamed. */
export async function openEventStream(
  app: App,
  actor: Actor,
  input: StreamInput,
  timing: StreamTiming = {},
): Promise<ReadableStream<Uint8Array>> {
  requireEventsRead(actor);
  const types = parseTypes(input.types);
  let { cursor, skip } = await startCursor(app, actor, input);
  const release = takeStreamPlace(app, actor);
  const pingAfterMs = timing.pingAfterMs ?? PING_AFTER_MS;
  const pollMs = timing.pollMs ?? POLL_MS;
  const checkMs = timing.credentialCheckMs ?? CREDENTIAL_CHECK_MS;
  const enc = new TextEncoder();

  let closed = false;
  let wake: (() => void) | null = null;
  // A revoked, expired or signed-out credential ends its streams: checked every few seconds (a change made by
  // another process) and at once when this process changes a credential.
  let recheck = false;
  const stopEvents = app.signals.on("events", () => wake?.());
  const stopCredentials = app.signals.on(CREDENTIALS_SIGNAL, () => {
    recheck = true;
    wake?.();
  });
  const stopListening = () => {
    stopEvents();
    stopCredentials();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = null;
        resolve();
      }
      wake = done;
    });
  const close = () => {
    closed = true;
    stopListening();
    release();
    wake?.();
  };

  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(enc.encode("retry: 3000\n\n: connected\n\n"));
        let lastWrite = Date.now();
        const write = (s: string) => {
          controller.enqueue(enc.encode(s));
          lastWrite = Date.now();
        };
        let checkedAt = Date.now();
        const credentialEnded = async (): Promise<boolean> => {
          if (!recheck && Date.now() - checkedAt < checkMs) return false;
          recheck = false;
          checkedAt = Date.now();
          try {
            return !(await credentialStillValid(app, actor));
          } catch (e) {
            // The database is away for a moment: the next check decides.
            app.log.warn("event stream credential check failed", { error: String(e) });
            return false;
          }
        };
        (async () => {
          while (!closed) {
            if (await credentialEnded()) {
              write(": credential no longer valid\n\n");
              close();
              break;
            }
            let rows: FeedRow[] = [];
            try {
              rows = await readAfter(app, actor.orgId, actor.livemode, cursor, BATCH);
            } catch (e) {
              // The database is away for a moment: keep the connection, ping, and read again.
              app.log.warn("event stream read failed", { error: String(e) });
            }
            if (closed) break;
            for (const r of rows) {
              cursor = { tx: r.tx, seq: r.seq };
              if (skip.size > 0 && skip.delete(r.id)) continue;
              if (!types || types.has(r.type)) write(frame(r));
            }
            // A slow reader: wait for it to take what is queued instead of buffering without bound.
            while (!closed && (controller.desiredSize ?? 1) <= 0) await sleep(50);
            if (rows.length === BATCH) continue;
            const idle = Date.now() - lastWrite;
            if (idle >= pingAfterMs) write(": ping\n\n");
            else
              await sleep(
                Math.max(0, Math.min(pollMs, pingAfterMs - idle, checkMs - (Date.now() - checkedAt))),
              );
          }
          try {
            controller.close();
          } catch {
            // Already closed by the reader.
          }
        })().catch((e) => {
          app.log.error("event stream failed", { error: String(e) });
          close();
          try {
            controller.error(e);
          } catch {}
        });
      },
      cancel: close,
    },
    { highWaterMark: 256 * 1024, size: (chunk) => chunk?.byteLength ?? 0 },
  );
}
