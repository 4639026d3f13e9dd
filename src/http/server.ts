// The HTTP server: Elysia routes every /v1 route through the pipeline; anything else is route_unknown, and a
// known path with another method is method_not_allowed with Allow.
import { Elysia } from "elysia";
import type { App } from "../app/context.ts";
import { RequestLog } from "../domain/requests/log.ts";
import { ServiceError } from "../lib/errors.ts";
import { newId } from "../lib/ids.ts";
import { once } from "../lib/once.ts";
import { v1PublicRoutes, v1Routes, v1Schemas } from "./api/v1/index.ts";
import { mediaContent } from "./media-content.ts";
import { openApiYaml, publicOperations } from "./openapi.ts";
import { runRoute } from "./pipeline.ts";
import { ERROR_CODES_PATH } from "./problem.ts";
import { runPublicRoute } from "./public-pipeline.ts";
import { RateLimiter } from "./ratelimit.ts";
import { asServiceError, jsonResponse, problemResponse, SECURITY_HEADERS } from "./respond.ts";
import type { RouteDef } from "./route.ts";
import type { HttpContext } from "./stages/exchange.ts";
import { webPaths } from "./web/paths.ts";
import type { WebRoute } from "./web/route.ts";
import { wantsHtml } from "./web/wants-html.ts";

// The dashboard's pages load with the first one asked for (web/paths.ts has their routes for the table at start).
const loadWeb = once(() => import("./web/index.tsx"));
// Even as paths, the file imports cost about 0.6 MiB at start (Bun registers each as a module).
const loadStatic = once(() => import("./web/static.ts"));
// So do the browser's error page and the sandbox's post page (views with hono's JSX runtime).
const loadBrowserError = once(() => import("./web/browser-error.tsx"));
const loadSandbox = once(() => import("./web/sandbox.ts"));
// And a report's share link page.
const loadSharedReport = once(() => import("./web/shared-report.tsx"));
// And the one-click unsubscribe of notification and report emails.
const loadUnsubscribe = once(() => import("./unsubscribe.ts"));
// The MCP endpoint's transport and tools, and the error code reference page, the same way.
const loadMcp = once(() => import("../mcp/http.ts"));
const loadErrorCodes = once(() => import("./web/error-codes.ts"));

/** Routes outside the credential pipeline: [method, path] (documented in the OpenAPI document too). */
export const publicRoutes: [string, string][] = [
  ...publicOperations.map((p) => [p.method, p.path] as [string, string]),
  ...v1PublicRoutes.map((r) => [r.method, r.path] as [string, string]),
];

/** Two years; not includeSubDomains: other hosts under the base URL's domain are not svc's to decide. */
export const HSTS = "max-age=63072000";

const patternOf = (path: string) =>
  new RegExp(`^${path.replace(/[.]/g, "\\.").replace(/:[A-Za-z_]+/g, "[^/]+")}$`);

export interface HttpServer {
  // biome-ignore lint/suspicious/noExplicitAny: Elysia's route-typed generics are of no use here
  elysia: Elysia<any, any, any, any, any, any, any>;
  ctx: HttpContext;
  /** `peer`: the socket's remote address (Bun's server.requestIP), used where a client IP is shown or limited. */
  handle(request: Request, peer?: string | null): Promise<Response>;
}

/** The remote address of each request in flight, as passed to handle(). */
const peers = new WeakMap<Request, string>();

export function createHttp(app: App, routes: RouteDef[] = v1Routes): HttpServer {
  const ctx: HttpContext = { app, limiter: new RateLimiter(), requestLog: new RequestLog(app) };
  const known = [...publicRoutes, ...routes.map((r) => [r.method, r.path] as [string, string])].map(
    ([m, p]) => ({ m, re: patternOf(p) }),
  );

  const elysia = new Elysia()
    .onError(({ code, request, error }) => {
      const requestId = newId("req");
      // A browser gets a page with a way back; an API client keeps the problem details.
      const answer = async (err: ServiceError, extra?: Record<string, string>) =>
        wantsHtml(request)
          ? (await loadBrowserError()).browserError(app, request, err, extra)
          : problemResponse(app, err, requestId, extra);
      if (code === "NOT_FOUND") {
        const path = new URL(request.url).pathname;
        const allow = [...new Set(known.filter((k) => k.re.test(path)).map((k) => k.m))];
        if (allow.length) {
          return answer(
            new ServiceError(
              405,
              "method_not_allowed",
              `${request.method} is not allowed here; use ${allow.join(", ")}.`,
            ),
            { Allow: allow.join(", ") },
          );
        }
        const what = wantsHtml(request)
          ? `There is no page at ${path}.`
          : `No route ${request.method} ${path}.`;
        return answer(new ServiceError(404, "route_unknown", what));
      }
      // Outside the pipeline (a dashboard page whose session could not be read, say): a database out of reach is
      // still 503 database_unavailable; anything else is logged and 500.
      return answer(asServiceError(app, error, requestId));
    })
    .get("/healthz", () => jsonResponse(200, { status: "ok" }, newId("req")))
    .get("/readyz", async () => {
      const requestId = newId("req");
      try {
        if (await app.schemaReady()) return jsonResponse(200, { status: "ready" }, requestId);
        return jsonResponse(503, { status: "migrating" }, requestId, { "Retry-After": "5" });
      } catch {
        return jsonResponse(503, { status: "database_unavailable" }, requestId, { "Retry-After": "5" });
      }
    })
    .get("/sandbox/:id", async ({ params }: { params: { id: string } }) =>
      (await loadSandbox()).sandboxPage(app, params.id),
    )
    .get("/shared/reports/:token", async ({ params }: { params: { token: string } }) =>
      (await loadSharedReport()).sharedReportPage(app, params.token),
    )
    .get(ERROR_CODES_PATH, async () => (await loadErrorCodes()).errorCodesPage())
    .get("/v1/media/:id/content", ({ params, request }: { params: { id: string }; request: Request }) =>
      mediaContent(app, params.id, request),
    )
    .post(
      "/v1/unsubscribe/:id",
      async ({ params }: { params: { id: string } }) => (await loadUnsubscribe()).oneClick(app, params.id),
      { parse: "none" },
    )
    .post(
      "/v1/reports/unsubscribe/:id",
      async ({ params }: { params: { id: string } }) =>
        (await loadUnsubscribe()).reportOneClick(app, params.id),
      { parse: "none" },
    )
    .get(
      "/v1/openapi.yaml",
      async () =>
        new Response(await openApiYaml(routes, v1Schemas, v1PublicRoutes), {
          headers: { "Content-Type": "application/yaml", "Request-Id": newId("req"), ...SECURITY_HEADERS },
        }),
    );

  const mcp = once(async () => (await loadMcp()).mcpHandler(app, (req) => elysia.handle(req), ctx.limiter));
  elysia.post("/v1/mcp", async ({ request }: { request: Request }) => (await mcp())(request), {
    parse: "none",
  });

  for (const r of v1PublicRoutes) {
    elysia.route(
      r.method,
      r.path,
      ({ request }: { request: Request }) => runPublicRoute(ctx, r, request, peers.get(request) ?? null),
      { parse: "none" },
    );
  }
  // The dashboard: server-rendered pages beside the API, on the same domain functions.
  elysia
    .get("/", async ({ request }: { request: Request }) => (await loadWeb()).rootRedirect(app, request))
    .get("/static/:name", async ({ params }: { params: { name: string } }) =>
      (await loadStatic()).staticFile(params.name),
    );
  for (const [method, path] of webPaths) {
    let r: WebRoute | undefined;
    elysia.route(
      method,
      path,
      // biome-ignore lint/suspicious/noExplicitAny: Elysia's context type is generic over the whole app
      async ({ request, params, server }: any) => {
        const { handleWeb, webRoutes } = await loadWeb();
        r ??= webRoutes.find((w) => w.method === method && w.path === path)!;
        return handleWeb(
          app,
          r,
          request,
          params ?? {},
          peers.get(request) ?? server?.requestIP?.(request)?.address ?? null,
        );
      },
      { parse: "none" },
    );
  }

  for (const r of routes) {
    elysia.route(
      r.method,
      r.path,
      ({ request, params }: { request: Request; params: Record<string, string> }) =>
        runRoute(ctx, r, request, params),
      {
        parse: "none",
      },
    );
  }
  // Served over https (the base URL says so, a TLS proxy in front): browsers are told to keep to https.
  const hsts = new URL(app.config.baseUrl).protocol === "https:";
  return {
    elysia,
    ctx,
    handle: async (req, peer) => {
      if (peer) peers.set(req, peer);
      const res = await elysia.handle(req);
      if (hsts) res.headers.set("Strict-Transport-Security", HSTS);
      return res;
    },
  };
}
