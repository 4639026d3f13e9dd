// Checks Graph API requests and answers against Meta's node descriptions in ../shared/api-specs/meta (the
// facebook-business-sdk-codegen node files: each node's `fields`, and its `apis` with the params each edge takes).
// Those files are SDK-generator inputs, not OpenAPI (api-specs/README.md, "Meta notes"): the HTTP path is
// /{version}/{node-id}/{edge}, and no envelope or error shape is described. So this is a small validator of its own:
// - a request names a node type (which the stand-in knows from the ID in its path) and an edge (none for the node
//   itself: the `#get`, `#update`, `#delete` apis); every param must be one the api declares, of its codegen type
//   (string, bool, int, unsigned int, float, datetime, list<…>, map, Object, file, enum names from
//   enum_types.json), and every required param must be there. The Graph API's own params, which every call takes
//   (access_token, fields, limit, after, before, summary), are not in any node file and are let through;
// - an answer to a node read may hold only that node's fields, each of its type (a field typed as another node is
//   checked against that node when its file is here); an edge list is {data: [...], paging} of the edge's node; a
//   create answers with {id} (README: "the API itself answers with an id object");
// - errors follow developers.facebook.com/docs/graph-api/guides/error-handling: {error: {message, type, code,
//   fbtrace_id, error_subcode?, is_transient?, error_user_title?, error_user_msg?}}.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Spec, SpecRequest } from "./spec.ts";
import { specsDir } from "./spec.ts";

interface Param {
  name: string;
  type: string;
  required?: boolean;
}
interface Api {
  method: string;
  endpoint?: string;
  name?: string;
  return?: string;
  params?: Param[];
}
interface Node {
  apis: Api[];
  fields: { name: string; type: string }[];
}

const UNIVERSAL = new Set([
  "access_token",
  "fields",
  "limit",
  "after",
  "before",
  "summary",
  "appsecret_proof",
]);

export interface MetaOperation {
  node: string;
  method: string;
  /** The edge, or null for the node itself. */
  edge: string | null;
}

function load(dir: string, extraFields: Record<string, Record<string, string>>) {
  const nodes = new Map<string, Node | null>();
  const node = (name: string): Node | null => {
    if (!nodes.has(name)) {
      try {
        const n = JSON.parse(readFileSync(join(dir, "meta", `${name}.json`), "utf8")) as Node;
        for (const [f, type] of Object.entries(extraFields[name] ?? {})) n.fields.push({ name: f, type });
        nodes.set(name, n);
      } catch {
        nodes.set(name, null);
      }
    }
    return nodes.get(name) ?? null;
  };
  const enums = new Map<string, string[]>(
    (
      JSON.parse(readFileSync(join(dir, "meta", "enum_types.json"), "utf8")) as {
        name: string;
        values: string[];
      }[]
    ).map((e) => [e.name, e.values]),
  );
  return { node, enums };
}

/** Problems with one value against a codegen type name. */
function checkType(
  v: unknown,
  type: string,
  at: string,
  enums: Map<string, string[]>,
  node: (n: string) => Node | null,
): string[] {
  const list = /^list<(.+)>$/.exec(type);
  if (list || type === "list") {
    let arr = v;
    if (typeof v === "string") {
      try {
        arr = JSON.parse(v);
      } catch {
        // Graph also takes a comma-separated list in a query or form.
        arr = v.split(",");
      }
    }
    if (!Array.isArray(arr)) return [`${at}: expected a list`];
    return list ? arr.flatMap((x, i) => checkType(x, list[1]!, `${at}[${i}]`, enums, node)) : [];
  }
  switch (type) {
    case "string":
      return typeof v === "string" ? [] : [`${at}: expected a string`];
    case "bool":
      return typeof v === "boolean" || v === "true" || v === "false" ? [] : [`${at}: expected a bool`];
    case "int":
    case "unsigned int":
    case "float": {
      const n = typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN;
      if (!Number.isFinite(n)) return [`${at}: expected a number`];
      if (type !== "float" && !Number.isInteger(n)) return [`${at}: expected an integer`];
      if (type === "unsigned int" && n < 0) return [`${at}: expected an unsigned int`];
      return [];
    }
    case "datetime":
      return typeof v === "string" || typeof v === "number" ? [] : [`${at}: expected a datetime`];
    case "file":
      return typeof v === "object" && v !== null && "bytes" in v ? [] : [`${at}: expected a file`];
    case "map":
    case "Object":
      return typeof v === "object" || typeof v === "string" ? [] : [`${at}: expected an object`];
  }
  const values = enums.get(type);
  if (values) return values.includes(String(v)) ? [] : [`${at}: ${JSON.stringify(v)} is not one of ${type}`];
  const sub = node(type);
  if (sub && typeof v === "object" && v !== null && !Array.isArray(v))
    return checkFields(v, type, at, enums, node);
  // A node type whose file is not here (Profile, Application, …): an object or its ID.
  return typeof v === "object" || typeof v === "string" ? [] : [`${at}: expected a ${type}`];
}

function checkFields(
  body: unknown,
  nodeName: string,
  at: string,
  enums: Map<string, string[]>,
  node: (n: string) => Node | null,
): string[] {
  const n = node(nodeName);
  if (!n) return [];
  if (typeof body !== "object" || body === null) return [`${at}: expected a ${nodeName}`];
  const out: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    const f = n.fields.find((x) => x.name === k);
    if (!f) out.push(`${at}.${k}: ${nodeName} has no such field`);
    else out.push(...checkType(v, f.type, `${at}.${k}`, enums, node));
  }
  return out;
}

function checkError(body: unknown): string[] {
  const e = (body as { error?: Record<string, unknown> })?.error;
  if (!e || typeof e !== "object") return ["an error answer without {error: {...}}"];
  const out: string[] = [];
  if (typeof e.message !== "string") out.push("error.message is not a string");
  if (typeof e.type !== "string") out.push("error.type is not a string");
  if (typeof e.code !== "number") out.push("error.code is not a number");
  if (typeof e.fbtrace_id !== "string") out.push("error.fbtrace_id is not a string");
  const known = new Set([
    "message",
    "type",
    "code",
    "error_subcode",
    "fbtrace_id",
    "is_transient",
    "error_user_title",
    "error_user_msg",
    "error_data",
  ]);
  for (const k of Object.keys(e)) if (!known.has(k)) out.push(`error.${k} is not in Meta's error object`);
  return out;
}

/**
 * A Spec (as the stand-in server takes one) over the node files. `operation` says which node and edge a request
 * is (the stand-in knows what its IDs are), or null when it is none the stand-in serves. `extraParams` names, per
 * operation ("Node|METHOD|edge"), params Meta documents on the edge's reference page but the node file leaves out
 * (with the page), as `extraFields` does for fields.
 */
export function metaSpec(
  operation: (req: SpecRequest) => MetaOperation | null,
  extraParams: Record<string, { params: Record<string, string>; documented: string }> = {},
  /** Fields Meta documents on a node (with the page) that its node file leaves out. */
  extraFields: Record<string, { fields: Record<string, string>; documented: string }> = {},
): Spec | null {
  const dir = specsDir();
  if (!dir) return null;
  const { node, enums } = load(
    dir,
    Object.fromEntries(Object.entries(extraFields).map(([k, v]) => [k, v.fields])),
  );
  const apiOf = (op: MetaOperation): Api | null => {
    const n = node(op.node);
    if (!n) return null;
    return (
      n.apis.find(
        (a) =>
          a.method === op.method &&
          (op.edge === null
            ? a.name === { GET: "#get", POST: "#update", DELETE: "#delete" }[op.method]
            : a.endpoint === op.edge),
      ) ?? null
    );
  };
  const idOf = (op: MetaOperation) => `${op.node}|${op.method}|${op.edge ?? ""}`;
  const parse = (id: string): MetaOperation => {
    const [n, method, edge] = id.split("|");
    return { node: n!, method: method!, edge: edge || null };
  };
  return {
    checkRequest(req) {
      const op = operation(req);
      if (!op) return { operationId: null, problems: [`no Graph operation for ${req.method} ${req.path}`] };
      const api = apiOf(op);
      const id = idOf(op);
      if (!api)
        return { operationId: id, problems: [`${op.node} has no ${op.method} ${op.edge ?? "(node)"}`] };
      const given: Record<string, unknown> = {
        ...req.query,
        ...(typeof req.body === "object" && req.body !== null ? (req.body as Record<string, unknown>) : {}),
      };
      const extra = extraParams[id]?.params ?? {};
      const problems: string[] = [];
      for (const [k, v] of Object.entries(given)) {
        if (UNIVERSAL.has(k)) continue;
        const p = api.params?.find((x) => x.name === k);
        const type = p?.type ?? extra[k];
        if (!type) {
          problems.push(`${k}: ${op.node} ${op.method} ${op.edge ?? "(node)"} takes no such param`);
          continue;
        }
        // Files were turned into their names for checking (server.ts); a string stands for the upload here.
        if (type === "file" && typeof v === "string") continue;
        problems.push(...checkType(v, type, k, enums, node));
      }
      for (const p of api.params ?? [])
        if (p.required && given[p.name] === undefined) problems.push(`${p.name}: required`);
      if (op.method === "GET" && typeof given.fields === "string") {
        const ret = op.edge === null ? op.node : (api.return ?? "");
        for (const f of given.fields.split(",")) {
          const name = f.replace(/[.{(].*$/, "");
          if (node(ret) && !node(ret)!.fields.some((x) => x.name === name))
            problems.push(`fields: ${ret} has no field ${name}`);
        }
      }
      return { operationId: id, problems };
    },
    checkResponse(operationId, status, body) {
      if (status === "default" || status >= 400) return checkError(body);
      const op = parse(operationId);
      const api = apiOf(op);
      if (!api) return [`unknown operation ${operationId}`];
      if (op.method === "DELETE")
        return (body as { success?: unknown })?.success === true
          ? []
          : ["a deletion answers {success: true}"];
      if (op.method === "POST") {
        const b = body as Record<string, unknown>;
        if (typeof b?.id !== "string") return ["a create answers with {id}"];
        // POST photos also says which feed post the photo made (Page Photos reference: {id, post_id}).
        return Object.keys(b)
          .filter((k) => k !== "id" && !(op.edge === "photos" && k === "post_id"))
          .map((k) => `${k}: not in a create's answer`);
      }
      const ret = op.edge === null ? op.node : (api.return ?? "");
      if (op.edge === null) return checkFields(body, ret, "$", enums, node);
      const b = body as { data?: unknown; paging?: unknown; summary?: unknown };
      if (!Array.isArray(b?.data)) return ["an edge answers with {data: [...]}"];
      const out = b.data.flatMap((x, i) => checkFields(x, ret, `data[${i}]`, enums, node));
      for (const k of Object.keys(b))
        if (!["data", "paging", "summary"].includes(k)) out.push(`${k}: not in an edge's answer`);
      return out;
    },
    declares: () => true,
    parameterIn: () => null,
  };
}
