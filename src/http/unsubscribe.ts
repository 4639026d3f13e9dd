// POST /v1/unsubscribe/{token}: RFC 8058 one-click unsubscribe. A mail client posts
// `List-Unsubscribe=One-Click` to the List-Unsubscribe address with no cookie and no credential: the signed token
// is the permission. Any bad, used or foreign link is the same 404 unsubscribe_link_invalid.
import type { App } from "../app/context.ts";
import { unsubscribe } from "../domain/notifications/unsubscribe.ts";
import { newId } from "../lib/ids.ts";
import { asServiceError, jsonResponse, problemResponse } from "./respond.ts";

export async function oneClick(app: App, token: string): Promise<Response> {
  const requestId = newId("req");
  try {
    return jsonResponse(200, await unsubscribe(app, token), requestId);
  } catch (e) {
    return problemResponse(app, asServiceError(app, e, requestId), requestId);
  }
}

/** POST /v1/reports/unsubscribe/{token}: the same for a brand's monthly report email. */
export async function reportOneClick(app: App, token: string): Promise<Response> {
  const requestId = newId("req");
  try {
    const { unsubscribeRecipient } = await import("../domain/reports/unsubscribe.ts");
    return jsonResponse(200, await unsubscribeRecipient(app, token), requestId);
  } catch (e) {
    return problemResponse(app, asServiceError(app, e, requestId), requestId);
  }
}
