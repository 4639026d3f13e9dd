#!/usr/bin/env bun
// newsletters: the two figures issue #29 sets.
// 1. Rendering a 100,000-byte issue with 200 links (half to the brand's UTM domain, so tagged) and 20 library
//    images (each linked by a signed newsletter link) into the email's HTML and text: p95 over 200 renders, floor
//    50 ms. Beside it, in the same run, markdown-it rendering the same body bare (no theme, tags, links or text):
//    what the parser alone costs.
// 2. The hand-off of 1,000 issues due in the same minute (one Brevo delivery each) against the Brevo stand-in,
//    which validates every request and answer against Brevo's OpenAPI description: one newsletters.handoff run
//    must finish within the minute, on SQLite and on Postgres (when SVC_TEST_PG or the local server is reachable).
// Usage: bun bench/newsletters.ts [--quick]
import { createHmac, randomBytes } from "node:crypto";
import MarkdownIt from "markdown-it";
import pg from "pg";
import { openDatabase } from "../src/db/index.ts";
import { migrate } from "../src/db/migrate.ts";
import { handOffDue } from "../src/domain/newsletters/handoff.ts";
import { renderIssue } from "../src/domain/newsletters/render.ts";
import { newId } from "../src/lib/ids.ts";
import { startBrevo } from "../test/stand-ins/brevo.ts";

// Postgres as the test runner sets it up (scripts/test.ts): a migrated template the test apps copy. Made here
// before the helpers load, since they read it when imported.
const PG_URL = process.env.SVC_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
let template: string | null = null;
if (!process.env.SVC_TEST_PG_TEMPLATE && !process.argv.includes("--render")) {
  const c = new pg.Client({ connectionString: PG_URL });
  try {
    await c.connect();
    template = `svc_bench_nl_${Date.now().toString(36)}`;
    await c.query(`CREATE DATABASE "${template}"`);
    const u = new URL(PG_URL);
    u.pathname = `/${template}`;
    const d = openDatabase(u.toString(), { poolSize: 1 });
    await migrate(d.db, "postgres");
    await d.close();
    process.env.SVC_TEST_PG_TEMPLATE = template;
    process.env.SVC_TEST_PG_URL = PG_URL;
  } catch (e) {
    console.log(`Postgres not reachable (${e}); SQLite only`);
  } finally {
    await c.end().catch(() => {});
  }
}
const { testApp } = await import("../test/helpers/app.ts");
const { dialects, dropCreatedDatabases } = await import("../test/helpers/db.ts");
const { tenant } = await import("../test/helpers/factories.ts");

const quick = process.argv.includes("--quick");
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;

function body(): string {
  const images = Array.from({ length: 20 }, () => `media_${newId("media").slice(6)}`);
  const parts: string[] = [];
  let links = 0;
  let i = 0;
  while (parts.join("\n\n").length < 99_000) {
    const host = links % 2 === 0 ? "https://acme.example/blog/post-" : "https://elsewhere.example/page-";
    const link = links < 200 ? ` Read [part ${links}](${host}${links}) for more.` : "";
    if (link) links++;
    const image = i % 10 === 0 && i / 10 < 20 ? `\n\n![Figure ${i / 10}](${images[i / 10]})` : "";
    parts.push(
      `${i % 8 === 0 ? `## Section ${i}\n\n` : ""}Lorem ipsum dolor sit amet, **consectetur** adipiscing elit, sed do ` +
        `eiusmod tempor incididunt ut labore et _dolore_ magna aliqua.${link}${image}`,
    );
    i++;
  }
  const text = parts.join("\n\n");
  return text.slice(0, 100_000);
}

function renderBench() {
  const b = body();
  const key = randomBytes(32);
  const input = {
    subject: "The March issue",
    preview_text: "What changed this month",
    body: b,
    theme: {
      logo: null,
      accent: "#1a4d8f",
      postal_address: "Acme Ltd\n1 Main Street",
      footer: "You signed up",
    },
    brandName: "Acme",
    utmDomains: ["acme.example"],
    provider: "brevo",
    unsubscribe: "{{ unsubscribe }}",
    issueId: newId("nl"),
    imageUrl: (id: string) =>
      `https://svc.example/v1/media/${id}/content?for=newsletter&signature=${createHmac("sha256", key).update(`${id}\nnewsletter`).digest("base64url")}`,
  };
  const md = new MarkdownIt({ html: false, linkify: false });
  const n = quick ? 50 : 200;
  for (let i = 0; i < 20; i++) renderIssue(input);
  const times: number[] = [];
  const floor: number[] = [];
  let out = renderIssue(input);
  for (let i = 0; i < n; i++) {
    let s = performance.now();
    out = renderIssue(input);
    times.push(performance.now() - s);
    s = performance.now();
    md.render(b);
    floor.push(performance.now() - s);
  }
  if (out.links !== 200 || out.images.length !== 20)
    throw new Error(`links ${out.links}, images ${out.images.length}`);
  const bytes = Buffer.byteLength(b);
  console.log(
    `render: ${bytes} bytes, ${out.links} links, ${out.images.length} images: p95 ${p95(times).toFixed(1)} ms ` +
      `(goal <= 50 ms); markdown-it alone p95 ${p95(floor).toFixed(1)} ms (ratio ${(p95(times) / p95(floor)).toFixed(2)})`,
  );
}

async function handoffBench(dialect: "sqlite" | "postgres") {
  const brevo = await startBrevo();
  const t = await testApp(dialect, {
    env: {
      SVC_ALLOW_PRIVATE_NETWORKS: "true",
      SVC_PROVIDER_ORIGINS: `brevo=${brevo.url}`,
      SVC_LOG_LEVEL: "error",
    },
  });
  const a = await tenant(t.app);
  await t.request("POST", `/v1/brands/${a.brandId}/email_theme`, {
    key: a.testKey,
    body: { postal_address: "Acme Ltd, 1 Main Street" },
  });
  const acct = brevo.addAccount({ email: "bench@client.example", lists: ["All"] });
  const m = await t.request("POST", "/v1/mail_accounts", {
    key: a.liveKey,
    body: {
      brand: a.brandId,
      provider: "brevo",
      from_name: "Acme",
      from_email: "news@acme.example",
      default_audiences: [String(acct.lists[0]!.id)],
      fields: { api_key: acct.apiKey },
    },
  });
  if (m.status !== 201) throw new Error(JSON.stringify(m.body));
  const count = quick ? 200 : 1000;
  const now = t.app.clock.now();
  const sendAt = now + 10 * 60_000;
  // The issues as scheduling leaves them, written in bulk (the API's cost is not what this measures).
  for (let i = 0; i < count; i += 200) {
    const issues = [];
    const deliveries = [];
    for (let j = i; j < Math.min(count, i + 200); j++) {
      const id = newId("nl");
      issues.push({
        id,
        org_id: a.orgId,
        livemode: 1 as const,
        brand_id: a.brandId,
        status: "scheduled" as const,
        subject: `Issue ${j}`,
        preview_text: "",
        body: `# Issue ${j}\n\nHello, read [more](https://acme.example/${j}).`,
        send_at: sendAt,
        handoff_due_at: now,
        handoff_lease_until: null,
        approval_required: 0 as const,
        reviewed_by: null,
        reviewed_by_key: null,
        reviewed_at: null,
        review_note: null,
        created_by_user: null,
        created_by_key: null,
        created_at: now,
        updated_at: now,
      });
      deliveries.push({
        id: newId("nldel"),
        newsletter_id: id,
        org_id: a.orgId,
        livemode: 1 as const,
        mail_account_id: m.body.id,
        position: 0,
        audiences: JSON.stringify([String(acct.lists[0]!.id)]),
        status: "queued" as const,
        campaign_id: null,
        handoff_started_at: null,
        error: null,
        results: null,
        results_next_at: null,
        created_at: now,
        updated_at: now,
      });
    }
    await t.app.db.insertInto("newsletters").values(issues).execute();
    await t.app.db.insertInto("newsletter_deliveries").values(deliveries).execute();
  }
  const started = performance.now();
  const run = await handOffDue(t.app);
  const ms = performance.now() - started;
  const problems = brevo.problems.length;
  console.log(
    `handoff (${dialect}): ${count} issues in ${(ms / 1000).toFixed(1)} s (goal: within 60 s); ` +
      `${acct.campaigns.length} campaigns at Brevo, created ${run.created}, retried ${run.retry}, ` +
      `stand-in problems ${problems}`,
  );
  if (acct.campaigns.length !== count) throw new Error("not exactly one campaign per delivery");
  await t.close();
  brevo.stop();
}

renderBench();
if (!process.argv.includes("--render")) for (const d of dialects) await handoffBench(d);
await dropCreatedDatabases();
if (template) {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  await c.end();
}
process.exit(0);
