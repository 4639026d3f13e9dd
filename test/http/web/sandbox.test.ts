// GET /sandbox/<target id>: the public permalink page of a sandbox post.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newId } from "../../../src/lib/ids.ts";
import { sandboxAdapter } from "../../../src/platforms/sandbox/adapter.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

describeEachDialect("sandbox permalink page", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  beforeAll(async () => {
    t = await testApp(dialect);
    a = await tenant(t.app, "Page Org");
  });
  afterAll(() => t.close());

  const get = async (path: string) => {
    const res = await t.http.handle(new Request(`http://localhost${path}`));
    return { status: res.status, headers: res.headers, html: await res.text() };
  };

  test("shows every posted part, escaped, with no credential", async () => {
    const channel = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0];
    const targetId = newId("ptgt");
    const outcome = await sandboxAdapter.publish(t.app, {
      targetId,
      postId: newId("post"),
      livemode: false,
      attempt: 1,
      channel: { id: channel.id, provider: "sandbox", emulates: "bluesky", settings: {}, secrets: {} },
      parts: [
        { index: 0, text: `<script>alert("x")</script> & friends`, media: [] },
        {
          index: 1,
          text: "Part two\nwith a line",
          media: [{ id: "media_0000000000000000000000000b", mime: "image/jpeg", alt: "<b>bold</b>" }],
        },
      ],
      done: [],
      metadata: {},
      signal: new AbortController().signal,
      onPartPublished: async () => {},
    });
    expect(outcome).toEqual({ kind: "published", permalink: `http://localhost:8080/sandbox/${targetId}` });
    const r = await get(`/sandbox/${targetId}`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; media-src http://localhost:8080",
    );
    expect(r.headers.get("x-frame-options")).toBe("DENY");
    expect(r.headers.get("request-id")).toMatch(/^req_/);
    expect(r.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; friends");
    expect(r.html).not.toContain("<script>");
    expect(r.html).toContain("&lt;b&gt;bold&lt;/b&gt;");
    expect(r.html).toContain(`id="part-1-0"`);
    expect(r.html).toContain("Part 2 · attempt 1");
    expect(r.html).toContain("Part two\nwith a line");
  });

  test("an unknown or malformed target ID is a 404 page", async () => {
    const unknown = await get(`/sandbox/${newId("ptgt")}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(unknown.html).toContain("Nothing was posted to the sandbox under this link.");
    const malformed = await get("/sandbox/<img>");
    expect(malformed.status).toBe(404);
    expect(malformed.html).not.toContain("<img>");
    const wrongMethod = await t.http.handle(
      new Request(`http://localhost/sandbox/${newId("ptgt")}`, { method: "POST" }),
    );
    expect(wrongMethod.status).toBe(405);
  });
});
