import { ChannelCreate, ChannelReconnect, ChannelUpdate } from "../../../domain/channels/schema.ts";
import {
  createChannel,
  deleteChannel,
  getChannel,
  listChannels,
  reconnectChannel,
  updateChannel,
} from "../../../domain/channels/service.ts";
import { providers } from "../../../platforms/types.ts";
import { type RouteDef, reply } from "../../route.ts";

export const channelRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/channels",
    tag: "Channels",
    summary: "List channels in the caller's mode, optionally of one brand",
    scope: "channels:read",
    query: ["brand"],
    list: true,
    response: "ChannelList",
    handler: ({ app, actor, query }) => listChannels(app, actor, query),
  },
  {
    method: "POST",
    path: "/v1/channels",
    tag: "Channels",
    summary: "Connect a channel (test mode: sandbox only; live mode: real networks only)",
    scope: "channels:write",
    body: ChannelCreate,
    response: "Channel",
    status: 201,
    handler: async ({ app, actor, body }) => reply(201, await createChannel(app, actor, body)),
  },
  {
    method: "GET",
    path: "/v1/channels/:id",
    tag: "Channels",
    summary: "Get a channel",
    scope: "channels:read",
    response: "Channel",
    handler: ({ app, actor, params }) => getChannel(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/channels/:id",
    tag: "Channels",
    summary: "Enable or disable a channel (one needing reauth is reconnected instead)",
    scope: "channels:write",
    body: ChannelUpdate,
    response: "Channel",
    handler: ({ app, actor, params, body }) => updateChannel(app, actor, params.id!, body),
  },
  {
    method: "DELETE",
    path: "/v1/channels/:id",
    tag: "Channels",
    summary: "Remove a channel",
    scope: "channels:write",
    response: "Deleted",
    handler: ({ app, actor, params }) => deleteChannel(app, actor, params.id!),
  },
  {
    method: "POST",
    path: "/v1/channels/:id/reconnect",
    tag: "Channels",
    summary: "Give a channel new connect fields; one needing reauth becomes active",
    scope: "channels:write",
    body: ChannelReconnect,
    response: "Channel",
    handler: ({ app, actor, params, body }) => reconnectChannel(app, actor, params.id!, body),
  },
];

const str = { type: "string" } as const;
const nstr = { type: ["string", "null"] } as const;

export const channelSchemas: Record<string, unknown> = {
  Channel: {
    type: "object",
    properties: {
      id: str,
      object: { const: "channel" },
      brand: str,
      livemode: { type: "boolean" },
      provider: { enum: providers },
      emulates: { oneOf: [{ type: "null" }, { enum: providers }] },
      display_name: str,
      handle: nstr,
      profile_url: nstr,
      settings: { type: "object", additionalProperties: str },
      status: { enum: ["active", "needs_reauth", "disabled"] },
      status_note: nstr,
      checked_at: { type: ["string", "null"], format: "date-time" },
      check_error: nstr,
      created_at: { type: "string", format: "date-time" },
    },
    required: [
      "id",
      "object",
      "brand",
      "livemode",
      "provider",
      "emulates",
      "display_name",
      "handle",
      "profile_url",
      "settings",
      "status",
      "status_note",
      "checked_at",
      "check_error",
      "created_at",
    ],
    additionalProperties: false,
  },
};
