// CLI sign-in (RFC 8628 device authorization grant) and sign-out. The two device endpoints take no credential.
import { DeviceStart, DeviceTokenRequest } from "../../../domain/identity/devices/schema.ts";
import { once } from "../../../lib/once.ts";
import { bool, nstr, ntime, obj, str, time } from "../../openapi-schemas.ts";
import type { PublicRouteDef } from "../../public-route.ts";

// Each use case loads with its first request (docs/performance.md, "Start and idle memory").
const loadRevokeCurrentUserToken = once(() => import("../../../domain/identity/auth/user-token-service.ts"));

import type { RouteDef } from "../../route.ts";

// The device sign-in loads on its first request, not at start (docs/performance.md, "Start and idle memory").
const loadDevices = once(() => import("../../../domain/identity/devices/service.ts"));

export const authPublicRoutes: PublicRouteDef[] = [
  {
    method: "POST",
    path: "/v1/auth/device",
    tag: "Identity",
    summary: "Start a CLI sign-in: a device code to poll with and a short user code to type on /device",
    body: DeviceStart,
    response: "DeviceAuthorization",
    oauth: true,
    handler: async ({ app, body, ip }) => (await loadDevices()).startDeviceAuthorization(app, body, { ip }),
  },
  {
    method: "POST",
    path: "/v1/auth/device/token",
    tag: "Identity",
    summary: "Poll for the user token: 200 once approved, else 400 authorization_pending, slow_down, ...",
    body: DeviceTokenRequest,
    response: "UserTokenGrant",
    oauth: true,
    handler: async ({ app, body }) => (await loadDevices()).pollDeviceToken(app, body),
  },
];

export const authRoutes: RouteDef[] = [
  {
    method: "DELETE",
    path: "/v1/auth/token",
    tag: "Identity",
    summary: "Revoke the calling user token (svc auth logout)",
    response: "DeletedUserToken",
    handler: async ({ app, actor }) =>
      (await loadRevokeCurrentUserToken()).revokeCurrentUserToken(app, actor),
  },
];

const userToken = obj({
  id: str,
  object: { const: "user_token" },
  name: str,
  hint: str,
  livemode: bool,
  created_at: time,
  last_used_at: ntime,
});

export const authSchemas: Record<string, unknown> = {
  UserToken: userToken,
  DeviceAuthorization: obj({
    device_code: str,
    user_code: { type: "string", pattern: "^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$" },
    verification_uri: str,
    expires_in: { type: "integer" },
    interval: { type: "integer" },
  }),
  UserTokenGrant: obj({
    object: { const: "user_token" },
    access_token: str,
    token_type: { const: "bearer" },
    user_token: userToken,
  }),
  DeletedUserToken: obj({ id: str, object: { const: "user_token" }, deleted: { const: true } }),
  // RFC 6749 §5.2 error beside the problem fields, as application/json (what OAuth clients parse).
  OAuthProblem: {
    type: "object",
    properties: {
      error: {
        enum: [
          "authorization_pending",
          "slow_down",
          "access_denied",
          "expired_token",
          "invalid_grant",
          "invalid_request",
        ],
      },
      error_description: str,
      type: str,
      title: str,
      status: { type: "integer" },
      detail: str,
      code: str,
      param: nstr,
      request_id: str,
      doc_url: str,
    },
    required: ["error", "code", "status", "request_id"],
  },
};
