// Error codes have one catalogue (src/lib/error-codes.ts): every code svc can answer with is in it, every entry is
// still used, docs/api.md lists exactly it, and each problem's `doc_url` is the install's own page of it
// (GET /docs/errors#<code>), not a site nobody runs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Glob } from "bun";
import { API_DOC, documentedSection, errorCodesMarkdown, unaligned } from "../../scripts/error-codes.ts";
import { ERROR_CODES, ERROR_GROUPS, isErrorCode } from "../../src/lib/error-codes.ts";
import { type TestApp, testApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { type Tenant, tenant } from "../helpers/factories.ts";

const ROOT = join(import.meta.dir, "..", "..");
const CATALOGUE = "src/lib/error-codes.ts";

/** Every source file of the product (src/ and views/), with its text. */
function sources(): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const dir of ["src", "views"])
    for (const path of new Glob(`${dir}/**/*.{ts,tsx}`).scanSync(ROOT))
      out.push({ path, text: readFileSync(join(ROOT, path), "utf8") });
  return out;
}

// Where a code is given to the client: a ServiceError, a listed problem, a rule of a schema, the helpers that
// make them, and problem objects written out (`code: "…"` beside its param). A publish outcome's `code` (a
// target's error, reference §3) is another list and is not an API error.
const EMITTING = [
  /new ServiceError\(\s*\d+,\s*"([a-z_]+)"/g,
  /\b(?:problem|rule|badRequest|conflict|forbidden|unauthorized|grantError|refuse|name)\(\s*"([a-z_]+)"/g,
  /\bcode:\s*"([a-z_]+)",\s*param\b/g,
];

describe("the error code catalogue", () => {
  test("every code svc can answer with is in the catalogue", () => {
    const missing: string[] = [];
    let found = 0;
    for (const { path, text } of sources()) {
      if (path === CATALOGUE) continue;
      for (const re of EMITTING)
        for (const m of text.matchAll(re)) {
          found++;
          if (!isErrorCode(m[1]!)) missing.push(`${m[1]} (${path})`);
        }
    }
    // The scan sees the emitting sites (hundreds of them), so an empty `missing` means something.
    expect(found).toBeGreaterThan(300);
    expect(missing).toEqual([]);
  });

  test("every entry is still used somewhere in src/ or views/", () => {
    const text = sources()
      .filter((s) => s.path !== CATALOGUE)
      .map((s) => s.text)
      .join("\n");
    const unused = Object.keys(ERROR_CODES).filter((code) => !text.includes(`"${code}"`));
    expect(unused).toEqual([]);
  });

  test("every entry has a group, a status or null, and a meaning that ends a sentence", () => {
    for (const [code, e] of Object.entries(ERROR_CODES)) {
      expect([code, ERROR_GROUPS.includes(e.group)]).toEqual([code, true]);
      expect([code, e.status === null || (e.status >= 400 && e.status < 600)]).toEqual([code, true]);
      expect([code, /^[A-Z`].*[.)]$/.test(e.meaning)]).toEqual([code, true]);
    }
  });

  test("docs/api.md lists exactly the catalogue (bun scripts/error-codes.ts writes it)", () => {
    const doc = readFileSync(API_DOC, "utf8");
    const section = documentedSection(doc);
    expect(section).not.toBeNull();
    expect(unaligned(section!)).toBe(unaligned(errorCodesMarkdown()));
    expect(doc).not.toContain("svc.dev");
  });
});

describeEachDialect("doc_url and GET /docs/errors", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect, { env: { SVC_BASE_URL: "https://svc.example.org" } });
    a = await tenant(t.app);
  });
  afterAll(() => t.close());

  test("a problem's doc_url is this install's error codes page, at the code", async () => {
    const none = await t.request("GET", "/v1/me");
    expect(none.body.doc_url).toBe("https://svc.example.org/docs/errors#api_key_missing");
    const unknown = await t.request("GET", "/v1/nothing-here", { key: a.testKey });
    expect(unknown.body.doc_url).toBe("https://svc.example.org/docs/errors#route_unknown");
    const invalid = await t.request("POST", "/v1/brands", { key: a.testKey, body: { name: "" } });
    expect(invalid.body.doc_url).toBe(`https://svc.example.org/docs/errors#${invalid.body.code}`);
  });

  test("the page is served without signing in, with an anchor for every code", async () => {
    const r = await t.request("GET", "/docs/errors");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    const html = r.body as string;
    for (const code of Object.keys(ERROR_CODES)) expect(html).toContain(`<tr id="${code}">`);
    for (const group of ERROR_GROUPS) expect(html).toContain(`<h2>${group}</h2>`);
    // Meanings are escaped text, with `code` spans as <code>.
    expect(html).toContain("<code>Retry-After</code>");
    expect(html).not.toContain("<script");
  });
});
