import { describe, expect, test } from "bun:test";
import { classify, type IpAddress, parseIp } from "../../src/net/address.ts";
import { AllowSettingError, checkAddress, NOTHING_ALLOWED, parseAllowSetting } from "../../src/net/allow.ts";

const ip = (text: string) => {
  const addr = parseIp(text);
  if (!addr) throw new Error(`bad test address ${text}`);
  return addr;
};
const allowed = (setting: string | undefined, addr: string, host?: string) =>
  checkAddress(parseAllowSetting(setting), host, ip(addr)).ok;

describe("parseAllowSetting", () => {
  test("unset, empty and false allow nothing", () => {
    for (const raw of [undefined, "", "  ", "false", "FALSE"])
      expect(parseAllowSetting(raw)).toBe(NOTHING_ALLOWED);
  });

  test("true allows every private range", () => {
    const s = parseAllowSetting("true");
    expect(s.allPrivate).toBe(true);
    expect(s.source).toBe("true");
  });

  test("a list of hostnames and CIDRs, normalised", () => {
    const s = parseAllowSetting(" Mastodon.Internal. , 10.0.0.0/8,fd00::/8, 192.168.1.5 ,[::1],");
    expect([...s.hosts]).toEqual(["mastodon.internal"]);
    expect(s.cidrs.map(([a, bits]) => `${a.toString()}/${bits}`)).toEqual([
      "10.0.0.0/8",
      "fd00::/8",
      "192.168.1.5/32",
      "::1/128",
    ]);
    expect(parseAllowSetting("10.0.0.0/8,a.b").source).toBe(parseAllowSetting("a.b, 10.0.0.0/8").source);
  });

  test("a bad entry is named in the error", () => {
    const cases: [string, RegExp][] = [
      ["10.0.0.0/33", /SVC_X: "10.0.0.0\/33" has a prefix length outside 0-32/],
      ["fd00::/129", /"fd00::\/129" has a prefix length outside 0-128/],
      ["10.0.0.0/x", /prefix length/],
      ["nothing/8", /"nothing\/8" is not a CIDR/],
      ["http://a.example", /"http:\/\/a.example" is not a hostname or CIDR/],
      ["host:8080", /"host:8080" is not a hostname or CIDR/],
      ["bad_-.example.", /is not a valid hostname/],
      ["-lead.example", /is not a valid hostname/],
      ["10.0.0.300", /"10.0.0.300" is not a valid IP address/],
      ["ok.example, sp ace", /"sp ace"/],
    ];
    for (const [raw, message] of cases) {
      let caught: unknown;
      try {
        parseAllowSetting(raw, "SVC_X");
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(AllowSettingError);
      expect((caught as Error).message).toMatch(message);
    }
  });
});

describe("classify", () => {
  test("names each non-public range, and judges IPv6 embeddings by their IPv4 address", () => {
    const cases: [string, string][] = [
      ["8.8.8.8", "public"],
      ["2606:4700::1111", "public"],
      ["127.0.0.1", "loopback"],
      ["10.1.2.3", "private"],
      ["172.16.0.1", "private"],
      ["192.168.0.1", "private"],
      ["100.64.0.1", "carrierGradeNat"],
      ["169.254.169.254", "link_local"],
      ["0.0.0.0", "unspecified"],
      ["255.255.255.255", "broadcast"],
      ["224.0.0.1", "multicast"],
      ["192.0.2.1", "reserved"],
      ["240.0.0.1", "reserved"],
      ["::1", "loopback"],
      ["::", "unspecified"],
      ["fd12::1", "uniqueLocal"],
      ["fe80::1", "link_local"],
      ["ff02::1", "multicast"],
      ["2001:db8::1", "reserved"],
      ["::ffff:127.0.0.1", "loopback"],
      ["::ffff:7f00:1", "loopback"],
      ["::ffff:169.254.169.254", "link_local"],
      ["::ffff:8.8.8.8", "public"],
      ["64:ff9b::10.0.0.1", "private"],
      ["64:ff9b::8.8.8.8", "public"],
      ["2002:7f00:1::", "loopback"],
      // Teredo carries its client's address inverted in the last 32 bits: ::1 inverted is 255.255.255.254.
      ["2001::1", "reserved"],
    ];
    for (const [addr, expected] of cases) expect([addr, classify(ip(addr))]).toEqual([addr, expected]);
  });

  test("every IPv6 form that carries an IPv4 address is judged by the address it carries", () => {
    // As a URL host: WHATWG URL rewrites [::169.254.169.254] to [::a9fe:a9fe], which parses as plain unicast.
    const host = (u: string) => ip(new URL(u).hostname);
    const cases: [IpAddress, string][] = [
      // IPv4-compatible ::/96 (the finding: these read as public before).
      [host("http://[::169.254.169.254]/"), "link_local"],
      [host("http://[::127.0.0.1]/"), "loopback"],
      [host("http://[::10.0.0.1]/"), "private"],
      [host("http://[::8.8.8.8]/"), "public"],
      [ip("::1"), "loopback"],
      [ip("::"), "unspecified"],
      // IPv4-mapped ::ffff:0:0/96 and the SIIT form ::ffff:0:0:0/96.
      [host("http://[::ffff:169.254.169.254]/"), "link_local"],
      [ip("::ffff:0:7f00:1"), "loopback"],
      // NAT64 64:ff9b::/96.
      [host("http://[64:ff9b::169.254.169.254]/"), "link_local"],
      [host("http://[64:ff9b::8.8.8.8]/"), "public"],
      // 6to4 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
      [ip("2002:a9fe:a9fe::1"), "link_local"],
      [ip("2002:c0a8:0101::1"), "private"],
      [ip("2002:0808:0808::1"), "public"],
      // Teredo 2001:0::/32 carries its client inverted in the last 32 bits.
      [ip("2001:0:4136:e378:8000:63bf:80ff:fffe"), "loopback"], // client 127.0.0.1
      [ip("2001:0:4136:e378:8000:63bf:5601:5601"), "link_local"], // client 169.254.169.254
      [ip("2001:0:4136:e378:8000:63bf:f7f7:f7f7"), "public"], // client 8.8.8.8
    ];
    for (const [addr, expected] of cases) {
      expect([addr.toString(), classify(addr)]).toEqual([addr.toString(), expected]);
    }
    expect(allowed(undefined, "::a9fe:a9fe")).toBe(false);
    expect(allowed("true", "::a9fe:a9fe")).toBe(false); // link-local stays closed even with true
    expect(allowed("true", "::7f00:1")).toBe(true);
  });

  test("only strict dotted-quad IPv4 and zone-free IPv6 parse", () => {
    expect(parseIp("0x7f.1")).toBeUndefined();
    expect(parseIp("2130706433")).toBeUndefined();
    expect(parseIp("fe80::1%eth0")).toBeUndefined();
    expect(parseIp("[::1]")?.toString()).toBe("::1");
  });
});

describe("checkAddress", () => {
  test("public addresses always pass; private ones only when allowed", () => {
    expect(allowed(undefined, "8.8.8.8")).toBe(true);
    expect(allowed(undefined, "127.0.0.1")).toBe(false);
    expect(allowed(undefined, "::ffff:10.0.0.1")).toBe(false);
    expect(allowed("true", "127.0.0.1")).toBe(true);
    expect(allowed("true", "fd00::1")).toBe(true);
    expect(allowed("10.0.0.0/8", "10.9.9.9")).toBe(true);
    expect(allowed("10.0.0.0/8", "192.168.0.1")).toBe(false);
    expect(allowed("127.0.0.1/32", "::ffff:127.0.0.1")).toBe(true);
    expect(allowed("fd00::/8", "fd00::5")).toBe(true);
  });

  test("hostname entries match the requested name, not IP literals or other names", () => {
    expect(allowed("mastodon.internal", "10.0.0.5", "mastodon.internal")).toBe(true);
    expect(allowed("mastodon.internal", "10.0.0.5", "MASTODON.internal.")).toBe(true);
    expect(allowed("mastodon.internal", "10.0.0.5", "evil.internal")).toBe(false);
    expect(allowed("mastodon.internal", "10.0.0.5")).toBe(false);
  });

  test("link-local only through a CIDR inside link-local, never through true, names or wide CIDRs", () => {
    expect(allowed("true", "169.254.169.254")).toBe(false);
    expect(allowed("true", "fe80::1")).toBe(false);
    expect(allowed("true", "::ffff:169.254.169.254")).toBe(false);
    expect(allowed("metadata.internal", "169.254.169.254", "metadata.internal")).toBe(false);
    expect(allowed("0.0.0.0/0", "169.254.169.254")).toBe(false);
    expect(allowed("0.0.0.0/0", "10.0.0.1")).toBe(true);
    expect(allowed("169.254.169.254/32", "169.254.169.254")).toBe(true);
    expect(allowed("fe80::/64", "fe80::1")).toBe(true);
  });
});
