// svc api <path>: an authenticated request to /v1 (modeled on `gh api`). -f key=value fields go in the query for
// GET and in the JSON body otherwise (-F parses true/false/null/numbers/JSON); --input sends a file or stdin as the
// body; --paginate follows has_more and prints one list of every item; --jq filters.
import { readFileSync } from "node:fs";
import { type ApiResponse, problemError, send } from "../client/api.ts";
import type { ClientCommand, Ctx } from "../client/command.ts";
import { runJq } from "../client/printer.ts";
import { spinner } from "../client/prompt.ts";
import { UsageError } from "../output.ts";

export const apiCommand: ClientCommand = {
  name: "api",
  summary: "Make an authenticated request to the API",
  usage:
    "svc api <path> [-X METHOD] [-f key=value …] [-F key=value …] [--input FILE|-] [-H 'Name: value' …] [--paginate] [--jq EXPR]",
  help: `The path is relative to /v1 ("posts" and "/v1/posts" are the same).

Flags:
  -X, --method METHOD   GET, or POST when there are fields or --input (GET with --paginate)
  -f, --field k=v       a string field (query for GET, JSON body otherwise); repeatable
  -F, --typed-field k=v a field whose value is parsed: true, false, null, numbers, JSON
  --input FILE|-        the request body from a file or stdin
  -H, --header 'N: v'   an extra request header; repeatable
  --paginate            follow every page of a list and print all its items as one list

Examples:
  svc api /v1/me
  svc api posts -f status=scheduled --jq '.data[].id'
  svc api brands/acme-shop -X POST -f name="Acme Store"
  svc api events --paginate --jq '.data | length'`,
  options: {
    method: { type: "string", short: "X" },
    field: { type: "string", short: "f", multiple: true },
    "typed-field": { type: "string", short: "F", multiple: true },
    input: { type: "string" },
    header: { type: "string", short: "H", multiple: true },
    paginate: { type: "boolean" },
  },
  args: { min: 1, max: 1, names: ["<path>"] },
  async run(ctx) {
    const fields = parseFields(ctx.flags.field ?? [], false).concat(
      parseFields(ctx.flags["typed-field"] ?? [], true),
    );
    const raw = ctx.flags.input === undefined ? undefined : await readInput(ctx, ctx.flags.input);
    if (raw !== undefined && fields.length) throw new UsageError("give fields or --input, not both");
    // GET, or POST when there are fields or a body; --paginate reads, so it means GET.
    const method = (
      ctx.flags.method ?? (!ctx.flags.paginate && (fields.length || raw !== undefined) ? "POST" : "GET")
    ).toUpperCase();
    if (!/^[A-Z]+$/.test(method))
      throw new UsageError(`-X ${JSON.stringify(ctx.flags.method)} is not an HTTP method`);
    const headers = parseHeaders(ctx.flags.header ?? []);
    const inQuery = method === "GET" || method === "DELETE" || method === "HEAD";
    const query: Record<string, string[]> = {};
    const body: Record<string, unknown> = {};
    for (const [k, v] of fields) {
      if (inQuery) query[k] = [...(query[k] ?? []), typeof v === "string" ? v : JSON.stringify(v)];
      else body[k] = v;
    }
    const cred = await ctx.credential();
    const path = ctx.args[0]!;
    const request = (q: Record<string, string[]>) =>
      send(cred, method, path, {
        query: q,
        headers,
        ...(inQuery ? {} : raw !== undefined ? { raw } : fields.length ? { body } : {}),
      });
    if (!ctx.flags.paginate) {
      const r = await request(query);
      return await output(ctx, r, r.body ?? r.text);
    }
    if (method !== "GET") throw new UsageError("--paginate works with GET requests");
    const progress = ctx.stderrTty ? spinner(process.stderr) : null;
    progress?.start("Fetching page 1");
    const items: unknown[] = [];
    let first: ApiResponse | undefined;
    let pages = 0;
    let after: string | undefined;
    for (;;) {
      const r = await request(after ? { ...query, starting_after: [after] } : query);
      pages++;
      if (r.status < 200 || r.status >= 300 || !Array.isArray(r.body?.data)) {
        progress?.stop(`Stopped after ${pages} page${pages === 1 ? "" : "s"}`);
        return await output(ctx, r, r.body ?? r.text);
      }
      first ??= r;
      items.push(...r.body.data);
      progress?.message(`Fetched ${pages} page${pages === 1 ? "" : "s"}, ${items.length} items`);
      const last = r.body.data[r.body.data.length - 1] as { id?: string } | undefined;
      if (!r.body.has_more || !last?.id) break;
      after = last.id;
    }
    progress?.stop(`Fetched ${pages} page${pages === 1 ? "" : "s"}, ${items.length} items`);
    return await output(ctx, first!, { object: "list", data: items, has_more: false, url: first!.body.url });
  },
};

async function output(ctx: Ctx, r: ApiResponse, value: unknown): Promise<number> {
  const ok = r.status >= 200 && r.status < 300;
  if (ctx.global.jq !== undefined && ok) ctx.io.out(await runJq(value, ctx.global.jq));
  else if (typeof value === "string") {
    if (value) ctx.io.out(value);
  } else ctx.io.out(JSON.stringify(value, null, 2));
  if (ok) return 0;
  throw problemError(r);
}

function parseFields(list: string[], typed: boolean): [string, unknown][] {
  return list.map((f) => {
    const i = f.indexOf("=");
    if (i <= 0) throw new UsageError(`field ${JSON.stringify(f)} must be key=value`);
    const k = f.slice(0, i);
    const v = f.slice(i + 1);
    if (!typed) return [k, v];
    try {
      return [k, JSON.parse(v)];
    } catch {
      return [k, v];
    }
  });
}

function parseHeaders(list: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list) {
    const i = h.indexOf(":");
    if (i <= 0) throw new UsageError(`header ${JSON.stringify(h)} must be "Name: value"`);
    out[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return out;
}

async function readInput(ctx: Ctx, file: string): Promise<string> {
  if (file === "-") return await ctx.io.stdin();
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`--input: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  }
}
