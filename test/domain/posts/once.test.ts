// One change per dashboard form (domain/idempotency/once.ts): the composer's Idempotency-Key is kept like an API
// key's: the same form again answers with the first post, the same key for another request is refused, and forms
// sent at once make one post.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { once } from "../../../src/domain/idempotency/once.ts";
import { createPost } from "../../../src/domain/posts/create.ts";
import { ServiceError } from "../../../src/lib/errors.ts";
import { describeEachDialect } from "../../helpers/db.ts";
import { personActor } from "../../helpers/person.ts";
import { type World, world } from "./helpers.ts";

describeEachDialect("once per form", (dialect) => {
  let w: World;
  beforeAll(async () => {
    w = await world(dialect);
  });
  afterAll(() => w.t.close());

  const postsOf = async () =>
    (await w.t.app.db.selectFrom("posts").select("id").where("org_id", "=", w.a.orgId).execute()).length;

  test("the same form twice makes one post; the second answer is the first post", async () => {
    const actor = await personActor(w.t.app, w.a.userId, w.a.orgId);
    const input = { brand: w.a.brandId, content: { body: "Once" }, publish_at: "now" };
    const run = () =>
      once(w.t.app, actor.userId!, "form_one", "/posts/new", input, 201, (answer) =>
        createPost(w.t.app, actor, input, answer),
      );
    const before = await postsOf();
    const first = await run();
    const second = await run();
    expect(first.replayed).toBe(false);
    expect(second).toEqual({ replayed: true, body: JSON.parse(JSON.stringify(first.body)) });
    expect(await postsOf()).toBe(before + 1);
    const row = await w.t.app.db
      .selectFrom("idempotency_keys")
      .select(["credential_id", "state", "response_status"])
      .where("key", "=", "form_one")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ credential_id: w.a.userId, state: "done", response_status: 201 });
  });

  test("the key for another request is idempotency_key_reused; a failed request keeps no key", async () => {
    const actor = await personActor(w.t.app, w.a.userId, w.a.orgId);
    const input = (body: string) => ({ brand: w.a.brandId, content: { body }, publish_at: "now" });
    const run = (key: string, body: string) =>
      once(w.t.app, actor.userId!, key, "/posts/new", input(body), 201, (answer) =>
        createPost(w.t.app, actor, input(body), answer),
      );
    await run("form_two", "First");
    const reused = await run("form_two", "Edited").catch((e: ServiceError) => e);
    expect(reused).toBeInstanceOf(ServiceError);
    expect((reused as ServiceError).code).toBe("idempotency_key_reused");
    // An empty text is refused; the key stays free, so the fixed form goes through under it.
    const refused = await run("form_three", "").catch((e: ServiceError) => e);
    expect((refused as ServiceError).code).toBe("content_empty");
    expect((await run("form_three", "Fixed")).replayed).toBe(false);
  });

  test("forms sent at once make one post", async () => {
    const actor = await personActor(w.t.app, w.a.userId, w.a.orgId);
    const input = { brand: w.a.brandId, content: { body: "At once" }, publish_at: "now" };
    const before = await postsOf();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        once(w.t.app, actor.userId!, "form_race", "/posts/new", input, 201, (answer) =>
          createPost(w.t.app, actor, input, answer),
        ).catch((e: ServiceError) => e.code),
      ),
    );
    const ids = new Set(
      answers.filter((a) => typeof a !== "string").map((a) => (a as { body: { id: string } }).body.id),
    );
    expect(ids.size).toBe(1);
    // A request that lost while the winner had not yet committed is told to try again, never given a second post.
    expect(answers.filter((a) => typeof a === "string").every((c) => c === "idempotency_key_in_use")).toBe(
      true,
    );
    expect(await postsOf()).toBe(before + 1);
  });
});
