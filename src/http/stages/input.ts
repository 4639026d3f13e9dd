// Stage 3: path parameters, the query and the body, each held to the API's input rules (reference §1).
import { guardText } from "../../domain/input.ts";
import { badRequest } from "../../lib/errors.ts";
import { readJsonBody } from "../body.ts";
import type { RouteDef } from "../route.ts";
import type { Exchange } from "./exchange.ts";

const LIST_PARAMS = ["limit", "starting_after", "ending_before"];

export async function input(x: Exchange): Promise<void> {
  // Path parameters are text the route looks up or stores: held to the same rule as body and query.
  for (const [k, v] of Object.entries(x.params ?? {})) guardText(v, k);
  x.query = parseQuery(x.url, x.route);
  if (x.route.method !== "GET" && !x.route.rawBody) {
    ({ raw: x.raw, body: x.body } = await readJsonBody(x.route, x.request));
  }
}

function parseQuery(url: URL, route: RouteDef): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    const known =
      route.query?.includes(k) ||
      (route.list && LIST_PARAMS.includes(k)) ||
      route.queryPrefixes?.some((p) => k.startsWith(p));
    if (!known) throw badRequest("parameter_unknown", `Unknown query parameter ${k}.`, k);
    guardText(k, k);
    guardText(v, k);
    out[k] = v;
  }
  return out;
}
