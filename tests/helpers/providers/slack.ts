// A Slack Web API on loopback for the integration tests, behind the shared OAuth server: auth.test,
// conversations.list/info/history/replies and users.info, POSTed as form bodies and answered in Slack's
// `{ ok, ..., response_metadata: { next_cursor } }` shapes. Pages hold at most FAKE_PAGE_SIZE items whatever
// `limit` asks (Slack itself may answer fewer than asked), so that the seed alone makes readers follow cursors.
import type { FakeContent } from "./oauth-server";
import { type FakeApiRequest, type FakeApiResponse, type FakeProvider, startFakeProvider } from "./oauth-server";

export const FAKE_PAGE_SIZE = 2;
export const WORKSPACE_URL = "https://fake-team.slack.com/";

export interface FakeSlackMessage {
  ts: string;
  user: string;
  text: string;
  subtype?: string;
  editedTs?: string;
  replies: { ts: string; user: string; text: string }[];
}

export interface FakeSlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isMember: boolean;
  isArchived: boolean;
  /** Oldest first, as they were posted. */
  messages: FakeSlackMessage[];
}

/** Switches a test flips to reach the rarer paths of the real API. */
export interface SlackFakeSettings {
  /** False: users.info answers `missing_scope`, as Slack does for a token without users:read. */
  usersReadable: boolean;
}

const USERS: Record<string, string> = { U0ALICE: "alice", U0BOB: "bob", U0CAROL: "carol", U0DAVE: "dave" };

/** What the reader must make of a message and its thread. */
export function slackMessageText(channel: FakeSlackChannel, message: FakeSlackMessage): string {
  const parts = [`Message by ${USERS[message.user]} in #${channel.name}: ${message.text}`];
  for (const reply of message.replies) parts.push(`Reply by ${USERS[reply.user]}: ${reply.text}`);
  return parts.join("\n\n");
}

export function slackPermalink(channel: FakeSlackChannel, message: FakeSlackMessage): string {
  return `${WORKSPACE_URL}archives/${channel.id}/p${message.ts.replace(".", "")}`;
}

export async function startSlackFake(
  options: { port?: number } = {},
): Promise<FakeProvider & { content: FakeContent; channels: FakeSlackChannel[]; settings: SlackFakeSettings }> {
  const settings: SlackFakeSettings = { usersReadable: true };
  // Slack timestamps are seconds and a sequence number; this clock only moves forward.
  let seconds = 1_772_000_000;
  const nextTs = () => `${(seconds += 60)}.000${String(seconds % 1000).padStart(3, "0")}`;
  const message = (user: string, text: string, replies: [string, string][] = [], subtype?: string) => {
    const posted: FakeSlackMessage = { ts: nextTs(), user, text, replies: [], ...(subtype ? { subtype } : {}) };
    posted.replies = replies.map(([replyUser, replyText]) => ({ ts: nextTs(), user: replyUser, text: replyText }));
    return posted;
  };

  const general: FakeSlackChannel = {
    id: "C0GENERAL",
    name: "general",
    isPrivate: false,
    isMember: true,
    isArchived: false,
    messages: [
      message("U0ALICE", "<@U0DAVE> has joined the channel", [], "channel_join"),
      message("U0ALICE", "Reminder: the lighthouse keeper logs the tide at dawn, so standup moves to 7:30.", [
        ["U0BOB", "Does that include the Friday standup?"],
        ["U0CAROL", "Yes, and the orange heron will bring coffee."],
      ]),
      message("U0BOB", "The staging cluster forgets its certificates every Monday morning."),
      message("U0CAROL", "Every new hire plants a cedar sapling behind the office."),
    ],
  };
  const leadership: FakeSlackChannel = {
    id: "G0LEADERS",
    name: "leadership",
    isPrivate: true,
    isMember: true,
    isArchived: false,
    messages: [message("U0DAVE", "Budget review: the saffron invoices are paid in full by March.")],
  };
  // Member but not chosen, not a member, and archived: out of a sync's reach for three different reasons.
  const random: FakeSlackChannel = {
    id: "C0RANDOM",
    name: "random",
    isPrivate: false,
    isMember: true,
    isArchived: false,
    messages: [message("U0BOB", "Who left a tuba in the kitchen?")],
  };
  const watercooler: FakeSlackChannel = {
    id: "C0WATER",
    name: "watercooler",
    isPrivate: false,
    isMember: false,
    isArchived: false,
    messages: [message("U0CAROL", "The moon base opens in spring.")],
  };
  const oldProject: FakeSlackChannel = {
    id: "C0OLDPROJ",
    name: "old-project",
    isPrivate: false,
    isMember: true,
    isArchived: true,
    messages: [message("U0ALICE", "Project Pelican is over; thanks all.")],
  };
  const channels = [general, leadership, random, watercooler, oldProject];
  const chosen = [general, leadership];

  const provider = await startFakeProvider({
    provider: "slack",
    port: options.port,
    handleApi: (request) => answer(request),
  });

  const channelJson = (channel: FakeSlackChannel) => ({
    id: channel.id,
    name: channel.name,
    name_normalized: channel.name,
    is_channel: !channel.isPrivate,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: channel.isPrivate,
    is_archived: channel.isArchived,
    is_general: channel.name === "general",
    is_member: channel.isMember,
    is_shared: false,
    is_ext_shared: false,
    is_org_shared: false,
    created: 1_700_000_000,
    creator: "U0ALICE",
    topic: { value: "", creator: "", last_set: 0 },
    purpose: { value: "", creator: "", last_set: 0 },
    num_members: 4,
  });

  const messageJson = (item: FakeSlackMessage) => {
    const latestReply = item.replies.at(-1);
    return {
      type: "message",
      ts: item.ts,
      user: item.user,
      text: item.text,
      team: "T0FAKE",
      ...(item.subtype ? { subtype: item.subtype } : {}),
      ...(item.editedTs ? { edited: { user: item.user, ts: item.editedTs } } : {}),
      ...(latestReply
        ? {
            thread_ts: item.ts,
            reply_count: item.replies.length,
            reply_users_count: new Set(item.replies.map((reply) => reply.user)).size,
            reply_users: [...new Set(item.replies.map((reply) => reply.user))],
            latest_reply: latestReply.ts,
            subscribed: false,
          }
        : {}),
    };
  };

  /** One page of `items` behind Slack's opaque cursor (here the offset, base64-encoded as Slack's look). */
  function cursorPage<T>(request: FakeApiRequest, items: T[]): { page: T[]; nextCursor: string } {
    const fields = request.body as Record<string, string>;
    const limit = Math.min(Number(fields.limit ?? 100) || 100, FAKE_PAGE_SIZE);
    const offset = fields.cursor ? Number(Buffer.from(fields.cursor, "base64").toString("utf8").split(":")[1]) : 0;
    const end = offset + limit;
    const nextCursor = end < items.length ? Buffer.from(`offset:${end}`).toString("base64") : "";
    return { page: items.slice(offset, end), nextCursor };
  }

  const ok = (json: Record<string, unknown>): FakeApiResponse => ({ json: { ok: true, ...json } });
  const fail = (error: string): FakeApiResponse => ({ json: { ok: false, error } });

  function answer(request: FakeApiRequest): FakeApiResponse | null {
    if (request.method !== "POST") return null;
    const fields = request.body as Record<string, string>;
    const channel = channels.find((candidate) => candidate.id === fields.channel);
    const readable = channel && (channel.isMember || !channel.isPrivate) ? channel : undefined;
    switch (request.path) {
      case "/auth.test":
        return ok({ url: WORKSPACE_URL, team: "Fake Team", user: "memory-bot", team_id: "T0FAKE", user_id: "U0BOT" });
      case "/users.info": {
        if (!settings.usersReadable) return fail("missing_scope");
        const name = USERS[fields.user];
        if (!name) return fail("user_not_found");
        return ok({
          user: { id: fields.user, name, real_name: name, profile: { display_name: name, real_name: name } },
        });
      }
      case "/conversations.list": {
        const types = (fields.types ?? "public_channel").split(",");
        const listed = channels.filter(
          (candidate) =>
            types.includes(candidate.isPrivate ? "private_channel" : "public_channel") &&
            (!candidate.isPrivate || candidate.isMember) &&
            !(fields.exclude_archived === "true" && candidate.isArchived),
        );
        const { page, nextCursor } = cursorPage(request, listed);
        return ok({ channels: page.map(channelJson), response_metadata: { next_cursor: nextCursor } });
      }
      case "/conversations.info":
        return readable ? ok({ channel: channelJson(readable) }) : fail("channel_not_found");
      case "/conversations.history": {
        if (!readable) return fail("channel_not_found");
        if (!readable.isMember) return fail("not_in_channel");
        const newestFirst = [...readable.messages].reverse().map(messageJson);
        const { page, nextCursor } = cursorPage(request, newestFirst);
        return ok({
          messages: page,
          has_more: nextCursor !== "",
          pin_count: 0,
          response_metadata: { next_cursor: nextCursor },
        });
      }
      case "/conversations.replies": {
        if (!readable) return fail("channel_not_found");
        const parent = readable.messages.find((candidate) => candidate.ts === fields.ts);
        if (!parent) return fail("thread_not_found");
        const thread = [
          messageJson(parent),
          ...parent.replies.map((reply) => ({
            type: "message",
            ts: reply.ts,
            user: reply.user,
            text: reply.text,
            thread_ts: parent.ts,
            parent_user_id: parent.user,
          })),
        ];
        const { page, nextCursor } = cursorPage(request, thread);
        return ok({ messages: page, has_more: nextCursor !== "", response_metadata: { next_cursor: nextCursor } });
      }
      default:
        return null;
    }
  }

  const isDocument = (item: FakeSlackMessage) => !item.subtype;

  const content: FakeContent = {
    connectOptions: { channels: chosen.map((channel) => channel.id) },
    documents() {
      return chosen.flatMap((channel) =>
        channel.messages.filter(isDocument).map((item) => ({
          url: slackPermalink(channel, item),
          title: `#${channel.name}: ${item.text.slice(0, 80)}`,
          text: slackMessageText(channel, item),
        })),
      );
    },
    changeOne() {
      const phrase = "The copper kettle whistles when the build turns green.";
      const thread = general.messages.find((item) => item.replies.length > 0)!;
      thread.replies.push({ ts: nextTs(), user: "U0DAVE", text: phrase });
      return { url: slackPermalink(general, thread), phrase };
    },
    deleteOne() {
      const index = general.messages.findIndex((item) => isDocument(item) && item.replies.length === 0);
      const [deleted] = general.messages.splice(index, 1);
      return { url: slackPermalink(general, deleted) };
    },
    addOne() {
      const phrase = "The new on-call rota is drawn by a tortoise named Lucille.";
      const posted = message("U0CAROL", phrase);
      leadership.messages.push(posted);
      return { url: slackPermalink(leadership, posted), phrase };
    },
  };

  return Object.assign(provider, { content, channels, settings });
}
