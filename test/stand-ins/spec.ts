// Checks what a stand-in receives and answers against the network's published API description in
// ../shared/api-specs (beside the project, never copied into it). Where that folder is absent the stand-ins still
// run, and `validationNote()` says validation was off so the test output shows it.
//
// Known defects of the descriptions (api-specs/README.md) are worked around here, in memory, never by editing
// the files: see the `patch` hooks of each stand-in and the notes below.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import addFormats from "ajv-formats";
import OpenAPIBackend from "openapi-backend";
import { parse as parseYaml } from "yaml";

const ROOT = resolve(import.meta.dir, "../..");
const CANDIDATES = [resolve(ROOT, "../shared/api-specs"), "/work/shared/api-specs"];

/** The api-specs folder, or null when neither place has it. */
export function specsDir(): string | null {
  return CANDIDATES.find((d) => existsSync(join(d, "README.md"))) ?? null;
}

let noted = false;
/** Prints once per process whether requests and answers are being validated. */
export function validationNote(): void {
  if (noted) return;
  noted = true;
  const dir = specsDir();
  if (dir) console.log(`stand-ins: every request and answer is validated against ${dir}`);
  else console.log("stand-ins: VALIDATION OFF, ../shared/api-specs is absent; the stand-ins run unchecked");
}

export interface SpecRequest {
  method: string;
  /** The path as the description writes it (after any prefix the stand-in strips). */
  path: string;
  headers: Record<string, string>;
  query: Record<string, string>;
  body?: unknown;
}

type Doc = Record<string, unknown>;

export interface SpecOptions {
  /** The file under api-specs, e.g. "mastodon/schema.json". */
  file: string;
  /** Turns the document into what openapi-backend takes (e.g. Swagger 2.0 to OpenAPI 3), in memory. */
  convert?: (doc: Doc) => Promise<Doc> | Doc;
  /** Form bodies carry only strings: let ajv read "false" as a boolean and "40" as a number. */
  coerce?: boolean;
}

export interface Spec {
  /** Problems with a request; an empty list when it is what the API accepts. */
  checkRequest(req: SpecRequest): { operationId: string | null; problems: string[] };
  /** Problems with an answer to an operation. */
  checkResponse(operationId: string, status: number | "default", body: unknown): string[];
  /** The response statuses the description declares for an operation. */
  declares(operationId: string, status: number): boolean;
  /** Where the operation at this method and path takes a parameter (header, query, …), or null. */
  parameterIn(method: string, path: string, name: string): string | null;
}

const cache = new Map<string, Promise<Spec | null>>();

/** The validator for one description, loaded once per process; null when the folder is absent. */
export function loadSpec(opts: SpecOptions): Promise<Spec | null> {
  let p = cache.get(opts.file);
  if (!p) {
    p = build(opts);
    cache.set(opts.file, p);
  }
  return p;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

async function build(opts: SpecOptions): Promise<Spec | null> {
  const dir = specsDir();
  if (!dir) return null;
  const text = await Bun.file(join(dir, opts.file)).text();
  // Brevo and Listmonk publish YAML; the rest JSON.
  let doc = (/\.ya?ml$/.test(opts.file) ? parseYaml(text, { maxAliasCount: -1 }) : JSON.parse(text)) as Doc;
  if (opts.convert) doc = await opts.convert(doc);
  // openapi-backend finds operations by operationId; descriptions without them (Telegram's) get one made from
  // method and path, in memory.
  const paths = doc.paths as Record<string, Record<string, { operationId?: string }>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const m of METHODS) {
      const op = item[m];
      if (op && !op.operationId) op.operationId = `${m} ${path}`;
    }
  }
  const api = new OpenAPIBackend({
    definition: doc as never,
    quick: true,
    strict: false,
    validate: true,
    coerceTypes: true,
    ajvOpts: { strict: false, logger: false, ...(opts.coerce ? { coerceTypes: true } : {}) } as never,
    customizeAjv: (ajv) => {
      addFormats(ajv as never);
      return ajv;
    },
  });
  await api.init();
  const describe = (errors: { instancePath?: string; message?: string }[] | null | undefined) =>
    (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? "invalid"}`);
  const declares = (operationId: string, status: number) => {
    const op = api.getOperation(operationId) as { responses?: Record<string, unknown> } | undefined;
    const declared = Object.keys(op?.responses ?? {});
    return declared.some(
      (d) => d === String(status) || d === "default" || d.toUpperCase() === `${String(status)[0]}XX`,
    );
  };
  return {
    declares,
    parameterIn(method, path, name) {
      const op = api.matchOperation({
        method: method.toLowerCase(),
        path,
        headers: {},
        query: {},
      } as never) as { parameters?: { name: string; in: string }[] } | undefined;
      return op?.parameters?.find((p) => p.name === name)?.in ?? null;
    },
    checkRequest(req) {
      const request = { ...req, method: req.method.toLowerCase() };
      const op = api.matchOperation(request as never);
      if (!op) return { operationId: null, problems: [`${req.method} ${req.path} is not in ${opts.file}`] };
      const result = api.validateRequest(request as never, op);
      const operationId = (op as { operationId?: string }).operationId ?? null;
      return { operationId, problems: describe(result.errors) };
    },
    checkResponse(operationId, status, body) {
      if (status === "default") {
        const byStatus = api.validator.getStatusBasedResponseValidatorForOperation(operationId) as
          | Record<string, (b: unknown) => boolean & { errors?: unknown }>
          | undefined;
        const validate = byStatus?.default as (((b: unknown) => boolean) & { errors?: never }) | undefined;
        if (!validate) return [`${operationId} declares no default answer in ${opts.file}`];
        validate(body);
        return describe(validate.errors);
      }
      if (!declares(operationId, status))
        return [`${operationId} declares no ${status} answer in ${opts.file}`];
      return describe(api.validateResponse(body, operationId, status).errors);
    },
  };
}
