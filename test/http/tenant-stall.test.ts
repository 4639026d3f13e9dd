// One tenant's pathological template must not stall another tenant. A `pattern` like `^(a+)+$` takes exponential
// time in a backtracking engine (JavaScript's RegExp) on a near-miss such as 40 `a`s and a `!`; tenant-supplied
// patterns run on a linear-time engine instead, so the preview answers at once and so does everyone else.
// Over a real listening server: the two requests share only the process and its event loop.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

const near = `${"a".repeat(40)}!`;
const evil = { type: "string", pattern: "^(a+)+$" };
const pathological = {
  variables: {
    type: "object",
    properties: { a: evil, b: evil, c: evil, d: evil },
    required: ["a", "b", "c", "d"],
  },
  examples: Array.from({ length: 9 }, () => ({ a: near, b: near, c: near, d: near })),
  body: "{{.a}}",
};

describeEachDialect("a tenant's pathological template and another tenant's request", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let b: Tenant;
  let server: ReturnType<typeof Bun.serve>;
  let base: string;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
    b = await tenant(t.app);
    server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => t.http.handle(req) });
    base = `http://127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    server.stop(true);
    await t.close();
  });

  /** The requests, sent from another process (see timed-requests.ts). */
  async function timed(
    requests: { key: string; method: string; path: string; body?: unknown; after?: number }[],
  ) {
    const child = Bun.spawn(["bun", `${import.meta.dir}/../helpers/timed-requests.ts`], {
      stdin: new Blob([JSON.stringify({ base, requests })]),
      stdout: "pipe",
    });
    const out = await new Response(child.stdout).text();
    await child.exited;
    // biome-ignore lint/suspicious/noExplicitAny: answers are arbitrary JSON
    return JSON.parse(out) as { status: number; body: any; started: number; ms: number }[];
  }

  test("the other tenant's GET /v1/me answers within 200 ms while the preview runs", async () => {
    const me = { key: b.testKey, method: "GET", path: "/v1/me" };
    const preview = {
      key: a.testKey,
      method: "POST",
      path: "/v1/templates/preview",
      body: { brand: a.brandId, ...pathological },
    };
    // Warm up both routes first (a first preview loads the JSON Schema and rendering code once per process).
    const benign = { ...pathological, examples: [{ a: "aaa", b: "a", c: "a", d: "a" }] };
    const warm = await timed([me, { ...preview, body: { ...preview.body, ...benign } }]);
    expect(warm.map((r) => r.status)).toEqual([200, 200]);
    // The other tenant asks 5 ms after the preview was sent, while the preview's examples are being checked.
    const [p, other] = await timed([preview, { ...me, after: 5 }]);
    console.log(`preview ${p!.ms.toFixed(0)} ms, the other tenant's GET /v1/me ${other!.ms.toFixed(0)} ms`);
    expect(other!.status).toBe(200);
    expect(other!.ms).toBeLessThan(200);
    // The examples do not match `^(a+)+$` (the `!`): refused at once, every example named.
    expect(p!.ms).toBeLessThan(1000);
    expect(p!.status).toBe(422);
    expect(p!.body.errors.map((e: { code: string; param: string }) => `${e.code} ${e.param}`)).toEqual(
      Array.from({ length: 9 }, (_, i) => `example_invalid examples.${i}`),
    );
  }, 60_000);
});
