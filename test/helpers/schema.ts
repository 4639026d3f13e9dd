// Validates a response body against the OpenAPI component schema of that name (the document tests read).
import Ajv2020 from "ajv/dist/2020.js";
import { v1Schemas } from "../../src/http/api/v1/index.ts";
import { listSchema } from "../../src/http/openapi-schemas.ts";

const ajv = new Ajv2020({ strict: false, validateFormats: false });
ajv.addSchema({ $id: "svc", components: { schemas: v1Schemas } });

/** Error text, or null when `body` matches the named schema (`XList` is the list envelope of X). */
export function schemaErrors(name: string, body: unknown): string | null {
  const schema = name.endsWith("List") && !v1Schemas[name] ? listSchema(name.slice(0, -4)) : v1Schemas[name];
  const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"svc#/components'));
  const ok = ajv.validate(rebased, body);
  return ok ? null : ajv.errorsText(ajv.errors);
}
