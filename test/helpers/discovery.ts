// A Google API Discovery document (../shared/api-specs/youtube/youtube-v3.json) turned into what the stand-ins
// check with (test/stand-ins/spec.ts's Spec): each schema becomes JSON Schema (a `$ref` to a definition; int64 and
// uint64 stay strings, as Google sends them; objects take no field the document does not name, as Google refuses
// "Unknown name" in a body), each method's query parameters are checked by name, type, enum and `required`, its
// body against `request.$ref` and its 200 answer against `response.$ref`. A method that takes media is also served
// at its upload path (`/upload/` + path), where the body is the metadata of a resumable upload.
import { join } from "node:path";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import type { Spec, SpecRequest } from "../stand-ins/spec.ts";
import { specsDir } from "../stand-ins/spec.ts";

type Json = Record<string, unknown>;

interface DiscoveryParam {
  type?: string;
  required?: boolean;
  repeated?: boolean;
  enum?: string[];
  location?: string;
}

interface DiscoveryMethod {
  id: string;
  httpMethod: string;
  path: string;
  parameters?: Record<string, DiscoveryParam>;
  request?: { $ref: string };
  response?: { $ref: string };
  mediaUpload?: unknown;
  /** The OAuth scopes of which a token needs one. */
  scopes?: string[];
}

/** A Discovery schema (or property) as JSON Schema. */
function convert(s: Json): Json {
  if (typeof s.$ref === "string") return { $ref: `#/definitions/${s.$ref}` };
  const out: Json = {};
  if (s.type === "any") return {};
  if (typeof s.type === "string") out.type = s.type;
  if (Array.isArray(s.enum)) out.enum = s.enum;
  if (s.format === "date-time") out.format = "date-time";
  if (s.type === "object" || s.properties) {
    out.type = "object";
    if (s.properties)
      out.properties = Object.fromEntries(
        Object.entries(s.properties as Record<string, Json>).map(([k, v]) => [k, convert(v)]),
      );
    out.additionalProperties = s.additionalProperties ? convert(s.additionalProperties as Json) : false;
  }
  if (s.items) out.items = convert(s.items as Json);
  return out;
}

function methodsOf(resources: Record<string, Json>, out: DiscoveryMethod[] = []): DiscoveryMethod[] {
  for (const r of Object.values(resources)) {
    for (const m of Object.values((r.methods ?? {}) as Record<string, DiscoveryMethod>)) out.push(m);
    if (r.resources) methodsOf(r.resources as Record<string, Json>, out);
  }
  return out;
}

function paramProblems(name: string, value: string, p: DiscoveryParam): string[] {
  const values = p.repeated ? value.split(",") : [value];
  const out: string[] = [];
  for (const v of values) {
    if (p.type === "boolean" && v !== "true" && v !== "false") out.push(`query ${name} must be a boolean`);
    if (p.type === "integer" && !/^-?\d+$/.test(v)) out.push(`query ${name} must be an integer`);
    if (p.enum && !p.enum.includes(v)) out.push(`query ${name} must be one of ${p.enum.join(", ")}`);
  }
  return out;
}

const cache = new Map<string, Promise<Spec | null>>();

/** The checker for a Discovery document under api-specs, loaded once; null where the folder is absent. */
export function loadDiscovery(file: string): Promise<Spec | null> {
  let p = cache.get(file);
  if (!p) {
    p = build(file);
    cache.set(file, p);
  }
  return p;
}

/**
 * Each method's OAuth scopes as the Discovery document lists them (a token needs one of them; Google answers 403
 * insufficientPermissions otherwise), by method ID; null where the folder is absent.
 */
export async function discoveryScopes(file: string): Promise<Map<string, string[]> | null> {
  const dir = specsDir();
  if (!dir) return null;
  const doc = JSON.parse(await Bun.file(join(dir, file)).text()) as Json;
  return new Map(methodsOf(doc.resources as Record<string, Json>).map((m) => [m.id, m.scopes ?? []]));
}

async function build(file: string): Promise<Spec | null> {
  const dir = specsDir();
  if (!dir) return null;
  const doc = JSON.parse(await Bun.file(join(dir, file)).text()) as Json;
  const definitions = Object.fromEntries(
    Object.entries(doc.schemas as Record<string, Json>).map(([k, v]) => [k, convert(v)]),
  );
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv as never);
  ajv.addSchema({ $id: "discovery", definitions });
  const validator = (ref: string) => ajv.getSchema(`discovery#/definitions/${ref}`)!;
  const global = (doc.parameters ?? {}) as Record<string, DiscoveryParam>;
  const servicePath = String(doc.servicePath ?? "");
  const methods = methodsOf(doc.resources as Record<string, Json>);
  const byId = new Map(methods.map((m) => [m.id, m]));
  /** The method at an HTTP method and path (path parameters `{x}` match one segment). */
  const match = (method: string, path: string): DiscoveryMethod | null => {
    for (const m of methods) {
      if (m.httpMethod !== method.toUpperCase()) continue;
      const full = `/${servicePath}${m.path}`;
      const paths = m.mediaUpload ? [full, `/upload${full}`] : [full];
      for (const p of paths) {
        const re = new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`);
        if (re.test(path)) return m;
      }
    }
    return null;
  };
  const describe = (errors: { instancePath?: string; message?: string }[] | null | undefined) =>
    (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "invalid"}`);
  return {
    declares: (operationId, status) => byId.has(operationId) && status === 200,
    parameterIn(method, path, name) {
      const m = match(method, path);
      return m?.parameters?.[name]?.location ?? (global[name] ? "query" : null);
    },
    checkRequest(req: SpecRequest) {
      const m = match(req.method, req.path);
      if (!m) return { operationId: null, problems: [`${req.method} ${req.path} is not in ${file}`] };
      const problems: string[] = [];
      const params = { ...global, ...(m.parameters ?? {}) };
      for (const [name, value] of Object.entries(req.query)) {
        const p = params[name];
        if (!p) problems.push(`query ${name} is not a parameter of ${m.id}`);
        else problems.push(...paramProblems(name, value, p));
      }
      for (const [name, p] of Object.entries(m.parameters ?? {}))
        if (p.required && p.location === "query" && req.query[name] === undefined)
          problems.push(`query ${name} is required by ${m.id}`);
      if (m.request) {
        if (req.body !== undefined) {
          const v = validator(m.request.$ref);
          if (!v(req.body)) problems.push(...describe(v.errors as never));
        } else if (!m.mediaUpload) problems.push(`${m.id} takes a ${m.request.$ref} body`);
      } else if (req.body !== undefined) problems.push(`${m.id} takes no body`);
      return { operationId: m.id, problems };
    },
    checkResponse(operationId, status, body) {
      const m = byId.get(operationId);
      if (!m) return [`${operationId} is not in ${file}`];
      if (status !== 200) return [`${operationId} declares no ${status} answer in ${file}`];
      if (!m.response) return body === undefined ? [] : [`${operationId} answers no body`];
      const v = validator(m.response.$ref);
      return v(body) ? [] : describe(v.errors as never);
    },
  };
}
