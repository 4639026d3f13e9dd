// The Meta checker bites: requests with params a node's edge does not take, of the wrong type or missing a
// required one, and answers with fields the node does not have, are refused; the Threads stand-in refuses a param
// its documentation does not list. With ../shared/api-specs absent these tests say so and fail.
import { expect, test } from "bun:test";
import { metaSpec } from "./meta-spec.ts";
import { specsDir } from "./spec.ts";
import { startThreads } from "./threads.ts";

test("Meta's node descriptions: params, types, required params, answer fields and the error object", () => {
  expect(specsDir()).not.toBeNull();
  const spec = metaSpec((req) =>
    req.path.endsWith("/media_publish")
      ? { node: "IGUser", method: req.method, edge: "media_publish" }
      : req.path.endsWith("/media")
        ? { node: "IGUser", method: req.method, edge: "media" }
        : { node: "IGMedia", method: req.method, edge: null },
  )!;
  const req = (method: string, path: string, body?: unknown, query: Record<string, string> = {}) => ({
    method,
    path,
    headers: {},
    query,
    body,
  });
  expect(
    spec.checkRequest(req("POST", "/1/media", { image_url: "https://x/a.jpg", caption: "hi" })).problems,
  ).toEqual([]);
  expect(
    spec.checkRequest(req("POST", "/1/media", { image_url: "https://x/a.jpg", colour: "red" })).problems,
  ).toEqual(["colour: IGUser POST media takes no such param"]);
  expect(spec.checkRequest(req("POST", "/1/media", { is_carousel_item: "perhaps" })).problems).toEqual([
    "is_carousel_item: expected a bool",
  ]);
  expect(spec.checkRequest(req("POST", "/1/media_publish", {})).problems).toEqual(["creation_id: required"]);
  expect(spec.checkRequest(req("POST", "/1/media_publish", { creation_id: "abc" })).problems).toEqual([
    "creation_id: expected a number",
  ]);
  expect(spec.checkRequest(req("GET", "/2", undefined, { fields: "id,like_count,colour" })).problems).toEqual(
    ["fields: IGMedia has no field colour"],
  );
  const { operationId } = spec.checkRequest(req("GET", "/2", undefined, { fields: "id" }));
  expect(spec.checkResponse(operationId!, 200, { id: "2", like_count: 3 })).toEqual([]);
  expect(spec.checkResponse(operationId!, 200, { id: "2", like_count: "many", colour: 1 })).toEqual([
    "$.like_count: expected a number",
    "$.colour: IGMedia has no such field",
  ]);
  expect(
    spec.checkResponse(operationId!, 400, {
      error: { message: "x", type: "OAuthException", code: 190, fbtrace_id: "a" },
    }),
  ).toEqual([]);
  expect(spec.checkResponse(operationId!, 400, { message: "x" })).toEqual([
    "an error answer without {error: {...}}",
  ]);
});

test("Threads: a param its documentation does not list is refused and recorded", async () => {
  const th = startThreads({ fetchMedia: async () => new Response(null, { status: 404 }) });
  try {
    th.registerApp("c", "s", "https://svc.example.org/connect/threads/callback");
    th.signInAs = "zed";
    const code = new URL(
      (
        await fetch(
          `${th.url}/oauth/authorize?client_id=c&redirect_uri=${encodeURIComponent("https://svc.example.org/connect/threads/callback")}&scope=threads_basic&response_type=code`,
          { redirect: "manual" },
        )
      ).headers.get("location")!,
    ).searchParams.get("code")!;
    const short = (await (
      await fetch(`${th.url}/oauth/access_token`, {
        method: "POST",
        body: new URLSearchParams({
          client_id: "c",
          client_secret: "s",
          code,
          grant_type: "authorization_code",
          redirect_uri: "https://svc.example.org/connect/threads/callback",
        }),
      })
    ).json()) as { access_token: string };
    const long = (await (
      await fetch(
        `${th.url}/access_token?grant_type=th_exchange_token&client_secret=s&access_token=${short.access_token}`,
      )
    ).json()) as { access_token: string };
    const res = await fetch(`${th.url}/v1.0/${th.userId("zed")}/threads`, {
      method: "POST",
      headers: { authorization: `Bearer ${long.access_token}` },
      body: new URLSearchParams({ media_type: "TEXT", text: "hi", mood: "sunny" }),
    });
    expect(res.status).toBe(400);
    expect(th.problems.splice(0)).toEqual(["request POST /threads: mood is not a documented param"]);
  } finally {
    th.stop();
  }
});
