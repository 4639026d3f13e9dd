// Validates a response body against its documented component schema, so a presenter and the OpenAPI document
// cannot drift apart. The components are registered as one document, so a schema that refers to another
// (`#/components/schemas/PostTarget` inside Post, the item of a list) resolves as it does in /v1/openapi.yaml.
import Ajv2020 from "ajv/dist/2020";
import { v1Schemas } from "../../src/http/api/v1/index.ts";

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const DOC = "https://svc.test/v1/schemas";
ajv.addSchema({ $id: DOC, components: { schemas: v1Schemas } });

/** The schema's errors for this value, as text; "" when it matches. */
export function schemaErrors(name: string, value: unknown): string {
  if (!v1Schemas[name]) return `no component schema ${name}`;
  const validate = ajv.getSchema(`${DOC}#/components/schemas/${name}`)!;
  return validate(value) ? "" : ajv.errorsText(validate.errors);
}
