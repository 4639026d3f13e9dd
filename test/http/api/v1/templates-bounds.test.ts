// What one template may cost (src/domain/templates/bounds.ts, patterns.ts), end to end on both databases: each
// bound refused with its code, its param and a message saying the limit, and nothing stored.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { type TestApp, testApp } from "../../../helpers/app.ts";
import { describeEachDialect } from "../../../helpers/db.ts";
import { type Tenant, tenant } from "../../../helpers/factories.ts";

const source = (variables: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  variables: { type: "object", ...variables },
  examples: [{}],
  body: "Hello",
  ...over,
});

describeEachDialect("template bounds", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  const preview = (body: Record<string, unknown>) =>
    t.request("POST", "/v1/templates/preview", { key: a.testKey, body: { brand: a.brandId, ...body } });
  const create = (body: Record<string, unknown>) =>
    t.request("POST", "/v1/templates", {
      key: a.testKey,
      body: { brand: a.brandId, key: `k${Math.random().toString(36).slice(2, 8)}`, ...body },
    });
  const problems = (r: { body: { errors: { code: string; param: string; message: string }[] } }) =>
    r.body.errors.map((e) => `${e.code} ${e.param}`);

  test("a pattern RE2 cannot run (backreference, lookaround) is variables_invalid naming where it is", async () => {
    const r = await preview(
      source({
        properties: { word: { type: "string", pattern: "^(a)\\1$" } },
        patternProperties: { "^(?=x)": { type: "string" } },
      }),
    );
    expect(r.status).toBe(422);
    expect(problems(r)).toEqual(["variables_invalid variables", "variables_invalid variables"]);
    const messages = r.body.errors.map((e: { message: string }) => e.message).join("\n");
    expect(messages).toContain("`variables.properties.word.pattern`");
    expect(messages).toContain("`variables.patternProperties.^(?=x)`");
    expect(messages).toContain("backreferences and lookaround are not supported");
    // Nothing stored by the same source sent to create.
    const c = await create(source({ properties: { w: { type: "string", pattern: "(?<=a)b" } } }));
    expect(c.status).toBe(422);
    expect(problems(c)).toEqual(["variables_invalid variables"]);
    const listed = await t.request("GET", `/v1/templates?brand=${a.brandId}`, { key: a.testKey });
    expect(listed.body.data).toEqual([]);
  });

  test("patterns RE2 runs keep their JSON Schema meaning: a mismatch is data_invalid", async () => {
    const variables = {
      properties: { slug: { type: "string", pattern: "^[a-z\\u0030-\\u0039-]+$" } },
      patternProperties: { "^x_": { type: "integer" } },
      required: ["slug"],
    };
    const ok = await preview(source(variables, { examples: [{ slug: "a-1" }], body: "{{.slug}}" }));
    expect(ok.status).toBe(200);
    const bad = await preview(
      source(variables, {
        examples: [{ slug: "a-1" }],
        body: "{{.slug}}",
        data: { slug: "A 1", x_n: "no" },
      }),
    );
    expect(bad.status).toBe(422);
    expect(problems(bad)).toEqual(["data_invalid data.slug", "data_invalid data.x_n"]);
  });

  test("the pathological ^(a+)+$ answers at once", async () => {
    const started = performance.now();
    const r = await preview(
      source(
        { properties: { a: { type: "string", pattern: "^(a+)+$" } }, required: ["a"] },
        { examples: [{ a: "aaaa" }], body: "{{.a}}", data: { a: `${"a".repeat(60_000)}!` } },
      ),
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(problems(r)).toEqual(["data_invalid data.a"]);
  });

  test("a long string against a large pattern is over the matching budget: data_too_large", async () => {
    const r = await preview(
      source(
        { properties: { a: { type: "string", pattern: "^([a-z]{1,2}){0,100}$" } }, required: ["a"] },
        { examples: [{ a: "ab" }], body: "{{.a}}", data: { a: "ab".repeat(30_000) } },
      ),
    );
    expect(r.status).toBe(422);
    expect(problems(r)).toEqual(["data_too_large data"]);
    expect(r.body.errors[0].message).toContain("shorten its longest strings or simplify the patterns");
  });

  test("a pattern compiling past 2,000 instructions or over 1,000 characters is refused", async () => {
    const r = await preview(
      source({
        properties: {
          big: { type: "string", pattern: "(a{1,100}){1,30}" },
          long: { type: "string", pattern: "a".repeat(1001) },
        },
      }),
    );
    expect(problems(r)).toEqual(["variables_invalid variables", "variables_invalid variables"]);
    expect(r.body.errors[0].message).toMatch(/over the limit of 2000|over the limit of 1000/);
  });

  test("variables nested deeper than 32 levels are variables_invalid; 5,000 deep is refused as input, not a crash", async () => {
    for (const depth of [33, 5_000]) {
      // Written as text: building it with JSON.stringify would itself recurse that deep.
      const variables = `${'{"type":"object","properties":{"n":'.repeat(depth)}{"type":"string"}${"}}".repeat(depth)}`;
      const r = await t.request("POST", "/v1/templates/preview", {
        key: a.testKey,
        raw: `{"brand":"${a.brandId}","variables":${variables},"examples":[{}],"body":"Hello"}`,
        headers: { "content-type": "application/json" },
      });
      if (depth === 5_000) {
        // Past the JSON depth every request body is held to (100 levels), the request pipeline refuses it.
        expect([r.status, r.body.code, r.body.param]).toEqual([400, "parameter_invalid", "variables"]);
        continue;
      }
      expect(r.status).toBe(422);
      expect(problems(r)).toEqual(["variables_invalid variables"]);
      expect(r.body.errors[0].message).toContain("deeper than 32 levels");
    }
    // 32 levels are fine.
    let ok: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 15; i++) ok = { type: "object", properties: { n: ok } };
    expect((await preview({ variables: ok, examples: [{}], body: "Hello" })).status).toBe(200);
  });

  test("more than 1,000 properties, 100 patterns or 64 KiB of schema are variables_invalid", async () => {
    const many = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`p${i}`, { type: "string" }]));
    const r1 = await preview(source({ properties: many }));
    expect(problems(r1)).toEqual(["variables_invalid variables"]);
    expect(r1.body.errors[0].message).toContain("1001 properties, over the limit of 1000");

    const patterned = Object.fromEntries(
      Array.from({ length: 101 }, (_, i) => [`p${i}`, { type: "string", pattern: "^a" }]),
    );
    const r2 = await preview(source({ properties: patterned }));
    expect(problems(r2)).toEqual(["variables_invalid variables"]);
    expect(r2.body.errors[0].message).toContain("101 regular expressions, over the limit of 100");

    const r3 = await preview(source({ description: "x".repeat(70_000) }));
    expect(problems(r3)).toEqual(["variables_invalid variables"]);
    expect(r3.body.errors[0].message).toContain("over the limit of 65536 (64 KiB)");
  });

  test("more than 20 examples is example_invalid; a body over 64 KiB is template_syntax", async () => {
    const r1 = await preview(source({}, { examples: Array.from({ length: 21 }, () => ({})) }));
    expect(problems(r1)).toEqual(["example_invalid examples"]);
    expect(r1.body.errors[0].message).toContain("at most 20");
    const r2 = await preview(source({}, { body: "x".repeat(70_000) }));
    expect(problems(r2)).toEqual(["template_syntax body"]);
    expect(r2.body.errors[0].message).toContain("over the limit of 65536 bytes (64 KiB)");
  });

  test("an override for an unknown provider is reported, not rendered", async () => {
    const overrides = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`nope${i}`, "{{.missing}}"]));
    const r = await preview(source({}, { overrides }));
    expect(r.status).toBe(422);
    expect(new Set(r.body.errors.map((e: { code: string }) => e.code))).toEqual(
      new Set(["provider_unknown"]),
    );
  });
});
