// A hostile Mastodon server, as the probe ran them: it answers the account check as Mastodon does
// (GET /api/v1/accounts/verify_credentials, so a channel connects), lists no statuses, and answers a new status
// (POST /api/v1/statuses) with 200 and then a byte of whitespace every 50 ms, never finishing the body. It counts
// the answers still open, so a test sees when svc hangs up.
export interface Trickler {
  url: string;
  token: string;
  /** Trickling answers whose connection is still open. */
  open(): number;
  /** Bytes trickled so far, over every answer. */
  bytesSent(): number;
  stop(): void;
}

export function trickler(username: string): Trickler {
  const token = `token-${username}`;
  let open = 0;
  let sent = 0;
  const server: Bun.Server<undefined> = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch(req): Response {
      const path = new URL(req.url).pathname;
      if (req.headers.get("authorization") !== `Bearer ${token}`)
        return Response.json({ error: "The access token is invalid" }, { status: 401 });
      if (path === "/api/v1/accounts/verify_credentials")
        return Response.json({
          id: "1",
          username,
          acct: username,
          display_name: username,
          url: `${server.url.origin}/@${username}`,
        });
      if (path === "/api/v1/accounts/1/statuses") return Response.json([]);
      if (path === "/api/v1/statuses" && req.method === "POST") {
        let timer: ReturnType<typeof setInterval> | undefined;
        let closed = false;
        const close = () => {
          if (closed) return;
          closed = true;
          open--;
          clearInterval(timer);
        };
        open++;
        req.signal.addEventListener("abort", close);
        const body = new ReadableStream<Uint8Array>({
          start(c) {
            timer = setInterval(() => {
              try {
                c.enqueue(new Uint8Array([32]));
                sent++;
              } catch {
                close();
              }
            }, 50);
          },
          cancel: close,
        });
        return new Response(body, { headers: { "content-type": "application/json" } });
      }
      return Response.json({ error: "Record not found" }, { status: 404 });
    },
  });
  return {
    url: server.url.origin,
    token,
    open: () => open,
    bytesSent: () => sent,
    stop: () => server.stop(true),
  };
}
