// An Idempotency-Key on POST /v1/posts is stored in the post's own transaction: requests sent together under one
// key create one post, a stored claim still answers in use (or is taken over once abandoned), and a change that
// finds the key stored meanwhile rolls back entirely.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { AnswerInTx, KeyTakenMeanwhile } from "../../../src/domain/idempotency/in-tx.ts";
import { claim, complete, fingerprintOf } from "../../../src/domain/idempotency/service.ts";
import { authenticate } from "../../../src/domain/identity/auth/authenticate.ts";
import { createPost as createPostIn } from "../../../src/domain/posts/create.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { counts, createPost, MIN, type World, world } from "./helpers.ts";

describeEachDialect("POST /v1/posts with Idempotency-Key", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w.t.close());

  const body = (text: string) => ({ brand: w.a.brandId, channels: [w.channel], content: { body: text } });

  test("five requests at once under one key create one post; the others replay it", async () => {
    const before = await counts(w.t, w.a.orgId);
    const headers = { "idempotency-key": "together-1" };
    const rs = await Promise.all(
      Array.from({ length: 5 }, () => createPost(w.t, w.a.testKey, body("Sent five times."), headers)),
    );
    expect(rs.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(rs.map((r) => r.body.id)).size).toBe(1);
    expect(rs.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(4);
    const after = await counts(w.t, w.a.orgId);
    expect(after.posts).toBe(before.posts + 1);
    expect(after.targets).toBe(before.targets + 1);
  });

  test("two bodies at once under one key: one is created, the other refused as reused", async () => {
    const before = await counts(w.t, w.a.orgId);
    const headers = { "idempotency-key": "together-2" };
    const rs = await Promise.all([
      createPost(w.t, w.a.testKey, body("First body."), headers),
      createPost(w.t, w.a.testKey, body("Second body."), headers),
    ]);
    expect(rs.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(rs.find((r) => r.status === 409)!.body.code).toBe("idempotency_key_reused");
    expect((await counts(w.t, w.a.orgId)).posts).toBe(before.posts + 1);
  });

  test("a running claim answers in use; once abandoned it is taken over, and then replayed", async () => {
    const me = await w.t.request("GET", "/v1/me", { key: w.a.testKey });
    const b = body("Claimed elsewhere.");
    await claim(
      w.t.app,
      me.body.api_key.id,
      "claimed-1",
      fingerprintOf("POST", "/v1/posts", JSON.stringify(b)),
    );
    const headers = { "idempotency-key": "claimed-1" };
    const busy = await createPost(w.t, w.a.testKey, b, headers);
    expect([busy.status, busy.body.code]).toEqual([409, "idempotency_key_in_use"]);
    w.clock.advance(6 * MIN);
    const taken = await createPost(w.t, w.a.testKey, b, headers);
    expect(taken.status).toBe(201);
    const again = await createPost(w.t, w.a.testKey, b, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(taken.body);
  });

  test("a failed create keeps no key", async () => {
    const headers = { "idempotency-key": "fails-1" };
    const bad = await createPost(w.t, w.a.testKey, { ...body("x"), channels: ["chan_nope"] }, headers);
    expect(bad.status).toBe(422);
    const good = await createPost(w.t, w.a.testKey, body("Fixed."), headers);
    expect(good.status).toBe(201);
    expect(good.headers.get("idempotent-replayed")).toBeNull();
  });

  test("a change that finds its key stored meanwhile rolls back with every row it wrote", async () => {
    const actor = await authenticate(w.t.app, {
      authorization: `Bearer ${w.a.testKey}`,
      org: null,
      requestId: "req_test",
    });
    const b = body("Lost the race.");
    const fp = fingerprintOf("POST", "/v1/posts", JSON.stringify(b));
    await claim(w.t.app, actor.apiKeyId!, "raced-1", fp);
    await complete(w.t.app, actor.apiKeyId!, "raced-1", 201, '{"id":"post_other"}');
    const before = await counts(w.t, w.a.orgId);
    const answer = new AnswerInTx(actor.apiKeyId!, "raced-1", fp, 201);
    await expect(createPostIn(w.t.app, actor, b, answer)).rejects.toBeInstanceOf(KeyTakenMeanwhile);
    expect(answer.text).toBeNull();
    expect(await counts(w.t, w.a.orgId)).toEqual(before);
  });
});
