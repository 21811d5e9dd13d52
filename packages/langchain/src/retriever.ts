import type { Document } from "@langchain/core/documents";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import { matchToDocument, targetOf, type MemoryTarget, type Metadata } from "./documents.ts";

export interface MemoryGatewayRetrieverInput extends BaseRetrieverInput, MemoryTarget {
  /** How many memories a query returns at most (1 to 100); default 4, as LangChain's vector store retrievers. */
  topK?: number;
  /** Leave out matches scoring less (0 to 1). */
  minScore?: number;
  /** Keep only memories carrying these exact metadata values. */
  filter?: Metadata;
  /** Keep only the turns of this conversation. */
  sessionId?: string;
}

/**
 * A retriever over a Memory Gateway namespace: each query is one `recall` (the gateway's hybrid search of words
 * and meaning), and each match a Document whose metadata says which memory it is and how well it matched.
 */
export class MemoryGatewayRetriever extends BaseRetriever {
  static lc_name() {
    return "MemoryGatewayRetriever";
  }

  lc_namespace = ["memory_gateway", "retrievers"];
  private readonly target: MemoryTarget;
  private readonly topK: number;
  private readonly minScore?: number;
  private readonly filter?: Metadata;
  private readonly sessionId?: string;

  constructor({
    client,
    namespaceId,
    identityId,
    scopes,
    topK = 4,
    minScore,
    filter,
    sessionId,
    ...fields
  }: MemoryGatewayRetrieverInput) {
    super(fields);
    this.target = { client, namespaceId, identityId, scopes };
    this.topK = topK;
    this.minScore = minScore;
    this.filter = filter;
    this.sessionId = sessionId;
  }

  async _getRelevantDocuments(query: string): Promise<Document[]> {
    const matches = await this.target.client.recall({
      ...targetOf(this.target),
      query,
      top_k: this.topK,
      min_score: this.minScore,
      metadata: this.filter,
      session_id: this.sessionId,
    });
    return matches.map(matchToDocument);
  }
}
