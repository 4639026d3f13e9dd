// One MCP tool: its name, what an agent reads about it (title, description, annotations), its input as a strict
// valibot object (the JSON Schema an agent sees is generated from it), and what it asks of the API.
import type * as v from "valibot";
import type { ApiAnswer, ApiCall } from "./api.ts";

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Whether the tool reaches outside svc (a network). */
  openWorldHint: boolean;
}

export interface Tool {
  name: string;
  description: string;
  annotations: ToolAnnotations;
  // biome-ignore lint/suspicious/noExplicitAny: each tool's own object schema
  input: v.ObjectSchema<any, any> | v.StrictObjectSchema<any, any>;
  // biome-ignore lint/suspicious/noExplicitAny: the parsed input of `input`
  run(api: ApiCall, args: any): Promise<ApiAnswer>;
}

/** Reads of the install: nothing changes, repeating is harmless. */
export const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
