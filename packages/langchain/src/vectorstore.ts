import { Document, type DocumentInterface } from "@langchain/core/documents";
import { Embeddings } from "@langchain/core/embeddings";
import { VectorStore } from "@langchain/core/vectorstores";
import { matchToDocument, storableMetadata, targetOf, type MemoryTarget, type Metadata } from "./documents.ts";

const REMEMBER_BATCH = 100;
const FORGET_BATCH = 1_000;

/**
 * The gateway embeds what it stores and what it is asked with its own model (the same one for both, which is
 * what makes the vectors comparable), so the store never embeds anything itself. LangChain's VectorStore still
 * takes an Embeddings, and its default `similaritySearch` would embed the query with it: this one stands in
 * for it and fails loudly if anything calls it, rather than send vectors from another model that the gateway
 * could not compare with its own.
 */
class GatewayEmbeddings extends Embeddings {
  constructor() {
    super({});
  }

  embedDocuments(): Promise<number[][]> {
    return Promise.reject(new Error("Memory Gateway embeds texts on the server: add texts, not vectors"));
  }

  embedQuery(): Promise<number[]> {
    return Promise.reject(new Error("Memory Gateway embeds queries on the server: search with text, not a vector"));
  }
}

type AddOptions = { ids?: unknown } & Record<string, unknown>;

/** The gateway assigns memory ids: a LangChain upsert by id (`options.ids`) would silently be an insert. */
function refuseIds(options?: AddOptions): void {
  if (options?.ids !== undefined) {
    throw new Error(
      "MemoryGatewayVectorStore cannot store documents under given ids (options.ids): the gateway assigns " +
        "memory ids, so there is no upsert by id; leave ids out (addDocuments answers the ids it assigned), " +
        "or delete({ ids }) and add again",
    );
  }
}

const notVectors = () =>
  new Error(
    "MemoryGatewayVectorStore takes texts, not vectors: the gateway embeds them with its own model " +
      "(use addDocuments and similaritySearch)",
  );

/**
 * A LangChain vector store over a Memory Gateway namespace. Each document is a memory (its scalar metadata
 * kept, see storableMetadata); a search is a `recall`, the gateway's hybrid search of words and meaning, with
 * `filter` as exact metadata values; `delete({ ids })` forgets memories by id, only those of the store's identity
 * and scopes.
 *
 * Content identical to a memory already stored for the same identity and scopes is not stored twice: adding it
 * again answers that memory's id (and keeps its metadata).
 */
export class MemoryGatewayVectorStore extends VectorStore {
  declare FilterType: Metadata;
  private readonly target: MemoryTarget;

  _vectorstoreType(): string {
    return "memory-gateway";
  }

  constructor(target: MemoryTarget) {
    super(new GatewayEmbeddings(), {});
    this.target = target;
  }

  /**
   * Stores the documents (a `remember` per 100) and answers their memory ids, in the same order. `options.ids`
   * is refused (see refuseIds).
   */
  async addDocuments(documents: DocumentInterface[], options?: AddOptions): Promise<string[]> {
    refuseIds(options);
    const ids: string[] = [];
    for (let start = 0; start < documents.length; start += REMEMBER_BATCH) {
      const memories = documents.slice(start, start + REMEMBER_BATCH).map((document) => ({
        content: document.pageContent,
        metadata: storableMetadata(document.metadata),
      }));
      const stored = await this.target.client.remember({ ...targetOf(this.target), memories });
      ids.push(...stored.map((memory) => memory.id));
    }
    return ids;
  }

  /** Stores each text with its metadata (`metadatas[i]` for `texts[i]`). */
  addTexts(texts: string[], metadatas: object[] = [], options?: AddOptions): Promise<string[]> {
    return this.addDocuments(
      texts.map((pageContent, index) => new Document({ pageContent, metadata: { ...metadatas[index] } })),
      options,
    );
  }

  async addVectors(_vectors?: number[][], _documents?: DocumentInterface[], options?: AddOptions): Promise<string[]> {
    refuseIds(options);
    throw notVectors();
  }

  similaritySearchVectorWithScore(): Promise<[DocumentInterface, number][]> {
    return Promise.reject(notVectors());
  }

  async similaritySearch(query: string, k = 4, filter?: Metadata): Promise<DocumentInterface[]> {
    return (await this.similaritySearchWithScore(query, k, filter)).map(([document]) => document);
  }

  /** The k best matches, best first, with the gateway's score (0 to 1, higher is closer). */
  async similaritySearchWithScore(query: string, k = 4, filter?: Metadata): Promise<[DocumentInterface, number][]> {
    const matches = await this.target.client.recall({
      ...targetOf(this.target),
      query,
      top_k: k,
      metadata: filter,
    });
    return matches.map((match) => [matchToDocument(match), match.score]);
  }

  /**
   * Forgets the memories with these ids that belong to the store's identity and scopes (an erasure receipt is
   * recorded for each call, as for every forget). POST /forget deletes the memories matching every selector
   * given (docs/api.md), so sending the store's identity_id and scopes beside memory_ids narrows the ids to
   * them on the server: an id of another identity's memory, or of one outside the scopes, is left in place
   * (and is not in the receipt's memory_ids). No read beforehand, which a concurrent change could outdate.
   * A store without an identity reaches every identity's memories, as its searches do.
   */
  async delete({ ids }: { ids: string[] }): Promise<void> {
    if (!Array.isArray(ids)) throw new Error("MemoryGatewayVectorStore deletes by id: delete({ ids: [...] })");
    for (let start = 0; start < ids.length; start += FORGET_BATCH) {
      await this.target.client.forget({
        ...targetOf(this.target),
        memory_ids: ids.slice(start, start + FORGET_BATCH),
      });
    }
  }

  /**
   * A store holding these texts. `_embeddings` is there for LangChain's signature only: the gateway embeds
   * (see GatewayEmbeddings).
   */
  static async fromTexts(
    texts: string[],
    metadatas: object[] | object,
    _embeddings: unknown,
    target: MemoryTarget,
  ): Promise<MemoryGatewayVectorStore> {
    const metadataOf = (index: number) => (Array.isArray(metadatas) ? metadatas[index] : metadatas) ?? {};
    const store = new MemoryGatewayVectorStore(target);
    await store.addTexts(
      texts,
      texts.map((_, index) => metadataOf(index)),
    );
    return store;
  }

  static async fromDocuments(
    documents: DocumentInterface[],
    _embeddings: unknown,
    target: MemoryTarget,
  ): Promise<MemoryGatewayVectorStore> {
    const store = new MemoryGatewayVectorStore(target);
    await store.addDocuments(documents);
    return store;
  }
}
