import { listEvents } from "@/lib/events/list-events";
import { EventFeedQuery, EventFeedSchema } from "@/lib/events/schemas";
import { operation } from "../operation";

export const listEventsOperation = operation({
  http: {
    method: "GET",
    path: "/events",
    tag: "Events",
    summary:
      "The changes to the memory the key may read, oldest first, after a cursor: poll with next_cursor to follow " +
      "them (kept EVENT_RETENTION_DAYS, 30 by default)",
    errors: [404],
  },
  permission: "NAMESPACE_READ",
  query: EventFeedQuery,
  response: EventFeedSchema,
  run: ({ principal, query }) => listEvents(principal, query),
});
