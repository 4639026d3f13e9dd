// Events and webhook endpoints for tests: an event written the way features write them (recordEvent in a
// transaction, so the outbox hook runs), and an endpoint created through the API.
import type { App } from "../../src/app/context.ts";
import { type RecordedEvent, recordEvent } from "../../src/domain/events/record.ts";
import type { TestApp } from "./app.ts";
import type { Tenant } from "./factories.ts";

export async function testEvent(
  app: App,
  a: Pick<Tenant, "orgId">,
  opts: { type?: string; livemode?: boolean; object?: unknown } = {},
): Promise<RecordedEvent> {
  return app.db
    .transaction()
    .execute((tx) =>
      recordEvent(
        tx,
        app,
        { orgId: a.orgId, livemode: opts.livemode ?? false, requestId: "req_test" },
        opts.type ?? "post.created",
        opts.object ?? { id: "post_test", object: "post" },
      ),
    );
}

export async function testEndpoint(
  t: TestApp,
  a: Tenant,
  body: Record<string, unknown> = {},
  live = false,
): Promise<{ id: string; secret: string; url: string }> {
  const r = await t.request("POST", "/v1/webhook_endpoints", {
    key: live ? a.liveKey : a.testKey,
    body: { url: live ? "https://example.com/hook" : "http://example.com/hook", ...body },
  });
  if (r.status !== 201) throw new Error(`endpoint not created: ${JSON.stringify(r.body)}`);
  return r.body;
}
