// A real DNS server on 127.0.0.1 (dns2, UDP) answering TXT records the test sets, for the single sign-on domain
// check: the App's resolver is pointed at it through App.dnsServers, which only tests set.
import dns2 from "dns2";

export interface DnsServer {
  /** host:port for App.dnsServers. */
  address: string;
  setTxt(name: string, values: string[]): void;
  queries: string[];
  close(): Promise<void>;
}

export async function dnsServer(): Promise<DnsServer> {
  const txt = new Map<string, string[]>();
  const queries: string[] = [];
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      for (const q of request.questions) {
        queries.push(q.name);
        if (q.type !== Packet.TYPE.TXT) continue;
        for (const data of txt.get(q.name.toLowerCase()) ?? [])
          response.answers.push({
            name: q.name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 1,
            data,
          });
      }
      send(response);
    },
  });
  await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return {
    address: `127.0.0.1:${server.addresses().udp.port}`,
    setTxt: (name, values) => txt.set(name.toLowerCase(), values),
    queries,
    close: () => server.close(),
  };
}
