import { z } from "zod";
import { TargetId } from "@/lib/validation/target";
import { named } from "@/lib/validation/named";
import { text } from "@/lib/validation/strings";
import { EVENT_TYPES, EventType } from "@/lib/event-recording/event-types";

const Timestamp = z.string().describe("ISO 8601 UTC timestamp with milliseconds");

export const EventSchema = named(
  z.object({
    id: z.string().describe("the same id in the feed and as a webhook's `webhook-id`: deduplicate on it"),
    type: z.enum(EVENT_TYPES),
    created_at: Timestamp,
    namespace_id: z.string().nullable().describe("null for the organization's own events (API keys, connections)"),
    identity_id: z.string().nullable(),
    scopes: z.record(z.string(), z.string()).describe("the memory's scopes, for a memory's events"),
    data: z
      .record(z.string(), z.unknown())
      .describe("what the change is about: ids, counts, a deletion's reason; never a memory's content"),
    content: z
      .string()
      .nullable()
      .optional()
      .describe(
        "with include_content, for a memory's events: its content now (null once it is deleted); absent otherwise",
      ),
  }),
  "Event",
);
export type EventJson = z.infer<typeof EventSchema>;

export const EventFeedSchema = named(
  z.object({
    events: z.array(EventSchema),
    next_cursor: z
      .string()
      .describe("pass it as `after` to read on from the last event here (also when there was none: poll with it)"),
    has_more: z.boolean().describe("more events are there now: read again at once"),
  }),
  "EventFeed",
);

const Flag = z
  .enum(["true", "false"], { error: "must be true or false" })
  .optional()
  .transform((value) => value === "true");

const TYPE_NAME = `(?:${EVENT_TYPES.map((type) => type.replace(/\./g, "\\.")).join("|")})`;
const TYPE_LIST = new RegExp(`^${TYPE_NAME}(?:,${TYPE_NAME}){0,${EVENT_TYPES.length - 1}}$`);

export const EventFeedQuery = z
  .strictObject({
    namespace_id: TargetId.optional().describe("only this namespace's events"),
    type: z
      .string({ error: "must be event types, comma-separated" })
      .regex(TYPE_LIST, `must be event types, comma-separated: ${EVENT_TYPES.join(", ")}`)
      .transform((value) => value.split(",").map((type) => EventType.parse(type)))
      .optional()
      .describe("only events of these types, comma-separated (memory.created,memory.deleted)"),
    after: text({ min: 1, max: 512 }).optional().describe("the `next_cursor` of an earlier read: events after it"),
    limit: z.coerce
      .number({ error: "must be a whole number from 1 to 500" })
      .int("must be a whole number from 1 to 500")
      .min(1, "must be a whole number from 1 to 500")
      .max(500, "must be a whole number from 1 to 500")
      .default(100),
    include_content: Flag.describe("true: a memory's events carry its content (within your scopes)"),
    latest: Flag.describe(
      "true: the newest `limit` events (still oldest first), and next_cursor after the newest: to show what " +
        "happened lately, then follow from there; not with `after`",
    ),
  })
  .refine((query) => !(query.latest && query.after !== undefined), {
    error: "latest reads the newest events: send it without `after`",
    path: ["latest"],
  });
export type EventFeedQuery = z.infer<typeof EventFeedQuery>;
