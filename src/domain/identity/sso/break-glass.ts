// An owner's password sign-in past required single sign-on (the provider is down or misconfigured): allowed, and
// written to the audit log of every such org they own, with the address it came from.
import type { App } from "../../../app/context.ts";
import { newId } from "../../../lib/ids.ts";
import { audit } from "../../audit/service.ts";
import { inTx } from "../../tx.ts";
import type { ClientMeta } from "../sessions/service.ts";

export async function auditBreakGlass(app: App, userId: string, orgIds: string[], meta: ClientMeta) {
  const requestId = newId("req");
  await inTx(app, async (tx) => {
    for (const orgId of orgIds)
      await audit(
        tx,
        app,
        {
          kind: "user",
          orgId,
          livemode: false,
          scopes: new Set(),
          brandId: null,
          apiKeyId: null,
          keyScopes: null,
          keyExpiresAt: null,
          userId,
          userTokenId: null,
          role: "owner",
          operator: null,
          requestId,
        },
        { action: "sso.break_glass", target: userId, detail: { ip: meta.ip, user_agent: meta.userAgent } },
      );
  });
}
