export { MemoryGatewayRetriever, type MemoryGatewayRetrieverInput } from "./retriever.ts";
export { MemoryGatewayVectorStore } from "./vectorstore.ts";
export type { MemoryTarget, Metadata, MetadataValue } from "./documents.ts";
export { MemoryGatewayStore, type MemoryGatewayStoreOptions } from "./store.ts";
