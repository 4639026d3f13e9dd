// Response shapes for the OpenAPI document, as JSON Schema. Tests validate real responses against them, so a
// presenter and its documented shape cannot drift apart.
import { EVENT_TYPES } from "../domain/events/types.ts";

// JSON Schema pieces the route files share for their response shapes.
export const str = { type: "string" } as const;
export const nstr = { type: ["string", "null"] } as const;
export const time = { type: "string", format: "date-time" } as const;
export const ntime = { type: ["string", "null"], format: "date-time" } as const;
export const bool = { type: "boolean" } as const;
export const nint = { type: ["integer", "null"] } as const;
/** A closed object; every property is required unless `required` says otherwise. */
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

const slot = obj({
  weekday: { enum: ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] },
  time: { type: "string", pattern: "^\\d\\d:\\d\\d$" },
});

const apiKey = obj(
  {
    id: str,
    object: { const: "api_key" },
    name: str,
    hint: str,
    livemode: bool,
    scopes: { type: "array", items: str },
    brand: nstr,
    secret: str,
    created_at: time,
    last_used_at: ntime,
    expires_at: ntime,
    revoked_at: ntime,
  },
  [
    "id",
    "object",
    "name",
    "hint",
    "livemode",
    "scopes",
    "brand",
    "created_at",
    "last_used_at",
    "expires_at",
    "revoked_at",
  ],
);

export const componentSchemas: Record<string, unknown> = {
  Problem: {
    type: "object",
    properties: {
      type: str,
      title: str,
      status: { type: "integer" },
      detail: str,
      code: str,
      param: nstr,
      request_id: str,
      doc_url: str,
      details: {},
      errors: { type: "array", items: obj({ code: str, param: nstr, message: str, detail: {} }) },
    },
    required: ["type", "title", "status", "detail", "code", "request_id"],
  },
  EventType: { type: "string", enum: EVENT_TYPES },
  Me: {
    type: "object",
    properties: {
      object: { const: "me" },
      livemode: bool,
      org: obj({ id: str, name: str }),
      role: nstr,
      api_key: { $ref: "#/components/schemas/ApiKey" },
      user: obj({ id: str, object: { const: "user" }, email: str, name: nstr }),
      user_token: {
        oneOf: [
          { type: "null" },
          obj({
            id: str,
            object: { const: "user_token" },
            name: str,
            hint: str,
            livemode: bool,
            created_at: time,
          }),
        ],
      },
    },
    required: ["object", "livemode", "org", "role"],
    additionalProperties: false,
  },
  ApiKey: apiKey,
  Brand: obj({
    id: str,
    object: { const: "brand" },
    name: str,
    slug: str,
    timezone: str,
    approval_policy: { enum: ["none", "required_for_editors_and_keys", "required_for_all"] },
    utm_domains: { type: "array", items: str },
    slots: { type: "array", items: slot },
    email_theme: obj({ logo: nstr, accent: str, postal_address: str, footer: str }),
    created_at: time,
    updated_at: time,
  }),
  AuditEvent: obj({
    id: str,
    object: { const: "audit_event" },
    action: str,
    target: nstr,
    user: nstr,
    api_key: nstr,
    user_token: nstr,
    operator: nstr,
    review_link: nstr,
    outcome: { enum: ["success", "denied"] },
    request_id: nstr,
    detail: {},
    created_at: time,
  }),
  Event: obj({
    id: str,
    object: { const: "event" },
    type: { $ref: "#/components/schemas/EventType" },
    livemode: bool,
    request_id: nstr,
    created_at: time,
    data: obj({ object: {}, previous_attributes: { type: "object" } }, ["object"]),
  }),
  Deleted: obj({ id: str, object: str, deleted: { const: true } }),
};

/** `XList` names the list envelope of X. */
export function listSchema(item: string) {
  return obj({
    object: { const: "list" },
    data: { type: "array", items: { $ref: `#/components/schemas/${item}` } },
    has_more: bool,
    url: str,
  });
}
