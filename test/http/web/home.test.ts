// Home, in process: a brand's channels name the network a sandbox channel emulates and their handle, so two
// channels sharing a display name (one account on two networks) can be told apart, in the cards and in the
// next scheduled posts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { bootstrap } from "../../../src/domain/bootstrap/service.ts";
import { resetPassword } from "../../../src/domain/identity/users/service.ts";
import { inTx } from "../../../src/domain/tx.ts";
import type { TestApp } from "../../helpers/app.ts";
import { TestBrowser, webApp } from "../../helpers/browser.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { member, tenant } from "../../helpers/factories.ts";

const PASSWORD = "correct horse battery staple";

describeEachDialect("dashboard home", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await webApp(dialect);
  });
  afterAll(() => t.close());

  test("channels of one name on two networks: each shows its network and handle, the posts say which", async () => {
    const a = await tenant(t.app, "Harbour Bakery");
    const connect = async (emulates: string, handle: string) => {
      const r = await t.request("POST", "/v1/channels", {
        key: a.testKey,
        body: {
          brand: a.brandId,
          provider: "sandbox",
          emulates,
          fields: { display_name: "Harbour Bakery", handle },
        },
      });
      expect(r.status).toBe(201);
      return r.body.id as string;
    };
    const bsky = await connect("bluesky", "@harbour.bsky.social");
    const masto = await connect("mastodon", "@harbour@mastodon.social");
    const post = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        channels: [bsky, masto],
        content: { body: "Fresh sourdough at seven." },
        publish_at: new Date(Date.now() + 3 * 3600_000).toISOString(),
      },
    });
    expect(post.status).toBe(201);

    const br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
    const home = await br.get("/home");
    expect(home.status).toBe(200);
    const cards = home.html.slice(home.html.indexOf('id="brands"'), home.html.indexOf('id="posts"'));
    expect(cards).toContain(
      '<span class="tag">sandbox · bluesky</span> Harbour Bakery <span class="muted handle">@harbour.bsky.social</span>',
    );
    expect(cards).toContain(
      '<span class="tag">sandbox · mastodon</span> Harbour Bakery <span class="muted handle">@harbour@mastodon.social</span>',
    );
    // The text links to the post's page.
    const row =
      /<td class="channels">([^<]*)<\/td>\s*<td class="text"><a href="\/posts\/([^"]+)">Fresh sourdough at seven.<\/a><\/td>/.exec(
        home.html,
      );
    expect(row?.[1]?.split(", ").sort()).toEqual(["Harbour Bakery (bluesky)", "Harbour Bakery (mastodon)"]);
    expect(row?.[2]).toBe(post.body.id);
  });

  test("a post's time is shown in its brand's time zone, with the offset", async () => {
    const a = await tenant(t.app, "Lakeside Books");
    const zone = await t.request("POST", `/v1/brands/${a.brandId}`, {
      key: a.testKey,
      body: { timezone: "America/New_York" },
    });
    expect(zone.status).toBe(200);
    const channel = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    const year = new Date().getUTCFullYear() + 1;
    const post = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: {
        brand: a.brandId,
        channels: [channel],
        content: { body: "Author evening in January." },
        publish_at: `${year}-01-15T23:30:00Z`,
      },
    });
    expect(post.status).toBe(201);
    const br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
    const home = await br.get("/home");
    // 23:30 UTC on the 15th is 18:30 on the same day in New York (EST, five hours behind).
    expect(home.html).toMatch(
      new RegExp(
        `<td class="when">${year}-01-15 18:30 GMT-5</td>\\s*<td>Lakeside Books Brand \\(${a.brandSlug}\\)</td>`,
      ),
    );
  });

  const steps = (html: string) => {
    const at = html.indexOf('id="next-steps"');
    return at < 0 ? null : html.slice(at, html.indexOf("</section>", at));
  };

  test("with nothing scheduled, Home says what to do next: connect a channel where the mode has none, then write a post", async () => {
    const a = await tenant(t.app, "Fresh Start");
    const br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
    // Test mode: bootstrap's sandbox channel is there, so the next step is the post.
    const test = steps((await br.get("/home")).html);
    expect(test).not.toBeNull();
    expect(test).not.toContain('id="step-channel"');
    expect(test).toContain(
      '<li id="step-post"><strong>Write a post</strong>: <a href="/posts/new">open the composer</a>',
    );
    // Live mode has no channel yet: connect one first, on Channels (or with the API and a key).
    const switched = await br.post("/mode", { livemode: "true", back: "/home" });
    expect(switched.status).toBe(303);
    const live = steps((await br.get("/home")).html)!;
    expect(live).toContain('<li id="step-channel"><strong>Connect a channel</strong> in live mode.');
    expect(live).toContain('<a href="/channels">Connect one on Channels</a>');
    expect(live).toContain('<a href="/api-keys">API key</a>');
    expect(live).toContain("<code>POST /v1/channels</code>");
    expect(live).toContain('href="/posts/new"');
  });

  test("the next steps link only to what the role can use", async () => {
    const a = await tenant(t.app, "Quiet Start");
    const email = `viewer-${Math.random().toString(36).slice(2, 7)}@example.com`;
    await member(t.app, a.orgId, email, "viewer");
    const br = new TestBrowser(t);
    await br.signIn(email, PASSWORD);
    await br.get("/home");
    await br.post("/mode", { livemode: "true", back: "/home" });
    const live = steps((await br.get("/home")).html)!;
    expect(live).toContain("Ask an admin of the org to connect one.");
    expect(live).toContain("your role reads posts; an editor or admin writes them.");
    expect(live).not.toContain("href=");
  });

  test("once something is scheduled, the next steps give way to the list", async () => {
    const a = await tenant(t.app, "Busy Start");
    const channel = (await t.request("GET", "/v1/channels", { key: a.testKey })).body.data[0].id;
    const post = await t.request("POST", "/v1/posts", {
      key: a.testKey,
      body: { brand: a.brandId, channels: [channel], content: { body: "Soon." }, publish_at: "next_slot" },
    });
    expect(post.status).toBe(201);
    const br = new TestBrowser(t);
    await br.signIn(a.email, PASSWORD);
    expect(steps((await br.get("/home")).html)).toBeNull();
  });

  test("signed in with the password bootstrap printed, Home asks for a new one until it is changed", async () => {
    const email = `printed-${Math.random().toString(36).slice(2, 7)}@example.com`;
    const b = await bootstrap(t.app, { email, org: "Printed Org", brand: "Printed Brand" });
    expect(b.password).toBeString();
    const br = new TestBrowser(t);
    await br.signIn(email, b.password!);
    const first = await br.get("/home");
    expect(first.html).toContain('id="printed-password"');
    expect(first.html).toContain('<a href="/account/password">Set a new password</a>');
    // Choosing one's own ends the question.
    await br.get("/account/password");
    const changed = await br.post("/account/password", {
      current_password: b.password!,
      password: "a password of my very own",
      password_confirm: "a password of my very own",
    });
    expect(changed.status).toBe(303);
    expect((await br.get("/home")).html).not.toContain('id="printed-password"');
  });

  test("a password the person chose is never questioned; the operator's generated reset is", async () => {
    const email = `chosen-${Math.random().toString(36).slice(2, 7)}@example.com`;
    await bootstrap(t.app, { email, org: "Chosen Org", brand: "Chosen Brand", password: PASSWORD });
    const br = new TestBrowser(t);
    await br.signIn(email, PASSWORD);
    expect((await br.get("/home")).html).not.toContain('id="printed-password"');
    // `svc admin users reset-password` without a password prints a generated one.
    const reset = await inTx(t.app, (tx) => resetPassword(tx, t.app, email));
    const again = new TestBrowser(t);
    await again.signIn(email, reset.password!);
    expect((await again.get("/home")).html).toContain('id="printed-password"');
  });
});
