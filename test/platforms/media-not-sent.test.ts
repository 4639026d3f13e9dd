// A Slack incoming webhook cannot carry files: a post whose part carries media is refused there (media_rejected)
// before anything reaches the network, never published without its images. (The preview refuses it first: the
// Slack adapter's test; bot-token channels upload files.)
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../helpers/app.ts";
import { describeEachDialect } from "../helpers/db.ts";
import { networkApp, publishDirect } from "../helpers/networks.ts";

const CASES: [string, Record<string, string>, Record<string, string>][] = [
  ["slack", {}, { webhook_url: "https://hooks.slack.com/services/T0001/B0001/abcdefghijklmnop" }],
];

describeEachDialect("media are refused, not dropped", (dialect) => {
  let t: TestApp;
  let received = 0;
  let server: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch() {
        received++;
        return new Response("{}", { status: 500 });
      },
    });
    const url = `http://127.0.0.1:${server.port}`;
    t = await networkApp(dialect, {
      slack: url,
      "slack.hooks": url,
    });
  });
  afterAll(async () => {
    await t.close();
    server.stop(true);
  });

  for (const [provider, settings, secrets] of CASES)
    test(provider, async () => {
      const r = await publishDirect(t, provider, {
        settings,
        secrets,
        parts: ["With a picture"],
        media: [{ id: "media_0000000000000000000000000a", mime: "image/png", alt: "A chart" }],
      });
      expect(r.outcome).toMatchObject({ kind: "rejected", code: "media_rejected" });
      expect(r.parts).toEqual([]);
      expect(received).toBe(0);
    });
});
