// Pinterest against a stand-in of its API v5 whose every request and answer is checked against Pinterest's OpenAPI
// description, with tokens from a real authorization server (oidc-provider with Pinterest's paths): the boards a
// sign-in reaches, a live pin through the real publish worker (image, destination link, title from the first line),
// the daily check, and each documented failure classified.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createApp } from "../../../src/domain/apps/create.ts";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { pinFields } from "../../../src/platforms/pinterest/adapter.ts";
import { pinterestAccounts } from "../../../src/platforms/pinterest/signin.ts";
import type { TestApp } from "../../helpers/app.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import { networkApp, publishDirect, publishLive } from "../../helpers/networks.ts";
import { type OAuthServer, oauthServer } from "../../helpers/oauth-server.ts";
import { personActor } from "../../helpers/person.ts";
import { signedInChannel } from "../../helpers/signin.ts";
import { type PinterestStandIn, startPinterest } from "../../stand-ins/pinterest.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";

validationNote();
setDefaultTimeout(30_000);

const CLIENT = { clientId: "pinterest-client", clientSecret: "pinterest-secret" };
const SCOPES = ["boards:read", "pins:read", "pins:write", "user_accounts:read"];

test("a pin's title is the first line when it is short and more text follows; the first link is its destination", () => {
  expect(pinFields("Summer salads\nFive recipes at https://example.com/salads")).toEqual({
    title: "Summer salads",
    description: "Five recipes at https://example.com/salads",
    link: "https://example.com/salads",
  });
  expect(pinFields("Just one line")).toEqual({ title: null, description: "Just one line", link: null });
  const long = `${"a".repeat(101)}\nmore`;
  expect(pinFields(long).title).toBeNull();
});

describeEachDialect("Pinterest adapter", (dialect) => {
  let t: TestApp;
  let a: Tenant;
  let auth: OAuthServer;
  let p: PinterestStandIn;
  let appId: string;
  beforeAll(async () => {
    auth = await oauthServer({
      routes: { authorization: "/oauth/", token: "/v5/oauth/token" },
      scopes: SCOPES,
      pkce: false,
      accessTokenTtl: 30 * 24 * 3600,
    });
    await auth.start({ ...CLIENT, redirectUri: "http://localhost:8080/connect/pinterest/callback" });
    p = await startPinterest(auth);
    t = await networkApp(dialect, {
      pinterest: p.url,
      "pinterest.auth": auth.url,
      "pinterest.token": auth.url,
    });
    a = await tenant(t.app);
    const actor = await personActor(t.app, a.userId, a.orgId, true);
    appId = (
      await createApp(t.app, actor, {
        provider: "pinterest",
        name: "Pins",
        client_id: CLIENT.clientId,
        client_secret: CLIENT.clientSecret,
      })
    ).id;
  });
  afterEach(() => expectClean(p));
  afterAll(async () => {
    await t.close();
    await auth.close();
    p.stop();
  });

  test("the sign-in offers each board (across pages); an account without boards offers none", async () => {
    const names = Array.from({ length: 130 }, (_, i) => `Board ${i + 1}`);
    p.addBoards("many", names);
    const tokens = await auth.issue("many", CLIENT.clientId);
    const r = await pinterestAccounts(t.app, tokens.access_token, new AbortController().signal);
    expect(r.kind).toBe("accounts");
    if (r.kind !== "accounts") return;
    expect(r.accounts.map((x) => x.display_name)).toEqual(names);
    expect(r.accounts[0]!.settings).toEqual({
      board_id: r.accounts[0]!.key,
      board_name: "Board 1",
      username: "many",
    });
    const none = await pinterestAccounts(
      t.app,
      (await auth.issue("empty", CLIENT.clientId)).access_token,
      new AbortController().signal,
    );
    expect(none).toEqual({ kind: "accounts", accounts: [] });
    await auth.revokeGrants("many");
    expect((await pinterestAccounts(t.app, tokens.access_token, new AbortController().signal)).kind).toBe(
      "rejected",
    );
  });

  test("a live pin through the publish worker: the image, the title, the description and the link; the check reads the board", async () => {
    const [board] = p.addBoards("pinner", ["Recipes"]);
    const ch = await signedInChannel(t, a, auth, {
      provider: "pinterest",
      appId,
      clientId: CLIENT.clientId,
      account: "pinner",
      expiresInMs: 30 * 24 * 3600_000,
      shown: {
        key: board!.id,
        display_name: "Recipes",
        handle: "@pinner",
        settings: { board_id: board!.id, username: "pinner" },
      },
    });
    const bytes = await jpeg(600, 400);
    const m = await upload(t, a.liveKey, {
      brand: a.brandId,
      alt: "A bowl of salad",
      file: { bytes, name: "s.jpg", type: "image/jpeg" },
    });
    const post = await publishLive(
      t,
      a,
      ch.id,
      { body: "Summer salads\nFive recipes at https://example.com/salads" },
      [m.body.id],
    );
    expect(post.status).toBe("published");
    const pin = p.pins.at(-1)!;
    expect([pin.board_id, pin.title, pin.description, pin.link, pin.alt_text, pin.content_type]).toEqual([
      board!.id,
      "Summer salads",
      "Five recipes at https://example.com/salads",
      "https://example.com/salads",
      "A bowl of salad",
      "image/jpeg",
    ]);
    expect(pin.bytes.equals(bytes)).toBe(true);
    expect(post.targets[0].permalink).toBe(`https://www.pinterest.com/pin/${pin.id}/`);
    const checked = await adapterFor("pinterest")!.connect!(t.app, {
      livemode: true,
      settings: { board_id: board!.id, username: "pinner" },
      secrets: ch.tokens,
      signal: new AbortController().signal,
    });
    expect(checked).toEqual({
      kind: "connected",
      account: {
        display_name: "Recipes",
        handle: "@pinner",
        profile_url: "https://www.pinterest.com/pinner/",
      },
    });
  });

  test("engagement comes from the pin's lifetime metrics (reactions, comments, impressions); a deleted pin is reported deleted", async () => {
    const [board] = p.addBoards("counter", ["Counted"]);
    const ch = await signedInChannel(t, a, auth, {
      provider: "pinterest",
      appId,
      clientId: CLIENT.clientId,
      account: "counter",
      expiresInMs: 30 * 24 * 3600_000,
      shown: {
        key: board!.id,
        display_name: "Counted",
        settings: { board_id: board!.id, username: "counter" },
      },
    });
    const m = await upload(t, a.liveKey, {
      brand: a.brandId,
      file: { bytes: await jpeg(300, 200), name: "c.jpg", type: "image/jpeg" },
    });
    const post = await publishLive(t, a, ch.id, { body: "Counted pin" }, [m.body.id]);
    expect(post.status).toBe("published");
    const pin = p.pins.at(-1)!;
    pin.metrics = { reaction: 12, comment: 3, impression: 480, pin_click: 9 };
    const input = {
      targetId: post.targets[0].id,
      livemode: true,
      signal: new AbortController().signal,
      channel: {
        id: ch.id,
        provider: "pinterest",
        emulates: null,
        settings: { board_id: board!.id },
        secrets: ch.tokens,
      },
      parts: [{ index: 0, remote_id: pin.id, remote_url: post.targets[0].permalink }],
    };
    const adapter = adapterFor("pinterest")!;
    expect(await adapter.engagement!(t.app, input)).toEqual({
      kind: "counts",
      counts: { likes: 12, reposts: 0, replies: 3, quotes: 0, views: 480 },
    });
    pin.deleted = true;
    expect(await adapter.engagement!(t.app, input)).toEqual({ kind: "deleted" });
  });

  test("delete_published deletes the pin (DELETE /pins/{id}), once; a pin already gone counts as deleted; a refusal is delete_failed", async () => {
    const [board] = p.addBoards("deleter", ["Short-lived"]);
    const ch = await signedInChannel(t, a, auth, {
      provider: "pinterest",
      appId,
      clientId: CLIENT.clientId,
      account: "deleter",
      expiresInMs: 30 * 24 * 3600_000,
      shown: {
        key: board!.id,
        display_name: "Short-lived",
        settings: { board_id: board!.id, username: "deleter" },
      },
    });
    const image = async () =>
      (
        await upload(t, a.liveKey, {
          brand: a.brandId,
          file: { bytes: await jpeg(300, 200), name: "d.jpg", type: "image/jpeg" },
        })
      ).body.id as string;
    const deletes = () => p.requests.filter((q) => q.method === "DELETE").map((q) => q.path);

    const post = await publishLive(t, a, ch.id, { body: "A pin to delete" }, [await image()]);
    expect(post.status).toBe("published");
    const pin = p.pins.at(-1)!;
    const before = deletes().length;
    const d = await t.request("POST", `/v1/posts/${post.id}/delete_published`, { key: a.liveKey });
    expect(d.status).toBe(200);
    expect(d.body.results.map((r: { result: string }) => r.result)).toEqual(["deleted"]);
    expect(pin.deleted).toBe(true);
    expect(deletes().slice(before)).toEqual([`/pins/${pin.id}`]);
    const again = await t.request("POST", `/v1/posts/${post.id}/delete_published`, { key: a.liveKey });
    expect(again.body.results[0].result).toBe("deleted");
    expect(deletes()).toHaveLength(before + 1);

    // Deleted on Pinterest by hand first: still what was asked.
    const gone = await publishLive(t, a, ch.id, { body: "Removed by hand" }, [await image()]);
    p.pins.at(-1)!.deleted = true;
    const g = await t.request("POST", `/v1/posts/${gone.id}/delete_published`, { key: a.liveKey });
    expect(g.body.results[0].result).toBe("deleted");

    // The board moved to another account: Pinterest refuses, and the pin stays.
    const kept = await publishLive(t, a, ch.id, { body: "Not ours any more" }, [await image()]);
    const keptPin = p.pins.at(-1)!;
    board!.owner = "someone-else";
    try {
      const no = await t.request("POST", `/v1/posts/${kept.id}/delete_published`, { key: a.liveKey });
      expect(no.body.results[0]).toMatchObject({ result: "delete_failed" });
      expect(no.body.results[0].message).toContain("Pinterest answered 403");
      expect(keptPin.deleted).toBe(false);
    } finally {
      board!.owner = "deleter";
    }
  });

  test("failures: 429, 401, 500 or a reset after sending (uncertain: a person decides), no image; a pasted connect is refused", async () => {
    const [board] = p.addBoards("failing", ["Fails"]);
    const tokens = await auth.issue("failing", CLIENT.clientId);
    const bytes = await jpeg(300, 200);
    const media = [
      { id: "media_p", mime: "image/jpeg", alt: null, kind: "image" as const, read: async () => bytes },
    ];
    const settings = { board_id: board!.id, username: "failing" };
    const go = (text: string) =>
      publishDirect(t, "pinterest", { settings, secrets: tokens, parts: [text], media });
    p.fail("rate_limited");
    expect((await go("Limited")).outcome).toMatchObject({ kind: "rate_limited", retryAfterMs: 60_000 });
    p.fail("revoked");
    expect((await go("Revoked")).outcome.kind).toBe("auth_revoked");
    p.fail("server_error");
    expect((await go("Broken")).outcome.kind).toBe("uncertain");
    // The connection is cut after Pinterest read the create: the pin exists, the answer is lost.
    const pinsBefore = p.pins.length;
    p.fail("reset_after_read");
    expect((await go("Cut off")).outcome.kind).toBe("uncertain");
    expect(p.pins.length).toBe(pinsBefore + 1);
    const bare = await publishDirect(t, "pinterest", { settings, secrets: tokens, parts: ["No image"] });
    expect(bare.outcome).toMatchObject({ kind: "rejected", code: "media_required" });
    const pasted = await t.request("POST", "/v1/channels", {
      key: a.liveKey,
      body: { brand: a.brandId, provider: "pinterest" },
    });
    expect([pasted.status, pasted.body.code]).toEqual([422, "connect_failed"]);
  });
});
