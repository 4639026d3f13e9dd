// Mastodon and Gab against a local stand-in Mastodon server whose every request and answer is checked against
// the Mastodon API description: connecting reads the account, a live post goes out through the real publish
// worker (a thread as a reply chain), each documented failure is classified, Mastodon's Idempotency-Key makes a
// repeat harmless, an uncertain attempt is settled by `find`, engagement is read, and images are uploaded
// (POST /api/v2/media, waiting while the server processes them) and attached by media_ids; a video is streamed
// from the bucket into its upload and arrives whole.
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { adapterFor } from "../../../src/platforms/adapter-registry.ts";
import { type TestApp, testApp } from "../../helpers/app.ts";
import { dialects } from "../../helpers/db.ts";
import { type Tenant, tenant } from "../../helpers/factories.ts";
import { jpeg, upload } from "../../helpers/media.ts";
import {
  connectLive,
  drain,
  liveVideo,
  networkApp,
  publishDirect,
  publishLive,
} from "../../helpers/networks.ts";
import { type LocalS3, localS3 } from "../../helpers/s3.ts";
import { sha256 } from "../../helpers/video.ts";
import { type MastodonAccount, type MastodonStandIn, startMastodon } from "../../stand-ins/mastodon.ts";
import { expectClean } from "../../stand-ins/server.ts";
import { validationNote } from "../../stand-ins/spec.ts";

validationNote();
// A stand-in compiles its description's validators on first use: seconds on a busy machine.
setDefaultTimeout(30_000);

for (const dialect of dialects) {
  for (const provider of ["mastodon", "gab"] as const) {
    describe(`${provider} adapter (${dialect})`, () => {
      let t: TestApp;
      let a: Tenant;
      let m: MastodonStandIn;
      let me: MastodonAccount;
      let s3: LocalS3;
      const adapter = adapterFor(provider)!;
      // Mastodon's server is the channel's own field; Gab has one server, pointed at the stand-in.
      const settings = (): Record<string, string> => (provider === "mastodon" ? { instance: m.url } : {});
      const fields = () => ({ ...settings(), access_token: me.token });
      const mine = () => m.statuses.filter((s) => s.account_id === me.id);

      beforeAll(async () => {
        m = await startMastodon({ gab: provider === "gab" });
        me = m.addAccount("svcbot", "Svc Bot");
        // Video lives in a bucket.
        s3 = await localS3();
        t = await networkApp(dialect, provider === "gab" ? { gab: m.url } : {}, s3.env);
        a = await tenant(t.app);
      });
      afterEach(() => expectClean(m));
      afterAll(async () => {
        await t.close();
        m.stop();
        await s3.close();
      });

      test("connect verifies the token and reads the account", async () => {
        const r = await adapter.connect!(t.app, {
          livemode: true,
          settings: settings(),
          secrets: { access_token: me.token },
          signal: new AbortController().signal,
        });
        expect(r).toEqual({
          kind: "connected",
          account: {
            display_name: "Svc Bot",
            handle: `@svcbot@${m.host}`,
            profile_url: `${m.url}/@svcbot`,
          },
          settings: { ...settings(), account_id: me.id },
        });
        const bad = await adapter.connect!(t.app, {
          livemode: true,
          settings: settings(),
          secrets: { access_token: "not-a-token" },
          signal: new AbortController().signal,
        });
        expect(bad.kind).toBe("rejected");
        expect(bad.kind === "rejected" && bad.message).toContain("The access token is invalid");
      });

      test("a live post goes out through the publish worker; a thread is a reply chain", async () => {
        const ch = await connectLive(t, a, provider, fields());
        const before = mine().length;
        const text = "Release notes: https://example.com/a_b?x=1&y=2 <b>not bold</b>";
        const one = await publishLive(t, a, ch.id, { body: text });
        expect(one.targets[0].status).toBe("published");
        const posted = mine().slice(before);
        expect(posted.map((s) => s.text)).toEqual([text]);
        expect(one.targets[0].permalink).toBe(`${m.url}/@svcbot/${posted[0]!.id}`);

        const thread = await publishLive(t, a, ch.id, { parts: ["First", "Second", "Third"] });
        expect(thread.targets[0].status).toBe("published");
        const chain = mine().slice(before + 1);
        expect(chain.map((s) => s.text)).toEqual(["First", "Second", "Third"]);
        expect(chain.map((s) => s.in_reply_to_id)).toEqual([null, chain[0]!.id, chain[1]!.id]);
        expect(thread.targets[0].permalink).toBe(`${m.url}/@svcbot/${chain[0]!.id}`);
        // Mastodon gets a key per target and part; Gab is sent none.
        const keys = m.requests
          .filter((r) => r.method === "POST" && r.path === "/api/v1/statuses")
          .map((r) => r.headers["idempotency-key"]);
        if (provider === "mastodon") {
          expect(keys.slice(-3)).toEqual([0, 1, 2].map((i) => `svc-${thread.targets[0].id}-${i}`));
        } else expect(keys.every((k) => k === undefined)).toBe(true);
      });

      test("a first comment is the account's own reply to the post, right after it", async () => {
        const ch = await connectLive(t, a, provider, fields());
        const before = mine().length;
        const r = await t.request("POST", "/v1/posts", {
          key: a.liveKey,
          body: {
            brand: a.brandId,
            channels: [ch.id],
            content: { body: "Spring release" },
            first_comment: "Changelog: https://example.com/changes",
          },
        });
        expect(r.status).toBe(201);
        await drain(t);
        const target = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.liveKey })).body.targets[0];
        expect([target.status, target.first_comment.status]).toEqual(["published", "published"]);
        const posted = mine().slice(before);
        expect(posted.map((s) => s.text)).toEqual([
          "Spring release",
          "Changelog: https://example.com/changes",
        ]);
        expect(posted[1]!.in_reply_to_id).toBe(posted[0]!.id);
        expect(target.permalink).toBe(`${m.url}/@svcbot/${posted[0]!.id}`);
        expect(target.first_comment.permalink).toBe(`${m.url}/@svcbot/${posted[1]!.id}`);
      });

      test("delete_published deletes the post and its first comment, once", async () => {
        const ch = await connectLive(t, a, provider, fields());
        const r = await t.request("POST", "/v1/posts", {
          key: a.liveKey,
          body: {
            brand: a.brandId,
            channels: [ch.id],
            content: { body: "Short-lived" },
            first_comment: "Reply",
          },
        });
        await drain(t);
        const ids = (await t.request("GET", `/v1/posts/${r.body.id}`, { key: a.liveKey })).body.targets[0];
        expect(ids.status).toBe("published");
        const posted = mine()
          .filter((s) => s.text === "Short-lived" || s.text === "Reply")
          .slice(-2);
        expect(posted.every((s) => !s.deleted)).toBe(true);
        const d = await t.request("POST", `/v1/posts/${r.body.id}/delete_published`, { key: a.liveKey });
        expect(d.status).toBe(200);
        if (provider === "mastodon") {
          expect(d.body.results.map((x: { result: string }) => x.result)).toEqual(["deleted"]);
          expect(posted.map((s) => s.deleted)).toEqual([true, true]);
          const deletes = m.requests.filter((q) => q.method === "DELETE").map((q) => q.path);
          expect(deletes.slice(-2)).toEqual([
            `/api/v1/statuses/${posted[1]!.id}`,
            `/api/v1/statuses/${posted[0]!.id}`,
          ]);
          const again = await t.request("POST", `/v1/posts/${r.body.id}/delete_published`, {
            key: a.liveKey,
          });
          expect(again.body.results[0].result).toBe("deleted");
          expect(m.requests.filter((q) => q.method === "DELETE")).toHaveLength(deletes.length);
        } else {
          expect(d.body.results.map((x: { result: string }) => x.result)).toEqual(["delete_unsupported"]);
          expect(posted.every((s) => !s.deleted)).toBe(true);
        }
      });

      test("a live post with images: uploaded with their descriptions, attached to the status", async () => {
        const ch = await connectLive(t, a, provider, fields());
        const chart = await upload(t, a.liveKey, {
          brand: a.brandId,
          alt: "Orange bar chart of Q3",
          file: { bytes: await jpeg(400, 300), name: "chart.jpg", type: "image/jpeg" },
        });
        const plain = await upload(t, a.liveKey, {
          brand: a.brandId,
          file: { bytes: await jpeg(200, 200), name: "plain.jpg", type: "image/jpeg" },
        });
        expect([chart.status, plain.status]).toEqual([201, 201]);
        const target = (
          await publishLive(t, a, ch.id, { body: "Quarterly numbers" }, [chart.body.id, plain.body.id])
        ).targets[0];
        expect(target.status).toBe("published");
        const status = mine().at(-1)!;
        expect(status.text).toBe("Quarterly numbers");
        expect(target.permalink).toBe(`${m.url}/@svcbot/${status.id}`);
        // Read back as a client would: the status with its attachments, in order, with their descriptions.
        const read = await fetch(`${m.url}/api/v1/statuses/${status.id}`, {
          headers: { authorization: `Bearer ${me.token}` },
        });
        const json = (await read.json()) as {
          media_attachments: { id: string; type: string; description: string | null }[];
        };
        expect(json.media_attachments.map((x) => [x.type, x.description])).toEqual([
          ["image", "Orange bar chart of Q3"],
          ["image", null],
        ]);
        const files = json.media_attachments.map((x) => m.media.find((y) => y.id === x.id)!.file);
        expect(files.map((f) => f.type)).toEqual(["image/jpeg", "image/jpeg"]);
        const { default: sharp } = await import("sharp");
        const sizes = await Promise.all(files.map(async (f) => (await sharp(f.bytes).metadata()).width));
        expect(sizes).toEqual([400, 200]);
      });

      test("a live post with a video: streamed from the bucket into its upload, it arrives whole", async () => {
        const ch = await connectLive(t, a, provider, fields());
        const { id: clip, bytes } = await liveVideo(t, a, "Launch clip");
        const target = (await publishLive(t, a, ch.id, { body: "We launched" }, [clip])).targets[0];
        expect(target.status).toBe("published");
        const status = mine().at(-1)!;
        expect(status.text).toBe("We launched");
        expect(target.permalink).toBe(`${m.url}/@svcbot/${status.id}`);
        const video = m.media.find((x) => x.id === status.media_ids[0])!;
        expect([video.file.type, video.description, video.file.bytes.length]).toEqual([
          "video/mp4",
          "Launch clip",
          bytes.length,
        ]);
        expect(sha256(video.file.bytes)).toBe(sha256(bytes));
        // Sent with its length announced, not chunked.
        const sent = m.requests.filter((x) => x.method === "POST" && x.path === "/api/v2/media").at(-1)!;
        expect(sent.headers["transfer-encoding"]).toBeUndefined();
        expect(Number(sent.headers["content-length"])).toBeGreaterThan(bytes.length);
      });

      test("an upload still processing (202) is waited for; a refused file is media_rejected with nothing posted", async () => {
        const slow = await startMastodon({ gab: provider === "gab", asyncMedia: 2 });
        const who = slow.addAccount("slowbot");
        const app = await networkApp(dialect, provider === "gab" ? { gab: slow.url } : {});
        try {
          const where = provider === "mastodon" ? { instance: slow.url } : {};
          const bytes = await jpeg(50, 40);
          const picture = {
            id: "media_0000000000000000000000000p",
            mime: "image/jpeg",
            alt: "A small picture",
            kind: "image" as const,
            read: async () => new Uint8Array(bytes),
          };
          const ok = await publishDirect(app, provider, {
            settings: where,
            secrets: { access_token: who.token },
            parts: ["Processed first"],
            media: [picture],
          });
          expect(ok.outcome).toMatchObject({ kind: "published" });
          const polls = slow.requests.filter(
            (r) => r.method === "GET" && r.path.startsWith("/api/v1/media/"),
          );
          expect(polls.length).toBe(3);
          expect(slow.statuses.map((x) => x.media_ids)).toEqual([[slow.media[0]!.id]]);

          const refused = await publishDirect(app, provider, {
            settings: where,
            secrets: { access_token: who.token },
            parts: ["Not a picture"],
            media: [{ ...picture, mime: "application/pdf" }],
          });
          expect(refused.outcome).toMatchObject({ kind: "rejected", code: "media_rejected" });
          expect(refused.outcome.kind === "rejected" && refused.outcome.message).toContain(
            "File content type is invalid",
          );
          expect(slow.statuses.length).toBe(1);
          expectClean(slow);
        } finally {
          await app.close();
          slow.stop();
        }
      });

      test("documented failures are classified", async () => {
        const secrets = { access_token: me.token };
        m.fail("rate_limited");
        const limited = await publishDirect(t, provider, { settings: settings(), secrets, parts: ["x"] });
        expect(limited.outcome.kind).toBe("rate_limited");
        const wait = limited.outcome.kind === "rate_limited" ? limited.outcome.retryAfterMs : 0;
        // X-RateLimit-Reset is two minutes ahead.
        expect(wait).toBeGreaterThan(100_000);
        expect(wait).toBeLessThanOrEqual(120_000);

        m.fail("revoked");
        expect(
          (await publishDirect(t, provider, { settings: settings(), secrets, parts: ["x"] })).outcome,
        ).toEqual({
          kind: "auth_revoked",
          message: `${adapterName(provider)} answered 401 to part 1: The access token was revoked`,
        });
        m.fail("server_error");
        expect(
          (await publishDirect(t, provider, { settings: settings(), secrets, parts: ["x"] })).outcome.kind,
        ).toBe("transient");
        const tooLong = await publishDirect(t, provider, {
          settings: settings(),
          secrets,
          parts: ["y".repeat(provider === "gab" ? 3001 : 501)],
        });
        expect(tooLong.outcome).toMatchObject({ kind: "rejected", code: "rejected" });
        expect(tooLong.outcome.kind === "rejected" && tooLong.outcome.message).toContain("character limit");

        const before = mine().length;
        m.fail("reset_after_read");
        const cut = await publishDirect(t, provider, { settings: settings(), secrets, parts: ["Cut off"] });
        expect(cut.outcome.kind).toBe("uncertain");
        // The server did post it.
        expect(mine().length).toBe(before + 1);
      });

      test("an uncertain attempt: Mastodon's key makes the repeat harmless; find settles it on both", async () => {
        const secrets = { access_token: me.token };
        const targetId = `ptgt_uncertain_${provider}_${dialect}`;
        const since = Date.now();
        const before = mine().length;
        m.fail("reset_after_read");
        const first = await publishDirect(t, provider, {
          settings: settings(),
          secrets,
          parts: ["Maybe posted"],
          targetId,
        });
        expect(first.outcome.kind).toBe("uncertain");
        expect(mine().length).toBe(before + 1);

        const found = await adapter.find!(t.app, {
          targetId,
          livemode: true,
          channel: { id: "chan_x", provider, emulates: null, settings: settings(), secrets },
          signal: new AbortController().signal,
          parts: [{ index: 0, text: "Maybe posted", media: [] }],
          done: [],
          since,
        });
        const status = mine()[before]!;
        expect(found).toEqual({
          kind: "found",
          permalink: `${m.url}/@svcbot/${status.id}`,
          parts: [{ index: 0, remote_id: status.id, remote_url: `${m.url}/@svcbot/${status.id}` }],
        });
        const missing = await adapter.find!(t.app, {
          targetId,
          livemode: true,
          channel: { id: "chan_x", provider, emulates: null, settings: settings(), secrets },
          signal: new AbortController().signal,
          parts: [{ index: 0, text: "Never sent", media: [] }],
          done: [],
          since,
        });
        expect(missing).toEqual({ kind: "not_found" });

        const again = await publishDirect(t, provider, {
          settings: settings(),
          secrets,
          parts: ["Maybe posted"],
          targetId,
        });
        expect(again.outcome.kind).toBe("published");
        if (provider === "mastodon") {
          expect(adapter.idempotent).toBe(true);
          // The same Idempotency-Key: the server answers with the first status and posts nothing new.
          expect(mine().length).toBe(before + 1);
          expect(again.parts[0]!.remote_id).toBe(status.id);
        } else {
          expect(adapter.idempotent).toBe(false);
          expect(mine().length).toBe(before + 2);
        }
      });

      test("engagement reads the counts of the first part; a deleted status is deleted", async () => {
        const secrets = { access_token: me.token };
        const r = await publishDirect(t, provider, {
          settings: settings(),
          secrets,
          parts: ["Count me", "And me"],
        });
        const status = m.statuses.find((s) => s.id === r.parts[0]!.remote_id)!;
        status.favourites_count = 7;
        status.reblogs_count = 3;
        const input = {
          targetId: "ptgt_e",
          livemode: true,
          channel: { id: "chan_x", provider, emulates: null, settings: settings(), secrets },
          signal: new AbortController().signal,
          parts: r.parts,
        };
        expect(await adapter.engagement!(t.app, input)).toEqual({
          kind: "counts",
          counts: { likes: 7, reposts: 3, replies: 1, quotes: 0, views: null },
        });
        status.deleted = true;
        expect(await adapter.engagement!(t.app, input)).toEqual({ kind: "deleted" });
      });

      test("a server on a private address is refused unless SVC_ALLOW_PRIVATE_NETWORKS allows it", async () => {
        const strict = await testApp(
          dialect,
          provider === "gab" ? { env: { SVC_PROVIDER_ORIGINS: `gab=${m.url}` } } : {},
        );
        try {
          const seen = m.requests.length;
          const r = await adapter.connect!(strict.app, {
            livemode: true,
            settings: settings(),
            secrets: { access_token: me.token },
            signal: new AbortController().signal,
          });
          expect(r.kind).toBe("rejected");
          const p = await publishDirect(strict, provider, {
            settings: settings(),
            secrets: { access_token: me.token },
            parts: ["x"],
          });
          expect(p.outcome).toMatchObject({ kind: "rejected", code: "network" });
          expect(m.requests.length).toBe(seen);
        } finally {
          await strict.close();
        }
      });

      test("a revoked token makes the channel need reauth", async () => {
        const other = m.addAccount(`revoked${dialect}${provider}`);
        const ch = await connectLive(t, a, provider, { ...settings(), access_token: other.token });
        m.revoke(other.token);
        const p = await publishLive(t, a, ch.id, { body: "Will not go" });
        expect(p.targets[0].status).toBe("queued");
        const after = await t.request("GET", `/v1/channels/${ch.id}`, { key: a.liveKey });
        expect(after.body.status).toBe("needs_reauth");
      });
    });
  }
}

function adapterName(provider: string): string {
  return provider === "gab" ? "Gab" : "Mastodon";
}
