// dns2 ships no types; what the tests' DNS server uses of it.
declare module "dns2" {
  interface Question {
    name: string;
    type: number;
  }
  interface DnsPacket {
    questions: Question[];
    answers: { name: string; type: number; class: number; ttl: number; data: string }[];
  }
  interface DnsServer {
    listen(o: { udp?: { port: number; address: string } }): Promise<void>;
    addresses(): { udp: { port: number } };
    close(): Promise<void>;
  }
  const dns2: {
    Packet: {
      TYPE: { TXT: number; A: number };
      CLASS: { IN: number };
      createResponseFromRequest(r: DnsPacket): DnsPacket;
    };
    createServer(o: {
      udp: boolean;
      handle: (req: DnsPacket, send: (res: DnsPacket) => void) => void;
    }): DnsServer;
  };
  export default dns2;
}
