// Stage 3: path parameters, the query and the body, each held to the API's input rules (reference §1).
import { guardText } from "../../domain/input.ts";
import { unknownParameters } from "../../domain/validate.ts";
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
  const names = [...(route.query ?? []), ...(route.list ? LIST_PARAMS : [])];
  const unknown: { param: string; name: string }[] = [];
  for (const [k, v] of url.searchParams) {
    const known = names.includes(k) || route.queryPrefixes?.some((p) => k.startsWith(p));
    if (!known) {
      if (!unknown.some((u) => u.name === k)) unknown.push({ param: k, name: k });
      continue;
    }
    guardText(k, k);
    guardText(v, k);
    out[k] = v;
  }
  if (unknown.length) throw unknownParameters(unknown, () => names, "query parameter");
  return out;
}
