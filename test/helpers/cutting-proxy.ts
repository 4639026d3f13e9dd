// A TCP proxy in front of a stand-in that can drop a connection part-way through a request: armed with
// cutAfter(n), the next connection whose request bytes pass n is destroyed on both sides, as a network that
// drops a long upload does. Everything else is passed through untouched.
import net from "node:net";

export interface CuttingProxy {
  url: string;
  /** The next connection is cut once this many request bytes have gone through it. */
  cutAfter(bytes: number): void;
  /** Connections cut so far. */
  cuts: number;
  close(): Promise<void>;
}

export async function cuttingProxy(targetPort: number): Promise<CuttingProxy> {
  let armed: number | null = null;
  const sockets = new Set<net.Socket>();
  const state = { cuts: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
      s.on("error", () => {});
    }
    let sent = 0;
    client.on("data", (chunk: Buffer) => {
      if (armed !== null && sent + chunk.length > armed) {
        const keep = Math.max(0, armed - sent);
        armed = null;
        state.cuts++;
        upstream.write(chunk.subarray(0, keep), () => {
          client.destroy();
          upstream.destroy();
        });
        return;
      }
      sent += chunk.length;
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on("drain", () => client.resume());
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    cutAfter(bytes) {
      armed = bytes;
    },
    get cuts() {
      return state.cuts;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
