// GET /v1/openapi.yaml: generated from the route table and the same valibot schemas the services parse with.
import pkg from "../../package.json" with { type: "json" };
import { listSchema } from "./openapi-schemas.ts";
import type { PublicRouteDef } from "./public-route.ts";
import type { RouteDef } from "./route.ts";

export const toOpenApiPath = (p: string) => p.replace(/:([A-Za-z_]+)/g, "{$1}");

const problemRef = { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } };

/** Routes outside the credential pipeline (no bearer credential), documented with `security: []`. */
export const publicOperations = [
  {
    method: "GET",
    path: "/healthz",
    summary: "Liveness: the process answers (the database is not consulted)",
    responses: { "200": jsonStatus(["ok"]) },
  },
  {
    method: "GET",
    path: "/readyz",
    summary: "Readiness: the database answers and the schema is current",
    responses: { "200": jsonStatus(["ready"]), "503": jsonStatus(["migrating", "database_unavailable"]) },
  },
  {
    method: "GET",
    path: "/v1/openapi.yaml",
    summary: "This document",
    responses: {
      "200": { description: "OK", content: { "application/yaml": { schema: { type: "string" } } } },
    },
  },
  {
    method: "GET",
    path: "/sandbox/:id",
    summary: "The sandbox network's page for a published test-mode target (its permalink)",
    responses: {
      "200": { description: "OK", content: { "text/html": { schema: { type: "string" } } } },
      "404": { description: "No such target", content: { "text/html": { schema: { type: "string" } } } },
    },
  },
  {
    method: "GET",
    path: "/shared/reports/:token",
    summary:
      "A report share link's page: one brand's month, read-only, for anyone with the link (no account, noindex)",
    responses: {
      "200": { description: "OK", content: { "text/html": { schema: { type: "string" } } } },
      "404": {
        description: "share_link_invalid: changed, withdrawn, expired, or the org is suspended",
        content: { "text/html": { schema: { type: "string" } } },
      },
    },
  },
  {
    method: "POST",
    path: "/v1/mcp",
    summary:
      "MCP (Model Context Protocol) over Streamable HTTP, stateless: JSON-RPC in, JSON out, 202 for notifications; " +
      "tools act as the sent credential",
    // Not public: the bearer credential is checked before anything else, as on every /v1 route.
    authenticated: true,
    responses: {
      "200": {
        description: "JSON-RPC response",
        content: { "application/json": { schema: { type: "object" } } },
      },
      "202": { description: "Notification accepted" },
      default: { description: "Problem", content: problemRef },
    },
  },
  {
    method: "GET",
    path: "/v1/media/:id/content",
    summary:
      "A medium's bytes by signed link (query expires, for, signature; valid one hour), for networks that fetch media by URL",
    responses: {
      "200": {
        description: "The bytes",
        content: { "application/octet-stream": { schema: { type: "string" } } },
      },
      "404": {
        description: "No such link, or it has expired",
        content: { "application/problem+json": { schema: { type: "object" } } },
      },
    },
  },
  {
    method: "POST",
    path: "/v1/unsubscribe/:id",
    summary:
      "One-click unsubscribe (RFC 8058) from a notification email's List-Unsubscribe header: turns email off for " +
      "that person, org and type; the signed link is the permission and works once",
    responses: {
      "200": {
        description: "Email is off for the link's types",
        content: { "application/json": { schema: { type: "object" } } },
      },
      "404": {
        description: "unsubscribe_link_invalid: changed, used, expired, or not a member any more",
        content: { "application/problem+json": { schema: { type: "object" } } },
      },
    },
  },
  {
    method: "POST",
    path: "/v1/reports/unsubscribe/:id",
    summary:
      "One-click unsubscribe (RFC 8058) from a brand's monthly report email: the address gets no more report " +
      "emails from that brand; the signed link is the permission",
    responses: {
      "200": {
        description: "The address is no longer a recipient",
        content: { "application/json": { schema: { type: "object" } } },
      },
      "404": {
        description: "unsubscribe_link_invalid: changed, or the address no longer gets the report",
        content: { "application/problem+json": { schema: { type: "object" } } },
      },
    },
  },
] as const;

function jsonStatus(values: string[]) {
  return {
    description: values.join(" or "),
    content: {
      "application/json": {
        schema: {
          type: "object",
          properties: { status: { enum: values } },
          required: ["status"],
          additionalProperties: false,
        },
      },
    },
  };
}

// The document is built on first request; its libraries load then, not at start-up.
export async function openApiDocument(
  routes: RouteDef[],
  componentSchemas: Record<string, unknown>,
  publicApi: PublicRouteDef[] = [],
) {
  const { toJsonSchema } = await import("@valibot/to-json-schema");
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, unknown> = { ...componentSchemas };
  for (const r of routes) {
    if (r.response.endsWith("List") && !schemas[r.response])
      schemas[r.response] = listSchema(r.response.slice(0, -4));
    const parameters: unknown[] = [];
    for (const m of r.path.matchAll(/:([A-Za-z_]+)/g))
      parameters.push({ name: m[1], in: "path", required: true, schema: { type: "string" } });
    for (const q of r.query ?? [])
      parameters.push({ name: q, in: "query", required: false, schema: { type: "string" } });
    if (r.list) {
      parameters.push(
        { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 100, default: 20 } },
        { name: "starting_after", in: "query", schema: { type: "string" } },
        { name: "ending_before", in: "query", schema: { type: "string" } },
      );
    }
    if (r.method === "POST")
      parameters.push({
        name: "Idempotency-Key",
        in: "header",
        required: false,
        schema: { type: "string", maxLength: 255 },
      });
    const op: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${toOpenApiPath(r.path)
        .replace(/[{}]/g, "")
        .replace(/[/_](\w)/g, (_, c: string) => c.toUpperCase())}`,
      summary: r.summary,
      tags: [r.tag],
      ...(r.scope ? { "x-scope": r.scope } : {}),
      ...(r.userTokensOnly ? { "x-user-tokens-only": true } : {}),
      parameters,
      responses: {
        [String(r.status ?? 200)]: {
          description: "OK",
          content: {
            [r.produces ?? "application/json"]: { schema: { $ref: `#/components/schemas/${r.response}` } },
          },
        },
        default: { description: "Problem", content: problemRef },
      },
    };
    if (r.body) {
      op.requestBody = {
        required: false,
        content: { "application/json": { schema: toJsonSchema(r.body, { errorMode: "ignore" }) } },
      };
    }
    const path = toOpenApiPath(r.path);
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = op;
  }
  for (const p of publicOperations) {
    const path = toOpenApiPath(p.path);
    paths[path] ??= {};
    paths[path]![p.method.toLowerCase()] = {
      operationId: `${p.method.toLowerCase()}${p.path
        .replace(/\.yaml$/, "")
        .replace(/:/g, "")
        .replace(/[/_.](\w)/g, (_, c: string) => c.toUpperCase())}`,
      ...(p.path.includes(":")
        ? { parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }] }
        : {}),
      summary: p.summary,
      tags: ["authenticated" in p ? "MCP" : "Service"],
      ...("authenticated" in p ? {} : { security: [] }),
      responses: p.responses,
    };
  }
  for (const r of publicApi) {
    const path = toOpenApiPath(r.path);
    paths[path] ??= {};
    paths[path]![r.method.toLowerCase()] = {
      operationId: `${r.method.toLowerCase()}${toOpenApiPath(r.path).replace(/[/_](\w)/g, (_, c: string) => c.toUpperCase())}`,
      summary: r.summary,
      tags: [r.tag],
      security: [],
      parameters: [],
      ...(r.body
        ? {
            requestBody: {
              required: true,
              content: {
                "application/json": { schema: toJsonSchema(r.body, { errorMode: "ignore" }) },
                ...(r.oauth
                  ? {
                      "application/x-www-form-urlencoded": {
                        schema: { type: "object", additionalProperties: { type: "string" } },
                      },
                    }
                  : {}),
              },
            },
          }
        : {}),
      responses: {
        [String(r.status ?? 200)]: {
          description: "OK",
          content: { "application/json": { schema: { $ref: `#/components/schemas/${r.response}` } } },
        },
        ...(r.oauth
          ? {
              "4XX": {
                description: "OAuth error (RFC 6749 §5.2, RFC 8628 §3.5) with the problem fields",
                content: { "application/json": { schema: { $ref: "#/components/schemas/OAuthProblem" } } },
              },
            }
          : {}),
        default: { description: "Problem", content: problemRef },
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "svc API",
      version: pkg.version,
      description: "Multi-tenant publishing service. Authenticate with Authorization: Bearer <key>.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    paths,
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } }, schemas },
  };
}

let cached: string | null = null;
export async function openApiYaml(
  routes: RouteDef[],
  schemas: Record<string, unknown>,
  publicApi: PublicRouteDef[] = [],
): Promise<string> {
  if (cached === null) {
    const YAML = (await import("yaml")).default;
    // Shared schema pieces are written out in full: anchors and aliases trouble client generators.
    cached = YAML.stringify(await openApiDocument(routes, schemas, publicApi), {
      aliasDuplicateObjects: false,
    });
  }
  return cached;
}
