// The specification's MCP tools (interface.md "MCP tools") against what svc offers: every tool svc lists is one of
// them, and a tool whose capability exists (its /v1 route is served) must be offered. When media, engagement,
// reports or newsletters arrive, this fails until their tools do too.
import { describe, expect, test } from "bun:test";
import { v1Routes } from "../../src/http/api/v1/index.ts";
import { inputSchemaOf } from "../../src/mcp/server.ts";
import { tools } from "../../src/mcp/tools/index.ts";

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
});
