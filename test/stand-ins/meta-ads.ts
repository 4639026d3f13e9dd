// Meta's Marketing API (Graph API v25.0) for ad accounts, read-only: `GET /v25.0/act_{id}` (the AdAccount node),
// its insights edge (`GET` answers AdsInsights rows at once; `POST` starts an asynchronous AdReportRun and answers
// `{report_run_id}`), `GET /v25.0/{report_run_id}` (the job, "Job Running" then "Job Completed") and
// `GET /v25.0/{report_run_id}/insights` (its AdsInsights rows in `{data, paging}`; developers.facebook.com/docs/
// marketing-api/insights and /insights/best-practices). Meta publishes no OpenAPI description; its SDK codegen
// node descriptions (api-specs/meta/AdAccount.json, AdReportRun.json, AdsInsights.json, enum_types.json) are what
// every request and answer is checked against: a query parameter must be one the edge declares, of its type (enum values from
// enum_types.json), every requested field must be a field of the node, and every field answered must be one the
// node declares, of its type. The envelope, paging and errors ({error: {message, type, code, error_subcode,
// fbtrace_id}}) follow developers.facebook.com/docs/graph-api/results and /guides/error-handling.
import { join } from "node:path";
import { type Answer, type StandIn, startStandIn } from "./server.ts";
import { specsDir } from "./spec.ts";

interface NodeSpec {
  fields: Map<string, string>;
  apis: {
    method: string;
    endpoint?: string;
    name?: string;
    params: { name: string; required: boolean; type: string }[];
  }[];
}

export interface MetaCampaignDay {
  spend: string;
  impressions: number;
  clicks: number;
}

export interface MetaAccount {
  id: string;
  name: string;
  currency: string;
  token: string;
  campaigns: { id: string; name: string }[];
  /** `${day}|${campaign id}` → that day's figures, as Meta reports them (spend a decimal string in main units). */
  days: Map<string, MetaCampaignDay>;
}

export interface MetaStandIn extends StandIn {
  accounts: Map<string, MetaAccount>;
  /** The insights requests' time ranges, in order. */
  ranges: { since: string; until: string }[];
  /** How many polls the next report runs answer "Job Running" before "Job Completed" (default 0). */
  runningPolls: number;
  /** The next report run ends "Job Failed". */
  failNextJob: boolean;
}

/** Parameters Graph takes on every request, outside any node's own list (developers.facebook.com/docs/graph-api). */
const GENERIC = new Set(["access_token", "appsecret_proof", "after", "before", "limit"]);

async function load(dir: string, name: string): Promise<NodeSpec> {
  const d = JSON.parse(await Bun.file(join(dir, "meta", `${name}.json`)).text());
  return {
    fields: new Map(d.fields.map((f: { name: string; type: string }) => [f.name, f.type])),
    apis: d.apis,
  };
}

const graphError = (
  status: number,
  code: number,
  message: string,
  type = "OAuthException",
  subcode?: number,
): Answer => ({
  status,
  body: {
    error: { message, type, code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: "AbCdEf123" },
  },
});

export async function startMetaAds(): Promise<MetaStandIn> {
  const dir = specsDir();
  if (!dir) throw new Error("the Meta stand-in needs ../shared/api-specs");
  const account = await load(dir, "AdAccount");
  const reportRun = await load(dir, "AdReportRun");
  const insights = await load(dir, "AdsInsights");
  const enums = new Map<string, string[]>(
    (
      JSON.parse(await Bun.file(join(dir, "meta", "enum_types.json")).text()) as {
        name: string;
        values: string[];
      }[]
    ).map((e) => [e.name, e.values]),
  );
  const accounts = new Map<string, MetaAccount>();
  const ranges: { since: string; until: string }[] = [];
  const jobs = new Map<
    string,
    { account: string; query: Record<string, string>; polls: number; running: number; failed: boolean }
  >();
  let s: StandIn;
  let self: MetaStandIn;

  /** A value of a codegen type, as a query string carries it. */
  const paramProblems = (name: string, type: string, raw: string): string[] => {
    const list = /^list<(.+)>$/.exec(type);
    if (list) {
      let items: unknown[];
      try {
        const parsed = JSON.parse(raw);
        items = Array.isArray(parsed) ? parsed : [parsed];
      } catch {
        items = raw.split(",");
      }
      return items.flatMap((v) =>
        paramProblems(name, list[1]!, typeof v === "string" ? v : JSON.stringify(v)),
      );
    }
    if (enums.has(type))
      return enums.get(type)!.includes(raw) ? [] : [`${name}: ${raw} is not one of ${type}`];
    if (type === "int" || type === "unsigned int")
      return /^-?\d+$/.test(raw) && !(type === "unsigned int" && raw.startsWith("-"))
        ? []
        : [`${name}: ${raw} is not ${type}`];
    if (type === "bool") return raw === "true" || raw === "false" ? [] : [`${name}: ${raw} is not bool`];
    if (type === "map" || type === "Object") {
      try {
        const v = JSON.parse(raw);
        return typeof v === "object" && v !== null && !Array.isArray(v) ? [] : [`${name}: not a map`];
      } catch {
        return [`${name}: not JSON`];
      }
    }
    return [];
  };

  const checkQuery = (
    edge: NodeSpec["apis"][number] | undefined,
    returns: NodeSpec,
    query: Record<string, string>,
  ) => {
    const found: string[] = [];
    if (!edge) return ["no such edge in the node description"];
    const declared = new Map(edge.params.map((p) => [p.name, p]));
    for (const [k, v] of Object.entries(query)) {
      if (GENERIC.has(k)) continue;
      if (k === "fields") {
        for (const f of v.split(","))
          if (!returns.fields.has(f)) found.push(`fields: ${f} is not a field of the node`);
        continue;
      }
      const p = declared.get(k);
      if (!p) found.push(`${k} is not a parameter of ${edge.endpoint ?? edge.name}`);
      else found.push(...paramProblems(k, p.type, v));
    }
    for (const p of edge.params) if (p.required && !(p.name in query)) found.push(`${p.name} is required`);
    return found;
  };

  /** An answered node: every key a field of the node, of its type. */
  const checkNode = (node: NodeSpec, name: string, obj: Record<string, unknown>) => {
    for (const [k, v] of Object.entries(obj)) {
      const type = node.fields.get(k);
      if (!type) s.problems.push(`answer: ${k} is not a field of ${name}`);
      else if (type === "string" && typeof v !== "string")
        s.problems.push(`answer: ${name}.${k} is not a string`);
      else if ((type === "unsigned int" || type === "int") && typeof v !== "number")
        s.problems.push(`answer: ${name}.${k} is not a number`);
    }
  };

  const authorize = (
    req: { headers: Record<string, string>; query: Record<string, string> },
    acct: MetaAccount | undefined,
  ) => {
    const token = req.headers.authorization?.replace(/^Bearer /, "") ?? req.query.access_token;
    if (!token)
      return graphError(
        400,
        2500,
        "An active access token must be used to query information about the current user.",
      );
    if (!acct || acct.token !== token)
      return acct
        ? graphError(
            400,
            190,
            "Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.",
            "OAuthException",
            460,
          )
        : graphError(
            400,
            100,
            "Unsupported get request. Object with ID does not exist, cannot be loaded due to missing permissions, or does not support this operation.",
            "GraphMethodException",
            33,
          );
    return null;
  };

  const refuse = (what: string, problems: string[]): Answer => {
    s.problems.push(...problems.map((p) => `request ${what}: ${p}`));
    return graphError(400, 100, `Invalid parameter: ${problems[0]}`, "OAuthException");
  };

  /** A page of AdsInsights rows of an account for the query that asked for them. */
  const insightsPage = (
    acct: MetaAccount,
    asked: Record<string, string>,
    paging: Record<string, string>,
    path: string,
  ): Answer => {
    const range = JSON.parse(asked.time_range ?? "{}") as { since: string; until: string };
    ranges.push(range);
    const fields = (asked.fields ?? "").split(",");
    const rows: Record<string, unknown>[] = [];
    for (const [k, d] of [...acct.days.entries()].sort()) {
      const [day, campaign] = k.split("|") as [string, string];
      if (day < range.since || day > range.until) continue;
      const c = acct.campaigns.find((x) => x.id === campaign)!;
      const all: Record<string, unknown> = {
        campaign_id: c.id,
        campaign_name: c.name,
        spend: d.spend,
        impressions: String(d.impressions),
        clicks: String(d.clicks),
        date_start: day,
        date_stop: day,
        account_currency: acct.currency,
      };
      const row = Object.fromEntries(
        Object.entries(all).filter(([f]) => fields.includes(f) || f === "date_start" || f === "date_stop"),
      );
      checkNode(insights, "AdsInsights", row);
      rows.push(row);
    }
    const limit = Number(paging.limit ?? 25);
    const offset = paging.after ? Number(atob(paging.after)) : 0;
    const page = rows.slice(offset, offset + limit);
    const more = offset + limit < rows.length;
    const after = btoa(String(offset + page.length));
    return {
      status: 200,
      body: {
        data: page,
        paging: {
          cursors: { before: btoa(String(offset)), after },
          ...(more ? { next: `${s.url}/v25.0/${path}?limit=${limit}&after=${after}` } : {}),
        },
      },
    };
  };

  /** GET {report_run_id} (the job) and GET {report_run_id}/insights (its rows), as the AdReportRun node declares. */
  const reportRunAnswer = (
    req: { method: string; headers: Record<string, string>; query: Record<string, string> },
    id: string,
    rowsAsked: boolean,
  ): Answer => {
    const job = jobs.get(id);
    if (req.method !== "GET") return graphError(400, 100, "Unsupported request method");
    const api = rowsAsked
      ? reportRun.apis.find((a) => a.endpoint === "insights")
      : reportRun.apis.find((a) => a.name === "#get");
    const problems = checkQuery(api, rowsAsked ? insights : reportRun, req.query);
    if (problems.length) return refuse(`GET report run${rowsAsked ? " insights" : ""}`, problems);
    const denied = authorize(req, job ? accounts.get(job.account) : undefined);
    if (denied || !job)
      return denied ?? graphError(400, 100, "Unsupported get request.", "GraphMethodException", 33);
    if (rowsAsked) return insightsPage(accounts.get(job.account)!, job.query, req.query, `${id}/insights`);
    job.polls++;
    const status = job.failed ? "Job Failed" : job.polls > job.running ? "Job Completed" : "Job Running";
    const all: Record<string, unknown> = {
      id,
      async_status: status,
      async_percent_completion: status === "Job Completed" ? 100 : 50,
      account_id: job.account.slice(4),
    };
    const wanted = (req.query.fields ?? "id").split(",");
    const body = Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k) || k === "id"));
    checkNode(reportRun, "AdReportRun", body);
    return { status: 200, body };
  };

  s = startStandIn({
    spec: null,
    route(path) {
      const m = /^\/v25\.0\/(act_\d+|\d+)(\/insights)?$/.exec(path);
      return m ? { path, params: { node: m[1]!, edge: m[2] ? "insights" : "" } } : null;
    },
    handle(req, params) {
      const node = params.node!;
      if (!node.startsWith("act_")) return reportRunAnswer(req, node, params.edge === "insights");
      const acct = accounts.get(node);
      if (!params.edge) {
        if (req.method !== "GET") return graphError(400, 100, "Unsupported request method");
        const problems = checkQuery(
          account.apis.find((a) => a.name === "#get"),
          account,
          req.query,
        );
        if (problems.length) return refuse("GET act", problems);
        const denied = authorize(req, acct);
        if (denied) return denied;
        const all: Record<string, unknown> = {
          id: acct!.id,
          account_id: acct!.id.slice(4),
          name: acct!.name,
          currency: acct!.currency,
          account_status: 1,
        };
        const wanted = (req.query.fields ?? "id").split(",");
        const body = Object.fromEntries(
          Object.entries(all).filter(([k]) => wanted.includes(k) || k === "id"),
        );
        checkNode(account, "AdAccount", body);
        return { status: 200, body };
      }
      const edge = account.apis.find((a) => a.method === req.method && a.endpoint === "insights");
      const problems = checkQuery(edge, insights, req.query);
      if (problems.length) return refuse(`${req.method} insights`, problems);
      const denied = authorize(req, acct);
      if (denied) return denied;
      if (req.method === "POST") {
        const id = String(6_100_000_000 + jobs.size + 1);
        jobs.set(id, {
          account: node,
          query: req.query,
          polls: 0,
          running: self.runningPolls,
          failed: self.failNextJob,
        });
        self.failNextJob = false;
        return { status: 200, body: { report_run_id: id } };
      }
      return insightsPage(acct!, req.query, req.query, `${acct!.id}/insights`);
    },
    invalid: (problems) => graphError(400, 100, problems[0] ?? "Invalid parameter"),
    failure(kind) {
      if (kind === "rate_limited") return graphError(400, 17, "User request limit reached", "OAuthException");
      if (kind === "revoked")
        return graphError(
          400,
          190,
          "Error validating access token: Session has expired.",
          "OAuthException",
          463,
        );
      return graphError(
        500,
        2,
        "An unexpected error has occurred. Please retry your request later.",
        "OAuthException",
      );
    },
  });
  self = Object.assign(s, { accounts, ranges, runningPolls: 0, failNextJob: false });
  return self;
}
