import {
  TemplateCreate,
  TemplatePreview,
  TemplateUpdate,
  TemplateVersionCreate,
} from "../../../domain/templates/schema.ts";
import { once } from "../../../lib/once.ts";
import { listSchema, nint, obj, str, time } from "../../openapi-schemas.ts";
import { type RouteDef, reply } from "../../route.ts";

// The use cases load on the first request that needs them, not at start (docs/performance.md, "Start and
// idle memory").
const loadPreview = once(() => import("../../../domain/templates/preview.ts"));
const loadTemplates = once(() => import("../../../domain/templates/service.ts"));

export const templateRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/templates",
    tag: "Templates",
    summary: "List templates (without bodies); find one by brand and key",
    scope: "templates:read",
    query: ["brand", "key"],
    list: true,
    response: "TemplateList",
    handler: async ({ app, actor, query }) => (await loadTemplates()).listTemplates(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/templates",
    tag: "Templates",
    summary: "Create a template with its version 1",
    scope: "templates:write",
    body: TemplateCreate,
    response: "Template",
    status: 201,
    handler: async ({ app, actor, body }) =>
      reply(201, await (await loadTemplates()).createTemplate(app, actor, body)),
  },
  {
    method: "POST",
    path: "/v1/templates/preview",
    tag: "Templates",
    summary: "Render a stored template or a source on each network, with every rule broken",
    scope: "templates:read",
    body: TemplatePreview,
    response: "Preview",
    safe: true,
    handler: async ({ app, actor, body }) => (await loadPreview()).previewTemplate(app, actor, body),
  },
  {
    method: "GET",
    path: "/v1/templates/:id",
    tag: "Templates",
    summary: "Get a template with its latest version (and version N with ?version=N)",
    scope: "templates:read",
    query: ["version"],
    response: "Template",
    handler: async ({ app, actor, params, query }) =>
      (await loadTemplates()).getTemplate(app, actor, params.id!, query),
  },
  {
    method: "POST",
    path: "/v1/templates/:id",
    tag: "Templates",
    summary: "Rename a template or change its approval (approval: people only)",
    scope: "templates:write",
    body: TemplateUpdate,
    response: "Template",
    handler: async ({ app, actor, params, body }) =>
      (await loadTemplates()).updateTemplate(app, actor, params.id!, body),
  },
  {
    method: "DELETE",
    path: "/v1/templates/:id",
    tag: "Templates",
    summary: "Delete a template (its key becomes free)",
    scope: "templates:write",
    response: "Deleted",
    handler: async ({ app, actor, params }) => (await loadTemplates()).deleteTemplate(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/templates/:id/versions",
    tag: "Templates",
    summary: "Publish a new immutable version of a template",
    scope: "templates:write",
    body: TemplateVersionCreate,
    response: "Template",
    status: 201,
    handler: async ({ app, actor, params, body }) =>
      reply(201, await (await loadTemplates()).createTemplateVersion(app, actor, params.id!, body)),
  },
];

const providerMap = (values: unknown) => ({ type: "object", additionalProperties: values });
const version = obj(
  {
    variables: { type: "object" },
    examples: { type: "array" },
    body: str,
    overrides: providerMap(str),
    fit: providerMap({ enum: ["error", "truncate", "thread"] }),
    version: { type: "integer", minimum: 1 },
    created_at: time,
  },
  ["variables", "examples", "body", "overrides", "fit", "version", "created_at"],
);
const summary = {
  id: str,
  object: { const: "template" },
  brand: str,
  key: str,
  name: str,
  approval: { enum: ["inherit", "required", "not_required"] },
  latest_version: { type: "integer", minimum: 1 },
  created_at: time,
  updated_at: time,
};

/** Response shapes of the template routes, merged into v1Schemas. */
export const templateSchemas: Record<string, unknown> = {
  TemplateSummary: obj(summary),
  TemplateList: listSchema("TemplateSummary"),
  // `version` is there only when ?version=N asked for it.
  Template: obj({ ...summary, latest: version, version }, [...Object.keys(summary), "latest"]),
  Preview: obj({
    object: { const: "preview" },
    valid: { type: "boolean" },
    renditions: {
      type: "array",
      items: obj({
        provider: str,
        channel: { type: ["string", "null"] },
        parts: { type: "array", items: str },
        lengths: { type: "array", items: { type: "integer" } },
        limit: nint,
        counting: { enum: ["characters", "graphemes", "x_weighted", "mastodon", "bluesky"] },
        violations: {
          type: "array",
          items: obj({
            code: str,
            message: str,
            part: nint,
            media: { type: ["string", "null"] },
            length: nint,
            limit: nint,
          }),
        },
        notices: {
          type: "array",
          items: obj({ code: str, message: str, media: { type: ["string", "null"] } }),
        },
      }),
    },
  }),
};
