// Validates a response body against its documented component schema, so a presenter and the OpenAPI document
// cannot drift apart.
import Ajv2020 from "ajv/dist/2020";
import { v1Schemas } from "../../src/http/api/v1/index.ts";

const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

/** The schema's errors for this value, as text; "" when it matches. */
export function schemaErrors(name: string, value: unknown): string {
  const schema = v1Schemas[name];
  if (!schema) return `no component schema ${name}`;
  if (!ajv.getSchema(name)) ajv.addSchema(schema as object, name);
  const validate = ajv.getSchema(name)!;
  return validate(value) ? "" : ajv.errorsText(validate.errors);
}
