// Two brands may share a name (only the slug is unique in an org): every page that picks or shows a brand names it
// with its slug beside it, so the two can be told apart (views/parts.tsx brandLabel).
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";

/** The text of every <option> whose value is a brand ID, by ID. */
function brandOptions(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of html.matchAll(/<option value="(brand_[^"]+)"[^>]*>([^<]*)<\/option>/g))
    out.set(m[1]!, m[2]!.trim());
  return out;
}

describeEachDialect("brands of one name", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let br: TestBrowser;
  let second: string;
  let firstChannel: string;
  let secondChannel: string;
  const posts: string[] = [];
  beforeAll(async () => {
    t = await webApp(dialect);
    a = await tenant(t.app, "Twin Org");
    const b = await t.request("POST", "/v1/brands", {
      key: a.testKey,
      body: { name: "Twin Org Brand", slug: "twin-porto" },
    });
    expect(b.status).toBe(201);
    second = b.body.id;
    // One channel and one scheduled post per brand, so the lists and the home page name both.
    const channel = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: second, provider: "sandbox", emulates: "bluesky" },
    });
    expect(channel.status).toBe(201);
    secondChannel = channel.body.id;
    const first = await t.request("POST", "/v1/channels", {
      key: a.testKey,
      body: { brand: a.brandId, provider: "sandbox", emulates: "mastodon" },
    });
    expect(first.status).toBe(201);
    firstChannel = first.body.id;
    for (const brand of [a.brandId, second]) {
      const p = await t.request("POST", "/v1/posts", {
        key: a.testKey,
        body: {
          brand,
          content: { body: `Post of ${brand}` },
          publish_at: new Date(Date.now() + 3 * 3600_000).toISOString(),
        },
      });
      expect(p.status).toBe(201);
      posts.push(p.body.id);
    }
    br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
  });
  afterAll(() => t.close());

  const labels = () => [`Twin Org Brand (${a.brandSlug})`, "Twin Org Brand (twin-porto)"];

  for (const path of ["/posts", "/queue", "/api-keys"])
    test(`${path}: the brand picker names each brand with its slug`, async () => {
      const page = await br.get(path);
      expect(page.status).toBe(200);
      const options = brandOptions(page.html);
      expect(options.get(a.brandId)).toBe(labels()[0]);
      expect(options.get(second)).toBe(labels()[1]);
    });

  test("the composer's channel groups and the posts list name each brand with its slug", async () => {
    const composer = await br.get("/posts/new");
    for (const label of labels()) expect(composer.html).toContain(`<legend class="brand-name">${label} `);
    const list = await br.get("/posts");
    for (const label of labels()) expect(list.html).toContain(`<span class="muted">${label}</span>`);
  });

  test("home's next posts and a post's page name the brand with its slug", async () => {
    const home = await br.get("/home");
    for (const label of labels())
      expect(home.html).toMatch(new RegExp(`<td>${label.replace(/[()]/g, "\\$&")}</td>`));
    const post = await br.get(`/posts/${posts[1]}`);
    expect(post.html).toContain(`<strong>${labels()[1]}</strong>`);
  });

  test("/posts: with a brand chosen the channel filter lists that brand's channels, without one every brand's", async () => {
    const channelOptions = (html: string) =>
      [...html.matchAll(/<option value="(chan_[^"]+)"/g)].map((m) => m[1]!).sort();
    const apiChannels = async (query: string) =>
      (
        (await t.request("GET", `/v1/channels?limit=100${query}`, { key: a.testKey })).body.data as {
          id: string;
        }[]
      )
        .map((c) => c.id)
        .sort();
    const every = await apiChannels("");
    expect(every).toContain(firstChannel);
    expect(every).toContain(secondChannel);
    const all = await br.get("/posts");
    expect(all.status).toBe(200);
    expect(channelOptions(all.html)).toEqual(every);
    const one = await br.get(`/posts?brand=${second}`);
    expect(one.status).toBe(200);
    expect(channelOptions(one.html)).toEqual(await apiChannels(`&brand=${second}`));
    expect(channelOptions(one.html)).toContain(secondChannel);
    expect(channelOptions(one.html)).not.toContain(firstChannel);
    // The brand's post is listed; the other brand's is not.
    expect(one.html).toContain(`/posts/${posts[1]}`);
    expect(one.html).not.toContain(`/posts/${posts[0]}`);
    // A brand that is not the org's: the picker falls back to every brand's channels.
    const unknown = await br.get("/posts?brand=brand_00000000000000000000000000");
    expect(channelOptions(unknown.html)).toEqual(every);
  });
});
