// A TCP proxy to the local Postgres that can be stopped (dropping every connection) and started again on the same
// port: a database that goes away and comes back, for the tests of what svc does meanwhile.
import net from "node:net";

/** A TCP proxy to 127.0.0.1:5432 that can be stopped (dropping every connection) and started again. */
export class TcpProxy {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  port = 0;

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(5432, "127.0.0.1");
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
