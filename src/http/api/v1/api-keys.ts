import { ApiKeyCreate, ApiKeyRoll } from "../../../domain/identity/api-keys/schema.ts";
import {
  createApiKey,
  listApiKeys,
  revokeApiKey,
  rollApiKey,
} from "../../../domain/identity/api-keys/service.ts";
import { type RouteDef, reply } from "../../route.ts";

export const apiKeyRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/api_keys",
    tag: "API keys",
    summary: "List API keys in the caller's mode",
    scope: "keys:write",
    list: true,
    response: "ApiKeyList",
    handler: ({ app, actor, query }) => listApiKeys(app, actor, query),
  },
  {
    method: "POST",
    secretOnce: true,
    path: "/v1/api_keys",
    tag: "API keys",
    summary: "Create an API key (secret shown once)",
    scope: "keys:write",
    body: ApiKeyCreate,
    response: "ApiKey",
    status: 201,
    handler: async ({ app, actor, body }) => reply(201, await createApiKey(app, actor, body)),
  },
  {
    method: "POST",
    secretOnce: true,
    path: "/v1/api_keys/self/roll",
    tag: "API keys",
    summary: "The calling key rolls itself",
    body: ApiKeyRoll,
    response: "ApiKey",
    status: 201,
    handler: async ({ app, actor, body }) => reply(201, await rollApiKey(app, actor, "self", body)),
  },
  {
    method: "POST",
    secretOnce: true,
    path: "/v1/api_keys/:id/roll",
    tag: "API keys",
    summary: "Roll a key: a new secret; the old one works overlap_hours more",
    scope: "keys:write",
    body: ApiKeyRoll,
    response: "ApiKey",
    status: 201,
    handler: async ({ app, actor, params, body }) =>
      reply(201, await rollApiKey(app, actor, params.id!, body)),
  },
  {
    method: "POST",
    secretOnce: false,
    path: "/v1/api_keys/:id/revoke",
    tag: "API keys",
    summary: "Revoke a key now",
    scope: "keys:write",
    response: "ApiKey",
    handler: ({ app, actor, params }) => revokeApiKey(app, actor, params.id!),
  },
];
