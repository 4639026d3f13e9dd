// Surface parity: every route the specification gives an MCP tool or a CLI verb has it, and every tool and verb
// calls only routes that are served (interface.md "MCP tools" and "Command-line client"; reference.md §8, §9).
//
// The route table is the exported list the server mounts and the OpenAPI document is made from; the tools are the
// MCP catalog; the verbs are the CLI's client command registry. A tool's calls are recorded by running it against a
// recording stand-in for the API (tools only build requests); a verb's calls are read from the text of its files
// (its command file and what that imports under src/cli/, outside the shared client plumbing): every "/v1/…" string
// or template literal, with the method literal written just before it (GET when none is).
//
// A specification pair whose feature has not landed (no route, no tool) is listed in EXEMPTIONS with its reason; an
// exemption that stops holding (the route is served now) fails, so landing a feature without its tool or verb fails.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { clientCommands } from "../../src/cli/client/index.ts";
import { v1PublicRoutes, v1Routes } from "../../src/http/api/v1/index.ts";
import type { ApiRequest } from "../../src/mcp/api.ts";
import { tools } from "../../src/mcp/tools/index.ts";
import { readImportGraph, tokenize } from "../helpers/import-graph.ts";

type Method = "GET" | "POST" | "DELETE";
/** A route as `METHOD /v1/path/:param`, in the route table's own pattern syntax. */
type Route = `${Method} /${string}`;

/** interface.md "MCP tools": each tool and the route that is its capability (the route it calls). */
const SPEC_MCP_TOOLS: Record<string, Route> = {
  list_platforms: "GET /v1/platforms",
  list_brands: "GET /v1/brands",
  list_channels: "GET /v1/channels",
  list_templates: "GET /v1/templates",
  get_template: "GET /v1/templates/:id",
  upload_media_from_url: "POST /v1/media",
  preview_post: "POST /v1/posts/preview",
  create_post: "POST /v1/posts",
  list_posts: "GET /v1/posts",
  get_post: "GET /v1/posts/:id",
  cancel_post: "POST /v1/posts/:id/cancel",
  retry_target: "POST /v1/post_targets/:id/retry",
  mark_target_published: "POST /v1/post_targets/:id/mark_published",
  reschedule_post: "POST /v1/posts/:id/reschedule",
  engagement_summary: "GET /v1/engagement/summary",
  ads_summary: "GET /v1/ads/summary",
  analytics_summary: "GET /v1/analytics/summary",
  brand_report: "GET /v1/reports",
  list_notifications: "GET /v1/notifications",
  preview_newsletter: "POST /v1/newsletters/preview",
  draft_newsletter: "POST /v1/newsletters",
  list_newsletters: "GET /v1/newsletters",
  // Beyond the specification, in its style (issue 32, the post lifecycle): editing before publishing.
  update_post: "POST /v1/posts/:id",
  // Beyond the specification, in its style (issue 32): the client review link.
  create_review_link: "POST /v1/review_links",
  list_review_links: "GET /v1/review_links",
  withdraw_review_link: "POST /v1/review_links/:id/withdraw",
};

/**
 * interface.md "Command-line client" with reference.md §9: each client verb and the route it is. `null`: the verb
 * works on the stored credentials or takes any path (`api`), so no one route is its capability; it must exist.
 * Admin commands (`svc admin …`) call the domain directly and have no route: they are not in this table.
 */
const SPEC_CLI_VERBS: Record<string, Route | null> = {
  "auth login": "POST /v1/auth/device",
  "auth status": "GET /v1/me",
  "auth logout": "DELETE /v1/auth/token",
  "auth token": null,
  "auth switch": null,
  "channels list": "GET /v1/channels",
  "templates list": "GET /v1/templates",
  "templates get": "GET /v1/templates/:id",
  "posts list": "GET /v1/posts",
  "posts get": "GET /v1/posts/:id",
  "posts preview": "POST /v1/posts/preview",
  "posts create": "POST /v1/posts",
  "posts cancel": "POST /v1/posts/:id/cancel",
  // Beyond the specification's list, in its style (issue 32): every post action the API has.
  "posts edit": "POST /v1/posts/:id",
  "posts reschedule": "POST /v1/posts/:id/reschedule",
  "posts approve": "POST /v1/posts/:id/approve",
  "posts reject": "POST /v1/posts/:id/reject",
  "posts retry": "POST /v1/post_targets/:id/retry",
  "posts mark-published": "POST /v1/post_targets/:id/mark_published",
  "posts delete-published": "POST /v1/posts/:id/delete_published",
  // Beyond the specification, in its style (issue 32): the client review link.
  "review-links list": "GET /v1/review_links",
  "review-links create": "POST /v1/review_links",
  "review-links withdraw": "POST /v1/review_links/:id/withdraw",
  // Beyond the specification's list, in its style (issue 29, newsletters): find, read, schedule and cancel issues.
  "newsletters list": "GET /v1/newsletters",
  "newsletters get": "GET /v1/newsletters/:id",
  "newsletters preview": "GET /v1/newsletters/:id/preview",
  "newsletters schedule": "POST /v1/newsletters/:id/schedule",
  "newsletters cancel": "POST /v1/newsletters/:id/cancel",
  "members list": "GET /v1/members",
  "members invite": "POST /v1/invitations",
  "members role": "POST /v1/members/:id",
  "members remove": "DELETE /v1/members/:id",
  "org view": "GET /v1/org",
  "org update": "POST /v1/org",
  // Beyond the specification's list, in its style (issue 28): ad accounts and analytics sources.
  "ads networks": "GET /v1/ad_networks",
  "ads list": "GET /v1/ad_accounts",
  "ads connect": "POST /v1/ad_accounts",
  "ads get": "GET /v1/ad_accounts/:id",
  "ads remove": "DELETE /v1/ad_accounts/:id",
  "ads summary": "GET /v1/ads/summary",
  "analytics providers": "GET /v1/analytics_providers",
  "analytics list": "GET /v1/analytics_sources",
  "analytics connect": "POST /v1/analytics_sources",
  "analytics get": "GET /v1/analytics_sources/:id",
  "analytics remove": "DELETE /v1/analytics_sources/:id",
  "analytics summary": "GET /v1/analytics/summary",
  listen: "GET /v1/events/stream",
  api: null,
  // Beyond reference.md §9, in its style (issue 28, insights): one brand's report.
  "reports view": "GET /v1/reports",
};

interface Exemption {
  /** `mcp <tool>` or `cli <verb>`. */
  pair: string;
  /**
   * "not landed": the feature's issue is open, so neither the route nor the tool/verb exists; the exemption fails
   * once the route is served. "deliberate": the route is served and the tool/verb is left out on purpose.
   */
  kind: "not landed" | "deliberate";
  reason: string;
}

/** Specification pairs allowed to be incomplete, each with why. */
const EXEMPTIONS: readonly Exemption[] = [];

// ── What is served ──────────────────────────────────────────────────────────────────────────────────────────────

const served = [...v1Routes, ...v1PublicRoutes].map((r) => ({ method: r.method as string, path: r.path }));

/** A path segment built from a value (`/v1/posts/${id}`): it can only be a route's `:param`. */
const ANY = ":param";

/** The served route a call reaches, preferring literal segments as the router does; undefined when none. */
function routeOf(method: string, path: string): Route | undefined {
  const segments = path.split("?")[0]!.split("/");
  let best: { route: Route; literals: number } | undefined;
  for (const r of served) {
    if (r.method !== method) continue;
    const pattern = r.path.split("/");
    if (pattern.length !== segments.length) continue;
    let literals = 0;
    const fits = pattern.every((p, k) => {
      const s = segments[k]!;
      if (p.startsWith(":")) return s !== "";
      if (s === ANY) return false;
      literals++;
      return p === s;
    });
    if (fits && (!best || literals > best.literals))
      best = { route: `${method} ${r.path}` as Route, literals };
  }
  return best?.route;
}

const isServed = (route: Route) => {
  const [method, path] = route.split(" ") as [string, string];
  return routeOf(method, path.replace(/:[^/]+/g, ANY)) === route;
};

// ── What each tool calls ────────────────────────────────────────────────────────────────────────────────────────

/** Arguments a tool is run with, by input name (only the names a tool's input declares are passed). */
const SAMPLE_ARGS: Record<string, unknown> = {
  brand: "acme",
  post: "post_sample",
  target: "ptgt_sample",
  // By key and version: get_template then looks the key up and reads the version, both routes.
  template: "release@2",
  key: "release",
  url: "https://example.com/a.png",
  body: "Hello",
  permalink: "https://example.com/p/1",
  publish_at: "next_slot",
};

async function toolCalls(): Promise<Map<string, string[]>> {
  const calls = new Map<string, string[]>();
  for (const tool of tools) {
    const made: string[] = [];
    const api = async (req: ApiRequest) => {
      made.push(`${req.method} ${req.path}`);
      return { status: 200, body: { object: "list", data: [{ id: "tmpl_sample" }], has_more: false } };
    };
    const args = Object.fromEntries(
      Object.keys(tool.input.entries)
        .filter((k) => k in SAMPLE_ARGS)
        .map((k) => [k, SAMPLE_ARGS[k]]),
    );
    await tool.run(api, args);
    calls.set(tool.name, made);
  }
  return calls;
}

// ── What each verb calls ────────────────────────────────────────────────────────────────────────────────────────

const ROOT = resolve(import.meta.dir, "../..");
const REGISTRY = "src/cli/client/index.ts";
/** Shared by every verb (the HTTP call itself, paging, printing): a verb's own calls are in its own files. */
const PLUMBING = ["src/cli/client/", "src/cli/output.ts"];

/** Every "/v1/…" literal in a file, as `METHOD path` (template substitutions become `:param`). */
function callsIn(text: string): string[] {
  const tokens = tokenize(text);
  const out: string[] = [];
  const seenTemplates = new Set<number>();
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    let path: string | undefined;
    if (t.kind === "str" && t.value.startsWith("/v1/")) path = t.value;
    if (t.kind === "tmpl" && t.template !== undefined && !seenTemplates.has(t.template)) {
      seenTemplates.add(t.template);
      if (t.value.startsWith("/v1/"))
        path = tokens
          .filter((u) => u.kind === "tmpl" && u.template === t.template)
          .map((u) => u.value)
          .join(ANY);
    }
    if (path === undefined) continue;
    const before = tokens[k - 2];
    const method =
      tokens[k - 1]?.value === "," && before?.kind === "str" && /^(GET|POST|DELETE)$/.test(before.value)
        ? before.value
        : "GET";
    out.push(`${method} ${path.split("?")[0]}`);
  }
  return out;
}

async function verbCalls(): Promise<{ calls: Map<string, string[]>; unlocated: string[] }> {
  const graph = readImportGraph(ROOT, ["src/cli"]);
  const next = new Map<string, string[]>();
  for (const i of graph.imports) next.set(i.from, [...(next.get(i.from) ?? []), i.to]);

  // Which file declares each registered command: the registry's imports, matched by object identity.
  const fileOf = new Map<string, string>();
  for (const file of next.get(REGISTRY) ?? []) {
    const mod = (await import(resolve(ROOT, file))) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      const cmd = clientCommands.find((c) => c === value);
      if (cmd) fileOf.set(cmd.name, file);
    }
  }

  const calls = new Map<string, string[]>();
  const unlocated: string[] = [];
  for (const cmd of clientCommands) {
    const start = fileOf.get(cmd.name);
    if (!start) {
      unlocated.push(cmd.name);
      continue;
    }
    const files = new Set([start]);
    for (const f of files)
      for (const to of next.get(f) ?? [])
        if (to.startsWith("src/cli/") && !PLUMBING.some((p) => to.startsWith(p))) files.add(to);
    calls.set(
      cmd.name,
      [...files].flatMap((f) => callsIn(readFileSync(resolve(ROOT, f), "utf8"))),
    );
  }
  return { calls, unlocated };
}

// ── The checks ──────────────────────────────────────────────────────────────────────────────────────────────────

interface Pair {
  pair: string;
  name: string;
  /** "MCP tool create_post", "CLI verb svc posts list": for messages. */
  what: string;
  route: Route | null;
  offered: boolean;
}

const pairs: Pair[] = [
  ...Object.entries(SPEC_MCP_TOOLS).map(([name, route]) => ({
    pair: `mcp ${name}`,
    name,
    what: `MCP tool ${name}`,
    route,
    offered: tools.some((t) => t.name === name),
  })),
  ...Object.entries(SPEC_CLI_VERBS).map(([name, route]) => ({
    pair: `cli ${name}`,
    name,
    what: `CLI verb svc ${name}`,
    route,
    offered: clientCommands.some((c) => c.name === name),
  })),
];

const { calls: cliCalls, unlocated } = await verbCalls();
const mcpCalls = await toolCalls();
const callsOf = (pair: string) =>
  pair.startsWith("mcp ") ? (mcpCalls.get(pair.slice(4)) ?? []) : (cliCalls.get(pair.slice(4)) ?? []);

function expectNone(lines: string[], what: string) {
  if (lines.length > 0) throw new Error(`${what}: ${lines.length}\n  ${lines.join("\n  ")}`);
}

describe("the readers bite", () => {
  test("a verb's calls are read with their method; a path in prose is not a call", () => {
    const text = [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal, as source text
      'const p = await ctx.api("POST", `/v1/posts/${encodeURIComponent(id)}/cancel`);',
      'const rows = await listItems(ctx, "/v1/channels?brand=x", {});',
      'await send({ url },\n  "DELETE",\n  "/v1/auth/token");',
      'const help = `"posts" and "/v1/posts" are the same`;',
      '// ctx.api("GET", "/v1/commented_out")',
    ].join("\n");
    expect(callsIn(text)).toEqual([
      "POST /v1/posts/:param/cancel",
      "GET /v1/channels",
      "DELETE /v1/auth/token",
    ]);
  });

  test("a call reaches a served route, or none", () => {
    expect(routeOf("GET", "/v1/posts/post_1")).toBe("GET /v1/posts/:id");
    expect(routeOf("POST", "/v1/posts/preview")).toBe("POST /v1/posts/preview");
    expect(routeOf("GET", `/v1/posts/${ANY}/cancel`)).toBeUndefined();
    expect(routeOf("DELETE", "/v1/posts/post_1")).toBeUndefined();
    expect(routeOf("GET", "/v1/no_such_thing")).toBeUndefined();
    expect(isServed("GET /v1/newsletters")).toBe(true);
    expect(isServed("GET /v1/no_such_thing")).toBe(false);
  });
});

describe("surface parity with the specification", () => {
  test("every tool and verb svc offers is named by the specification, once", () => {
    const problems: string[] = [];
    const count = (names: string[], spec: Record<string, unknown>, surface: string) => {
      for (const n of new Set(names)) {
        if (!(n in spec)) problems.push(`${surface} ${n}: not in the specification`);
        if (names.filter((m) => m === n).length > 1) problems.push(`${surface} ${n}: offered twice`);
      }
    };
    count(
      tools.map((t) => t.name),
      SPEC_MCP_TOOLS,
      "mcp",
    );
    count(
      clientCommands.map((c) => c.name),
      SPEC_CLI_VERBS,
      "cli",
    );
    expectNone(problems, "tools or verbs the specification does not name");
  });

  test("every specification tool and verb is offered and its route served, unless exempted", () => {
    const problems: string[] = [];
    for (const p of pairs) {
      if (EXEMPTIONS.some((e) => e.pair === p.pair)) continue;
      const routeServed = p.route === null || isServed(p.route);
      if (routeServed && p.offered) continue;
      if (routeServed)
        problems.push(
          `${p.pair}: ${p.route ? `${p.route} is served` : "it needs no route"}, but the ${p.what} is missing`,
        );
      else if (p.offered) problems.push(`${p.pair}: the ${p.what} is offered, but ${p.route} is not served`);
      else
        problems.push(
          `${p.pair}: neither ${p.route} nor the ${p.what} exists (list it in EXEMPTIONS while its feature has not landed)`,
        );
    }
    expectNone(problems, "specification tools and verbs missing");
  });

  test("every exemption still holds", () => {
    const stale: string[] = [];
    for (const e of EXEMPTIONS) {
      const p = pairs.find((q) => q.pair === e.pair);
      if (!p) {
        stale.push(`${e.pair}: the specification tables name no such pair`);
        continue;
      }
      const routeServed = p.route === null || isServed(p.route);
      if (e.kind === "not landed" && routeServed && p.offered)
        stale.push(`${e.pair}: ${p.route} and the ${p.what} both exist now: remove the exemption`);
      else if (e.kind === "not landed" && routeServed)
        stale.push(`${e.pair}: ${p.route} is served now: add the ${p.what} and remove the exemption`);
      else if (e.kind === "not landed" && p.offered)
        stale.push(`${e.pair}: the ${p.what} is offered now: remove the exemption`);
      else if (e.kind === "deliberate" && (!routeServed || p.offered))
        stale.push(
          `${e.pair}: ${p.offered ? "offered now" : `${p.route} is not served`}: remove the exemption`,
        );
    }
    expectNone(stale, "exemptions that no longer hold");
  });

  test("every verb's files are found from the registry", () => {
    expectNone(unlocated, `client commands whose file ${REGISTRY} does not import`);
  });

  test("each tool and verb calls the route the specification pairs it with", () => {
    const problems: string[] = [];
    for (const p of pairs) {
      if (!p.offered || p.route === null || !isServed(p.route)) continue;
      const reached = callsOf(p.pair).map((c) => {
        const [m, path] = c.split(" ") as [string, string];
        return routeOf(m, path);
      });
      if (!reached.includes(p.route))
        problems.push(`${p.pair}: calls ${callsOf(p.pair).join(", ") || "nothing"}, not ${p.route}`);
    }
    expectNone(problems, "tools and verbs not calling their specification route");
  });

  test("no tool or verb calls a route that is not served", () => {
    const problems: string[] = [];
    for (const [surface, calls] of [
      ["mcp", mcpCalls],
      ["cli", cliCalls],
    ] as const)
      for (const [name, made] of calls)
        for (const c of made) {
          const [m, path] = c.split(" ") as [string, string];
          if (!routeOf(m, path)) problems.push(`${surface} ${name} -> ${c}`);
        }
    expectNone(problems, "calls of routes that are not served");
  });
});
