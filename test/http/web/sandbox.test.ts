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

  test("names the channel and the brand (with its slug), reads times in the brand's zone, links to the dashboard's post", async () => {
    const b = await tenant(t.app, "Zone Org");
    const zone = await t.request("POST", `/v1/brands/${b.brandId}`, {
      key: b.testKey,
      body: { timezone: "America/New_York" },
    });
    expect(zone.status).toBe(200);
    const channel = (await t.request("GET", "/v1/channels", { key: b.testKey })).body.data[0];
    const post = await t.request("POST", "/v1/posts", {
      key: b.testKey,
      body: {
        brand: b.brandId,
        channels: [channel.id],
        content: { body: "Evening opening." },
        publish_at: new Date(Date.now() + 3 * 3600_000).toISOString(),
      },
    });
    expect(post.status).toBe(201);
    const targetId = post.body.targets[0].id as string;
    await sandboxAdapter.publish(t.app, {
      targetId,
      postId: post.body.id,
      livemode: false,
      attempt: 1,
      channel: { id: channel.id, provider: "sandbox", emulates: "bluesky", settings: {}, secrets: {} },
      parts: [{ index: 0, text: "Evening opening.", media: [] }],
      done: [],
      metadata: {},
      signal: new AbortController().signal,
      onPartPublished: async () => {},
    });
    const r = await get(`/sandbox/${targetId}`);
    expect(r.status).toBe(200);
    expect(r.html).toContain(`On <strong>${channel.display_name}</strong>`);
    expect(r.html).toContain(`for the brand <strong>Zone Org Brand</strong> (${b.brandSlug})`);
    expect(r.html).toContain("Times are in America/New_York.");
    // The time the part was posted, read in New York, with its offset (GMT-5 or GMT-4 by the season).
    const at = /<time datetime="([^"]+)">([^<]+)<\/time>/.exec(r.html);
    expect(at?.[2]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} GMT-[45]$/);
    const utc = new Date(at![1]!);
    const offset = Number(at![2]!.slice(-1));
    const local = new Date(utc.getTime() - offset * 3600_000).toISOString().replace("T", " ").slice(0, 16);
    expect(at?.[2]).toBe(`${local} GMT-${offset}`);
    // The link back is there for everyone; the dashboard asks whoever is not signed in to sign in.
    expect(r.html).toContain(`<a href="/posts/${post.body.id}">Open this post in the dashboard</a>`);
    const dashboard = await t.http.handle(new Request(`http://localhost/posts/${post.body.id}`));
    expect(dashboard.status).toBe(303);
    expect(dashboard.headers.get("location")).toStartWith("/signin");
  });
});
