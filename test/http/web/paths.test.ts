// The server registers the dashboard's routes from web/paths.ts at start and loads the pages on the first request;
// the list must name every page route of webRoutes, in the same order, and nothing else.
import { expect, test } from "bun:test";
import { webRoutes } from "../../../src/http/web/index.tsx";
import { webPaths } from "../../../src/http/web/paths.ts";

test("web/paths.ts lists exactly the dashboard's routes, in webRoutes' order", () => {
  expect(webPaths.map(([method, path]) => `${method} ${path}`)).toEqual(
    webRoutes.map((r) => `${r.method} ${r.path}`),
  );
});
