// The person's notifications, for an agent acting with a user token (`svc mcp` with the stored CLI sign-in). An
// API key is refused by the route itself (403 forbidden), so the agent is told to use a person's credential.
import * as v from "valibot";
import { described } from "../fields.ts";
import { READ, type Tool } from "../tool.ts";

export const notificationTools: Tool[] = [
  {
    name: "list_notifications",
    description:
      "List your notifications in this org, newest first (at most 100): posts waiting for your approval, posts " +
      "that need attention or failed, channels to connect again, new members. Each has a subject, body, link to " +
      "the dashboard and read_at (null while unread). Only for a person's sign-in (a user token from `svc auth " +
      "login`); API keys are refused.",
    annotations: { title: "List notifications", ...READ },
    input: v.strictObject({
      unread: described(v.optional(v.boolean()), "true: only unread notifications."),
    }),
    run: (api, a: { unread?: boolean }) =>
      api({
        method: "GET",
        path: "/v1/notifications",
        query: { limit: 100, ...(a.unread ? { unread: "true" } : {}) },
      }),
  },
];
