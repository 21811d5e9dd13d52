export { memoryTools, type MemoryTarget, type RecalledMemory } from "./tools.ts";
export {
  recalledContext,
  rememberConversation,
  type ConversationTurn,
  type RecalledContextOptions,
  type RememberConversationOptions,
} from "./context.ts";
