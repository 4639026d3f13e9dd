// The specification's MCP tools (interface.md "MCP tools") against what svc offers: every tool svc lists is one of
// them, and a tool whose capability exists (its /v1 route is served) must be offered. When media, engagement,
// reports or newsletters arrive, this fails until their tools do too.
import { describe, expect, test } from "bun:test";
import * as v from "valibot";
import { v1Routes } from "../../src/http/api/v1/index.ts";
import { inputSchemaOf } from "../../src/mcp/server.ts";
import { tools } from "../../src/mcp/tools/index.ts";
import { platforms } from "../../src/platforms/rules-registry.ts";

/** Each tool of the specification and the route that means its capability exists. */
const SPEC_TOOLS: Record<string, [string, string]> = {
  list_platforms: ["GET", "/v1/platforms"],
  list_brands: ["GET", "/v1/brands"],
  list_channels: ["GET", "/v1/channels"],
  list_templates: ["GET", "/v1/templates"],
  get_template: ["GET", "/v1/templates/:id"],
  upload_media_from_url: ["POST", "/v1/media"],
  preview_post: ["POST", "/v1/posts/preview"],
  create_post: ["POST", "/v1/posts"],
  list_posts: ["GET", "/v1/posts"],
  get_post: ["GET", "/v1/posts/:id"],
  cancel_post: ["POST", "/v1/posts/:id/cancel"],
  retry_target: ["POST", "/v1/post_targets/:id/retry"],
  mark_target_published: ["POST", "/v1/post_targets/:id/mark_published"],
  reschedule_post: ["POST", "/v1/posts/:id/reschedule"],
  engagement_summary: ["GET", "/v1/engagement/summary"],
  ads_summary: ["GET", "/v1/ads/summary"],
  analytics_summary: ["GET", "/v1/analytics/summary"],
  brand_report: ["GET", "/v1/reports"],
  list_notifications: ["GET", "/v1/notifications"],
  preview_newsletter: ["POST", "/v1/newsletters/preview"],
  draft_newsletter: ["POST", "/v1/newsletters"],
  list_newsletters: ["GET", "/v1/newsletters"],
  // Beyond the specification, in its style (issue 32).
  update_post: ["POST", "/v1/posts/:id"],
  create_review_link: ["POST", "/v1/review_links"],
  list_review_links: ["GET", "/v1/review_links"],
  withdraw_review_link: ["POST", "/v1/review_links/:id/withdraw"],
};

describe("MCP tools and the specification", () => {
  test("every offered tool is named by the specification, once", () => {
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(Object.keys(SPEC_TOOLS)).toContain(n);
  });

  test("every tool whose capability exists is offered", () => {
    const served = new Set(v1Routes.map((r) => `${r.method} ${r.path}`));
    const missing = Object.entries(SPEC_TOOLS)
      .filter(([name, [m, p]]) => served.has(`${m} ${p}`) && !tools.some((t) => t.name === name))
      .map(([name]) => name);
    expect(missing).toEqual([]);
  });

  test("input schemas are closed objects, their nested objects too", () => {
    const open: string[] = [];
    const walk = (s: unknown, at: string) => {
      if (typeof s !== "object" || s === null) return;
      const o = s as Record<string, unknown>;
      if (o.type === "object" && o.properties && o.additionalProperties !== false) open.push(at);
      for (const [k, v] of Object.entries(o)) walk(v, `${at}.${k}`);
    };
    for (const t of tools) walk(inputSchemaOf(t), t.name);
    expect(open).toEqual([]);
  });

  test("every property of every tool's input schema, nested ones too, has a description", () => {
    const bare: string[] = [];
    let seen = 0;
    const walk = (s: unknown, at: string) => {
      if (typeof s !== "object" || s === null) return;
      const o = s as Record<string, unknown>;
      const props = o.properties as Record<string, Record<string, unknown>> | undefined;
      for (const [name, p] of Object.entries(props ?? {})) {
        seen++;
        const d = p.description;
        if (typeof d !== "string" || d.length < 10 || !/[.?)]$/.test(d)) bare.push(`${at}.${name}`);
        walk(p, `${at}.${name}`);
      }
      for (const k of ["items", "additionalProperties", "anyOf", "oneOf"])
        if (typeof o[k] === "object") walk(o[k], `${at}[${k}]`);
    };
    for (const t of tools) walk(inputSchemaOf(t), t.name);
    expect(seen).toBeGreaterThan(50);
    expect(bare).toEqual([]);
  });

  test("fit and overrides name their keys: one property per provider, nothing else", () => {
    const providers = platforms.map((p) => p.provider).sort();
    for (const name of ["preview_post", "create_post"]) {
      const props = inputSchemaOf(tools.find((t) => t.name === name)!).properties as Record<string, any>;
      for (const map of ["fit", "overrides"]) {
        const s = props[map];
        expect([name, map, Object.keys(s.properties).sort()]).toEqual([name, map, providers]);
        expect(s.additionalProperties).toBe(false);
        expect(s.propertyNames.enum.sort()).toEqual(providers);
      }
      expect(props.fit.properties.bluesky).toEqual({
        type: "string",
        enum: ["error", "truncate", "thread"],
        description: "How to fit text that is too long for Bluesky.",
      });
    }
  });

  test("a format where one applies: URLs are uri, deadlines date-time", () => {
    const prop = (tool: string, name: string) =>
      (inputSchemaOf(tools.find((t) => t.name === tool)!).properties as Record<string, any>)[name];
    expect(prop("upload_media_from_url", "url").format).toBe("uri");
    expect(prop("mark_target_published", "permalink").format).toBe("uri");
    expect(prop("create_post", "publish_by").format).toBe("date-time");
    expect(prop("reschedule_post", "publish_by").format).toBe("date-time");
    expect(prop("create_post", "publish_at").examples).toContain("next_slot");
  });

  test("descriptions change no validation: an unknown provider in fit is still the API's provider_unknown", () => {
    const create = tools.find((t) => t.name === "create_post")!;
    const parsed = v.safeParse(create.input, { brand: "b", body: "x", fit: { myspace: "thread" } });
    expect(parsed.success).toBe(true);
    const bad = v.safeParse(create.input, { brand: "b", body: "x", fit: { bluesky: "squeeze" } });
    expect(bad.success).toBe(false);
  });
});
