// The pure parts of the client: --hostname, the optional --json value, --at, and which host and credential a
// command picks (from a real hosts.yaml in a temporary folder).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveCredential, resolveHost } from "../../../src/cli/auth/credentials.ts";
import { writeHosts } from "../../../src/cli/auth/hosts.ts";
import { takeJson } from "../../../src/cli/client/command.ts";
import { parseHost } from "../../../src/cli/client/host.ts";
import { type LocalTime, utcOf } from "../../../src/cli/client/zone.ts";
import { UsageError } from "../../../src/cli/output.ts";
import { parseAt } from "../../../src/cli/posts/input.ts";

describe("--hostname", () => {
  test("a bare host means https; a URL keeps its scheme and port", () => {
    expect(parseHost("svc.example.com")).toEqual({ key: "svc.example.com", url: "https://svc.example.com" });
    expect(parseHost("svc.example.com:8443")).toEqual({
      key: "svc.example.com:8443",
      url: "https://svc.example.com:8443",
    });
    expect(parseHost("http://127.0.0.1:8080/")).toEqual({
      key: "127.0.0.1:8080",
      url: "http://127.0.0.1:8080",
    });
    expect(parseHost("https://example.com/svc/")).toEqual({
      key: "example.com",
      url: "https://example.com/svc",
    });
  });
  test("refuses other schemes, credentials in the URL and nonsense", () => {
    expect(() => parseHost("ftp://x")).toThrow(UsageError);
    expect(() => parseHost("https://user:pw@x")).toThrow(UsageError);
    expect(() => parseHost("")).toThrow(UsageError);
    expect(() => parseHost("http://[::1")).toThrow(UsageError);
  });
});

describe("--json takes an optional field list", () => {
  test("forms", () => {
    expect(takeJson(["--json"])).toEqual({ argv: [], json: [] });
    expect(takeJson(["--json", "id,status", "--limit", "2"])).toEqual({
      argv: ["--limit", "2"],
      json: ["id", "status"],
    });
    expect(takeJson(["--json=id"])).toEqual({ argv: [], json: ["id"] });
    expect(takeJson(["x"])).toEqual({ argv: ["x"], json: null });
    // An object ID after --json is the command's argument, not a field.
    expect(takeJson(["--json", "post_0123456789abcdefghjkmnpqrs"])).toEqual({
      argv: ["post_0123456789abcdefghjkmnpqrs"],
      json: [],
    });
  });
});

describe("--at", () => {
  test("now, next_slot, RFC 3339 with an offset, and a wall-clock time left for the brand's zone", () => {
    expect(parseAt("now")).toBe("now");
    expect(parseAt("next_slot")).toBe("next_slot");
    expect(parseAt("2026-12-01T09:00:00Z")).toBe("2026-12-01T09:00:00Z");
    expect(parseAt("2026-12-01T09:00:00+01:00")).toBe("2026-12-01T09:00:00+01:00");
    // Without a zone it is not read in this machine's zone: it waits for the brand's.
    const local = parseAt("2026-12-01 09:00");
    expect(local).toMatchObject({
      raw: "2026-12-01 09:00",
      year: 2026,
      month: 12,
      day: 1,
      hour: 9,
      minute: 0,
    });
    expect(parseAt("2026-12-01T09:00")).toMatchObject({ hour: 9, minute: 0 });
    expect(utcOf(local as LocalTime, "Europe/Paris")).toBe("2026-12-01T08:00:00Z");
    expect(utcOf(local as LocalTime, "America/New_York")).toBe("2026-12-01T14:00:00Z");
    // A skipped hour (Paris springs forward at 02:00 on 2027-03-28) moves forward by the jump.
    expect(utcOf(parseAt("2027-03-28 02:30") as LocalTime, "Europe/Paris")).toBe("2027-03-28T01:30:00Z");
    expect(() => parseAt("tomorrow")).toThrow(UsageError);
    expect(() => parseAt("2027-02-30 09:00")).toThrow(UsageError);
    expect(() => parseAt("2026-12-01 24:00")).toThrow(UsageError);
    expect(() => parseAt("x", "--by")).toThrow(/^--by must be/);
  });
});

describe("which host and credential", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-hosts-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = { SVC_CONFIG_DIR: dir } as Record<string, string | undefined>;
  writeHosts(
    {
      default: "b.example.com",
      hosts: {
        "a.example.com": { url: "https://a.example.com", test: { user: "x", token: "svc_test_a" } },
        "b.example.com": {
          url: "http://b.example.com:80",
          test: { user: "y", token: "svc_test_b" },
          org: "Acme",
        },
      },
    },
    env,
  );

  test("the saved default, unless --hostname or SVC_HOST names another", () => {
    expect(resolveHost({ env }).key).toBe("b.example.com");
    expect(resolveHost({ env: { ...env, SVC_HOST: "a.example.com" } }).key).toBe("a.example.com");
    expect(resolveHost({ env: { ...env, SVC_HOST: "a.example.com" }, hostname: "b.example.com" }).key).toBe(
      "b.example.com",
    );
    // A bare name that was saved with an explicit http:// URL keeps it.
    expect(resolveHost({ env, hostname: "b.example.com" }).url).toBe("http://b.example.com:80");
  });

  test("SVC_TOKEN over the stored credential; --org over SVC_ORG over the saved org", async () => {
    expect(await resolveCredential({ env })).toMatchObject({
      token: "svc_test_b",
      org: "Acme",
      source: "hosts.yaml",
    });
    expect(await resolveCredential({ env: { ...env, SVC_TOKEN: "t", SVC_ORG: "Globex" } })).toMatchObject({
      token: "t",
      org: "Globex",
      source: "SVC_TOKEN",
    });
    expect((await resolveCredential({ env: { ...env, SVC_ORG: "Globex" }, org: "Initech" })).org).toBe(
      "Initech",
    );
    await expect(resolveCredential({ env, live: true })).rejects.toThrow(
      "no live credential for b.example.com; run: svc auth login --hostname b.example.com --live",
    );
  });
});
