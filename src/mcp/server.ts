// The MCP server over a set of tools: built on the SDK's Server class (initialize, ping, tools/list, tools/call),
// one per HTTP request (stateless) or one per `svc mcp` process. A tool's answer is the API's answer; an API
// error comes back as a tool error carrying the problem details, so an agent sees every violation at once.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { toJsonSchema } from "@valibot/to-json-schema";
import pkg from "../../package.json" with { type: "json" };
import { parse } from "../domain/validate.ts";
import { problemBody } from "../http/problem.ts";
import { ServiceError } from "../lib/errors.ts";
import type { ApiAnswer, ApiCall } from "./api.ts";
import type { Tool } from "./tool.ts";
import { tools as allTools } from "./tools/index.ts";

/** The JSON Schema an agent sees for a tool's input: a closed object, generated from its valibot schema. */
export function inputSchemaOf(tool: Tool): { type: "object" } & Record<string, unknown> {
  const { $schema: _, ...schema } = toJsonSchema(tool.input, { errorMode: "ignore" }) as Record<
    string,
    unknown
  >;
  return { ...schema, type: "object" };
}

const listing = new Map<Tool[], unknown[]>();
function toolList(tools: Tool[]) {
  let out = listing.get(tools);
  if (!out) {
    out = tools.map((t) => ({
      name: t.name,
      title: t.annotations.title,
      description: t.description,
      inputSchema: inputSchemaOf(t),
      annotations: t.annotations,
    }));
    listing.set(tools, out);
  }
  return out;
}

function toolResult(answer: ApiAnswer & { note?: string }): CallToolResult {
  const isError = answer.status >= 400;
  const content: CallToolResult["content"] = [{ type: "text", text: JSON.stringify(answer.body, null, 2) }];
  if (answer.note && !isError) content.push({ type: "text", text: answer.note });
  const structured =
    typeof answer.body === "object" && answer.body !== null && !Array.isArray(answer.body)
      ? answer.body
      : null;
  return {
    content,
    ...(structured ? { structuredContent: structured } : {}),
    ...(isError ? { isError } : {}),
  };
}

/** Where a server's answers come from: the install (for `doc_url`) and the request ID of each tool call. */
export interface McpContext {
  baseUrl: string;
  /**
   * The request ID of an error found before the API was asked: over HTTP the ID of the POST /v1/mcp request
   * (its Request-Id header, its log line); over stdio a new ID for the call, as no request was made.
   */
  requestId: () => string;
}

/**
 * A problem svc found without the API answering it (the tool's arguments, a template key not found, the install
 * out of reach over stdio), shaped as the API shapes it: with a request ID and a doc_url, never made by hand.
 */
function argumentError(e: ServiceError, ctx: McpContext): CallToolResult {
  return toolResult({ status: e.status, body: problemBody(e, ctx.requestId(), ctx.baseUrl) });
}

export function createMcpServer(api: ApiCall, ctx: McpContext, tools: Tool[] = allTools): Server {
  const server = new Server(
    { name: "svc", title: "svc publishing service", version: pkg.version },
    {
      capabilities: { tools: {} },
      instructions:
        "svc publishes posts to a brand's channels on social networks and never publishes twice. Typical flow: " +
        "list_brands, list_channels, preview_post until valid, then create_post with an idempotency_key you " +
        "reuse on retry, and get_post to follow it. Errors carry a stable `code` and, for 422, every problem in " +
        "`errors`.",
    },
  );
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolList(tools) as never }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const tool = byName.get(req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${req.params.name}.`);
    let args: unknown;
    try {
      args = parse(tool.input, req.params.arguments ?? {});
    } catch (e) {
      if (e instanceof ServiceError) return argumentError(e, ctx);
      throw e;
    }
    try {
      return toolResult(await tool.run(api, args));
    } catch (e) {
      if (e instanceof ServiceError) return argumentError(e, ctx);
      throw e;
    }
  });
  return server;
}
