// A small server-sent events client for tests: reads a real HTTP response as blocks separated by a blank line.
export interface SseBlock {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comments: string[];
}

export interface SseClient {
  response: Response;
  /** The next block, or throws after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseBlock>;
  /** The next block with an event, skipping comments. */
  nextEvent(timeoutMs?: number): Promise<SseBlock>;
  /** Resolves with a block if one arrives within `ms`, else null. */
  maybe(ms: number): Promise<SseBlock | null>;
  /** Reads on until the server ends the stream: true when it did within `ms`, false when it was still open. */
  ends(ms: number): Promise<boolean>;
  close(): void;
}

export function parseBlock(text: string): SseBlock {
  const b: SseBlock = { comments: [] };
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) b.comments.push(line.slice(1).trim());
    else {
      const i = line.indexOf(":");
      const k = line.slice(0, i);
      const v = line.slice(i + 1).replace(/^ /, "");
      if (k === "id" || k === "event" || k === "data" || k === "retry") b[k] = v;
    }
  }
  return b;
}

export async function sse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const ctrl = new AbortController();
  const response = await fetch(url, { headers, signal: ctrl.signal });
  const queue: SseBlock[] = [];
  const wake: { fn: (() => void) | null } = { fn: null };
  let buf = "";
  let ended = false;
  if (response.body && response.headers.get("content-type") === "text/event-stream") {
    (async () => {
      const dec = new TextDecoder();
      try {
        for await (const chunk of response.body!) {
          buf += dec.decode(chunk as Uint8Array, { stream: true });
          for (let i = buf.indexOf("\n\n"); i !== -1; i = buf.indexOf("\n\n")) {
            queue.push(parseBlock(buf.slice(0, i)));
            buf = buf.slice(i + 2);
          }
          wake.fn?.();
        }
      } catch {
        // Aborted by close().
      }
      ended = true;
      wake.fn?.();
    })();
  }
  const take = async (timeoutMs: number): Promise<SseBlock | null> => {
    const deadline = Date.now() + timeoutMs;
    while (queue.length === 0) {
      if (ended || Date.now() >= deadline) return null;
      await Promise.race([
        new Promise<void>((r) => {
          wake.fn = r;
        }),
        Bun.sleep(Math.max(1, deadline - Date.now())),
      ]);
      wake.fn = null;
    }
    return queue.shift()!;
  };
  const client: SseClient = {
    response,
    async next(timeoutMs = 5000) {
      const b = await take(timeoutMs);
      if (!b) throw new Error(`no SSE block within ${timeoutMs} ms`);
      return b;
    },
    async nextEvent(timeoutMs = 5000) {
      for (;;) {
        const b = await client.next(timeoutMs);
        if (b.id) return b;
      }
    },
    maybe: (ms) => take(ms),
    async ends(ms) {
      const deadline = Date.now() + ms;
      while (Date.now() < deadline) {
        if ((await take(Math.max(1, deadline - Date.now()))) === null && ended) return true;
      }
      return ended;
    },
    close: () => ctrl.abort(),
  };
  return client;
}
