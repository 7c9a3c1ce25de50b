export interface WebResult {
  url: string;
  title: string;
  snippet: string;
}

/** A web search service. Implementations throw `SearchFailed` when the service cannot answer. */
export interface SearchProvider {
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<WebResult[]>;
}

export class SearchFailed extends Error {
  override name = 'SearchFailed';
}
