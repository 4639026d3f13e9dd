// `svc newsletters …` against a real server: list, get, preview (text and --html), schedule, cancel; an API error
// is printed on stderr with exit code 1.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type Cli, cli } from "../helpers/cli.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";
import { type ListeningApp, listeningApp } from "../helpers/listening.ts";

describeEachDialect("svc newsletters", (dialect) => {
  let t: ListeningApp;
  let acme: Tenant;
  let c: Cli;
  let id: string;
  const api = async (path: string, body: unknown) => {
    const r = await fetch(`${t.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${acme.testKey}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return (await r.json()) as { id: string };
  };
  beforeAll(async () => {
    t = await listeningApp(dialect);
    acme = await tenant(t.app, "Acme");
    c = cli();
    const r = await c.run(["auth", "login", "--hostname", t.url, "--with-token"], { stdin: acme.testKey });
    expect(r.code).toBe(0);
    await api(`/v1/brands/${acme.brandId}/email_theme`, { postal_address: "1 Main Street" });
    const m = await api("/v1/mail_accounts", {
      brand: acme.brandId,
      provider: "sandbox",
      from_name: "Acme",
      from_email: "news@acme.example",
      default_audiences: ["everyone"],
    });
    id = (
      await api("/v1/newsletters", {
        brand: acme.brandId,
        subject: "CLI issue",
        body: "# Hello\n\nFrom the terminal.",
        deliveries: [{ mail_account: m.id }],
      })
    ).id;
  });
  afterAll(async () => {
    c.cleanup();
    await t.close();
  });

  test("list, get, preview", async () => {
    const l = await c.run(["newsletters", "list", "--status", "draft"]);
    expect(l.code).toBe(0);
    expect(l.out).toContain(id);
    expect(l.out).toContain("CLI issue");
    const j = await c.run(["newsletters", "list", "--json", "id,status", "--jq", ".[0].status"]);
    expect(j.out).toBe("draft\n");
    const g = await c.run(["newsletters", "get", id]);
    expect(g.out).toContain("everyone");
    const p = await c.run(["newsletters", "preview", id]);
    expect(p.out).toContain("From the terminal.");
    expect(p.out).toContain("1 Main Street");
    const h = await c.run(["newsletters", "preview", id, "--html"]);
    expect(h.out).toContain("<h1");
  });

  test("schedule, cancel; an API error on stderr", async () => {
    const bad = await c.run(["newsletters", "schedule", id, "--at", "tomorrow"]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("send_at");
    const at = new Date(Date.now() + 2 * 86400_000).toISOString();
    const s = await c.run(["newsletters", "schedule", id, "--at", at]);
    expect(s.code).toBe(0);
    expect(s.out).toContain("scheduled");
    const x = await c.run(["newsletters", "cancel", id]);
    expect(x.code).toBe(0);
    expect(x.out).toContain("canceled");
  });
});
