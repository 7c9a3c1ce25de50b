import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embedMany } from 'ai';
import type { ServerConfig } from '../config';

/** Turns texts into vectors of unit length (so a dot product is their cosine similarity). */
export interface Embedder {
  /** Stored with each vector: vectors of another model are not compared. */
  model: string;
  embed(values: string[], signal?: AbortSignal): Promise<number[][]>;
}

const unit = (vector: number[]) => {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
};

/** An OpenAI-compatible embeddings API (`POST {base}/embeddings`) through the AI SDK. */
export function openAiCompatibleEmbedder(settings: { baseUrl: string; model: string; apiKey?: string }): Embedder {
  const model = createOpenAICompatible({ name: 'embeddings', baseURL: settings.baseUrl, apiKey: settings.apiKey }).embeddingModel(settings.model);
  return {
    model: settings.model,
    async embed(values, signal) {
      const { embeddings } = await embedMany({ model, values, abortSignal: signal, maxRetries: 1 });
      return embeddings.map(unit);
    },
  };
}

export function embedderFromConfig(config: ServerConfig): Embedder | undefined {
  if (!config.EMBEDDING_BASE_URL || !config.EMBEDDING_MODEL) return undefined;
  return openAiCompatibleEmbedder({ baseUrl: config.EMBEDDING_BASE_URL, model: config.EMBEDDING_MODEL, apiKey: config.EMBEDDING_API_KEY });
}
