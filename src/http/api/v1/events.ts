import { getEvent, listEvents } from "../../../domain/events/service.ts";
import { openEventStream } from "../../../domain/events/stream.ts";
import type { RouteDef } from "../../route.ts";

export const eventRoutes: RouteDef[] = [
  {
    method: "GET",
    path: "/v1/events",
    tag: "Events",
    summary: "List the last 30 days of events, newest first",
    scope: "events:read",
    list: true,
    query: ["type"],
    response: "EventList",
    handler: ({ app, actor, query }) => listEvents(app, actor, query),
  },
  {
    method: "GET",
    path: "/v1/events/stream",
    tag: "Events",
    summary:
      "Server-sent events: retry: 3000, `: connected`, one id/event/data frame per event, `: ping` after 15 s idle; resumes after Last-Event-ID or starting_after",
    scope: "events:read",
    query: ["types", "starting_after"],
    response: "EventStream",
    produces: "text/event-stream",
    handler: async ({ app, actor, query, request }) => {
      const body = await openEventStream(app, actor, {
        types: query.types,
        starting_after: query.starting_after,
        lastEventId: request.headers.get("last-event-id"),
      });
      return new Response(body, {
        status: 200,
        headers: {
          "Content-Type": "text/event-stream",
          "Cache-Control": "no-store",
          "X-Accel-Buffering": "no",
        },
      });
    },
  },
  {
    method: "GET",
    path: "/v1/events/:id",
    tag: "Events",
    summary: "Get an event",
    scope: "events:read",
    response: "Event",
    handler: ({ app, actor, params }) => getEvent(app, actor, params.id!),
  },
];

export const eventSchemas: Record<string, unknown> = {
  EventStream: {
    type: "string",
    description: "text/event-stream; each frame's data is one Event as JSON",
  },
};
