import { ErrorCode, WebClient } from "@slack/web-api";
import type { ConversationsHistoryResponse, ConversationsRepliesResponse } from "@slack/web-api";
import { z } from "zod";
import { hasVisibleText } from "@/lib/validation/strings";

import {
  type DocumentRef,
  type ProviderModule,
  type ProviderReader,
  ProviderRateLimitedError,
  ProviderUnauthorizedError,
  type ReaderContext,
  type RevokeContext,
} from "@/lib/integrations/provider";

/**
 * Slack: each top-level message of the chosen channels, with its thread, is one document, read through
 * @slack/web-api's WebClient pointed at the deployment's API URL.
 */

/** Public channels start with C, private ones (older workspaces) with G. */
const ChannelId = z.string().regex(/^[CG][A-Z0-9]{2,}$/, 'A channel is its id, e.g. "C0123ABCD".');

export const SlackOptions = z.strictObject({
  /** Absent: every channel the app is a member of. */
  channels: z.array(ChannelId).min(1).max(100).optional(),
});

const PAGE_SIZE = 200;
const TITLE_LENGTH = 80;

/** Slack's answers that mean the token is no good any more: refresh it, or reconnect. */
const UNAUTHORIZED_ERRORS = new Set([
  "invalid_auth",
  "not_authed",
  "token_expired",
  "token_revoked",
  "account_inactive",
]);

/** Channel events rather than things people said: nothing to remember. */
const EVENT_SUBTYPES = new Set([
  "channel_join",
  "channel_leave",
  "group_join",
  "group_leave",
  "channel_topic",
  "channel_purpose",
  "channel_name",
  "channel_archive",
  "channel_unarchive",
  "group_topic",
  "group_purpose",
  "group_name",
  "group_archive",
  "group_unarchive",
  "pinned_item",
  "unpinned_item",
  "tombstone",
  "thread_broadcast",
]);

type SlackMessage = NonNullable<ConversationsHistoryResponse["messages"]>[number];
type SlackReply = NonNullable<ConversationsRepliesResponse["messages"]>[number];

/** Who wrote a message or a reply: a person's id, or a bot's name. */
interface Authored {
  user?: string;
  username?: string;
  bot_profile?: { name?: string };
}

interface Channel {
  id: string;
  name: string;
}

interface MessageData {
  channel: Channel;
  message: SlackMessage;
}

/** A chosen channel the app was never invited to: the person must invite it, or choose another channel. */
export class SlackChannelNotJoinedError extends Error {
  constructor(channelName: string) {
    super(`The Slack app is not a member of #${channelName}: invite it there (/invite) or leave the channel out.`);
    this.name = "SlackChannelNotJoinedError";
  }
}

function platformErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, data } = error as { code?: unknown; data?: { error?: unknown } };
  return code === ErrorCode.PlatformError && typeof data?.error === "string" ? data.error : undefined;
}

/** The WebClient's errors as the sync engine understands them: wait (rate limited), reauthorize, or fail. */
function providerError(error: unknown): unknown {
  if (typeof error !== "object" || error === null) return error;
  const { code, retryAfter } = error as { code?: unknown; retryAfter?: unknown };
  if (code === ErrorCode.RateLimitedError) {
    return new ProviderRateLimitedError(Math.max(1, typeof retryAfter === "number" ? retryAfter : 1));
  }
  const platformError = platformErrorCode(error);
  if (platformError === "ratelimited") return new ProviderRateLimitedError(1);
  if (platformError && UNAUTHORIZED_ERRORS.has(platformError)) {
    return new ProviderUnauthorizedError(`Slack refused the access token (${platformError}).`);
  }
  return error;
}

async function slackCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw providerError(error);
  }
}

function slackClient(apiUrl: string, accessToken: string): WebClient {
  return new WebClient(accessToken, {
    slackApiUrl: apiUrl,
    // The sync engine waits Retry-After itself: the client must hand a 429 back at once, not sleep and retry.
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
}

/** Slack timestamps ("1700000000.000100") compared exactly: seconds, then the sequence after the dot. */
function compareTimestamps(left: string, right: string): number {
  const [leftSeconds, leftSequence = ""] = left.split(".");
  const [rightSeconds, rightSequence = ""] = right.split(".");
  const bySeconds = Number(leftSeconds) - Number(rightSeconds);
  if (bySeconds !== 0) return bySeconds;
  return leftSequence.padEnd(6, "0").localeCompare(rightSequence.padEnd(6, "0"));
}

function latestTimestamp(timestamps: (string | undefined)[]): string {
  const present = timestamps.filter((timestamp): timestamp is string => Boolean(timestamp));
  return present.reduce((latest, timestamp) => (compareTimestamps(timestamp, latest) > 0 ? timestamp : latest));
}

function timestampToIso(timestamp: string): string {
  return new Date(Number(timestamp.split(".")[0]) * 1000).toISOString();
}

function isTopLevelMessage(message: SlackMessage): message is SlackMessage & { ts: string } {
  if (!message.ts || (message.subtype && EVENT_SUBTYPES.has(message.subtype))) return false;
  // A reply broadcast to the channel also appears in its thread: the thread's document holds it.
  return !message.thread_ts || message.thread_ts === message.ts;
}

class SlackReader implements ProviderReader {
  private readonly client: WebClient;
  private workspaceUrl: string | undefined;
  private readonly userNames = new Map<string, string>();

  constructor(
    apiUrl: string,
    accessToken: string,
    private readonly channelIds: string[] | undefined,
  ) {
    this.client = slackClient(apiUrl, accessToken);
  }

  async *listDocuments(): AsyncIterable<DocumentRef> {
    const workspaceUrl = await this.workspace();
    for await (const channel of this.channelsInReach()) {
      for await (const message of this.topLevelMessages(channel)) {
        const version = latestTimestamp([message.ts, message.edited?.ts, message.latest_reply]);
        const firstLine = (message.text ?? "").replace(/\s+/g, " ").trim();
        const data: MessageData = { channel, message };
        yield {
          sourceId: `${channel.id}:${message.ts}`,
          title: `#${channel.name}: ${hasVisibleText(firstLine) ? firstLine.slice(0, TITLE_LENGTH) : "(no text)"}`,
          // What chat.getPermalink answers, built without one request per message.
          url: `${workspaceUrl}archives/${channel.id}/p${message.ts.replace(".", "")}`,
          updatedAt: timestampToIso(version),
          version,
          data,
        };
      }
    }
  }

  async documentText(ref: DocumentRef): Promise<string | null> {
    const { channel, message } = ref.data as MessageData;
    const parts = [`Message by ${await this.userName(message)} in #${channel.name}: ${message.text ?? ""}`];
    if ((message.reply_count ?? 0) > 0 && message.ts) {
      const replies = await this.replies(channel, message.ts);
      if (replies === null) return null;
      for (const reply of replies) parts.push(`Reply by ${await this.userName(reply)}: ${reply.text ?? ""}`);
    }
    return parts.join("\n\n");
  }

  /** The workspace's web address ("https://acme.slack.com/"), which Slack's permalinks start with. */
  private async workspace(): Promise<string> {
    if (!this.workspaceUrl) {
      const identity = await slackCall(() => this.client.auth.test());
      const url = identity.url ?? "https://slack.com/";
      this.workspaceUrl = url.endsWith("/") ? url : `${url}/`;
    }
    return this.workspaceUrl;
  }

  private async *channelsInReach(): AsyncIterable<Channel> {
    if (this.channelIds) {
      for (const id of this.channelIds) {
        try {
          const { channel } = await slackCall(() => this.client.conversations.info({ channel: id }));
          if (!channel?.id || channel.is_archived) continue;
          const name = channel.name ?? channel.id;
          // An app reads a channel's history only as a member: say so rather than sync it as empty.
          if (channel.is_member === false) throw new SlackChannelNotJoinedError(name);
          yield { id: channel.id, name };
        } catch (error) {
          // A chosen channel that was deleted or that the app left is out of reach: its documents go.
          if (platformErrorCode(error) === "channel_not_found") continue;
          throw error;
        }
      }
      return;
    }
    let cursor: string | undefined;
    do {
      const page = await slackCall(() =>
        this.client.conversations.list({
          types: "public_channel,private_channel",
          exclude_archived: true,
          limit: PAGE_SIZE,
          ...(cursor ? { cursor } : {}),
        }),
      );
      for (const channel of page.channels ?? []) {
        if (channel.id && channel.is_member) yield { id: channel.id, name: channel.name ?? channel.id };
      }
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
  }

  private async *topLevelMessages(channel: Channel): AsyncIterable<SlackMessage & { ts: string }> {
    let cursor: string | undefined;
    do {
      const page = await slackCall(() =>
        this.client.conversations.history({ channel: channel.id, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
      );
      for (const message of page.messages ?? []) {
        if (isTopLevelMessage(message)) yield message;
      }
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
  }

  /** The thread's replies, oldest first (without the parent, which conversations.replies also returns). */
  private async replies(channel: Channel, threadTs: string): Promise<SlackReply[] | null> {
    const replies: SlackReply[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await slackCall(() =>
          this.client.conversations.replies({
            channel: channel.id,
            ts: threadTs,
            limit: PAGE_SIZE,
            ...(cursor ? { cursor } : {}),
          }),
        );
        for (const reply of page.messages ?? []) {
          if (reply.ts !== threadTs) replies.push(reply);
        }
        cursor = page.response_metadata?.next_cursor || undefined;
      } while (cursor);
    } catch (error) {
      if (platformErrorCode(error) === "thread_not_found" || platformErrorCode(error) === "channel_not_found") {
        return null;
      }
      throw error;
    }
    return replies;
  }

  /** A person's display name when the token may read users (users:read), else the id Slack gives. */
  private async userName(message: Authored): Promise<string> {
    const userId = message.user;
    if (!userId) return message.username ?? message.bot_profile?.name ?? "a bot";
    const known = this.userNames.get(userId);
    if (known) return known;
    let name = userId;
    try {
      const { user } = await slackCall(() => this.client.users.info({ user: userId }));
      name = user?.profile?.display_name || user?.real_name || user?.name || userId;
    } catch (error) {
      // Without users:read (missing_scope) or for a deleted user, the id still says who wrote it.
      if (!platformErrorCode(error)) throw error;
    }
    this.userNames.set(userId, name);
    return name;
  }
}

/** auth.revoke with the connection's own token; a token Slack no longer knows has nothing left to revoke. */
async function revoke({ endpoints, accessToken }: RevokeContext): Promise<void> {
  const client = slackClient(endpoints.apiUrl, accessToken);
  try {
    await client.auth.revoke();
  } catch (error) {
    const platformError = platformErrorCode(error);
    if (
      platformError &&
      ["invalid_auth", "token_revoked", "token_expired", "account_inactive"].includes(platformError)
    ) {
      return;
    }
    throw providerError(error);
  }
}

export const slack: ProviderModule = {
  options: SlackOptions,
  reader(context: ReaderContext): ProviderReader {
    const options = SlackOptions.parse(context.options);
    return new SlackReader(context.endpoints.apiUrl, context.accessToken, options.channels);
  },
  revoke,
};
