// Shared by the template route tests: a sound source, people with user tokens, and response shape checks against
// the documented schemas.
import { randomBytes } from "node:crypto";
import Ajv2020 from "ajv/dist/2020";
import type { App } from "../../../../src/app/context.ts";
import { newUserToken } from "../../../../src/crypto/credentials.ts";
import { sha256hex } from "../../../../src/crypto/hash.ts";
import { adminActor } from "../../../../src/domain/actor.ts";
import { addMember } from "../../../../src/domain/identity/members/service.ts";
import { type Role, scopesOfRole } from "../../../../src/domain/scopes.ts";
import { v1Schemas } from "../../../../src/http/api/v1/index.ts";
import { newId } from "../../../../src/lib/ids.ts";

/** A release template every test starts from and breaks one way at a time. */
export const release = (over: Record<string, unknown> = {}) => ({
  variables: {
    type: "object",
    properties: { version: { type: "string" }, url: { type: "string" }, notes: { type: "string" } },
    required: ["version", "url"],
  },
  examples: [{ version: "1.0", url: "https://example.com/releases/1.0" }],
  body: "Release {{.version}} is out: {{.url}}{{if .notes}}\n{{.notes}}{{end}}",
  overrides: {},
  fit: {},
  ...over,
});

/**
 * A member of the org with a user token in test mode. Tokens come from the dashboard's device flow, which is not
 * built yet, so the row is written as that flow will write it: the SHA-256 of the token.
 */
export async function personToken(app: App, orgId: string, role: Role): Promise<string> {
  const email = `${role}-${randomBytes(4).toString("hex")}@example.com`;
  const added = await addMember(app, adminActor(orgId, "members add", scopesOfRole("owner")), {
    email,
    role,
    password: "correct horse battery staple",
  });
  const token = newUserToken();
  await app.db
    .insertInto("user_tokens")
    .values({
      id: newId("utok"),
      user_id: added.member.id,
      livemode: 0,
      name: "test device",
      hash: sha256hex(token),
      hint: token.slice(-4),
      via_sso: 0,
      created_at: app.clock.now(),
      last_used_at: null,
      revoked_at: null,
    })
    .execute();
  return token;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
// Responses are UTC RFC 3339 with milliseconds, as toISOString writes them.
ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
ajv.addSchema({ $id: "https://svc.test/v1", components: { schemas: v1Schemas } });

/** The errors of a body against a documented response schema (empty when it conforms). */
export function shapeErrors(name: string, body: unknown): string[] {
  const validate = ajv.getSchema(`https://svc.test/v1#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

export const codesOf = (body: { errors?: { code: string; param: string | null }[] }) =>
  (body.errors ?? []).map((e) => `${e.code} ${e.param}`);
