import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { ProviderV4 } from '@ai-sdk/provider';
import { type ImageModel, type LanguageModel, createProviderRegistry } from 'ai';
import type { ServerConfig } from '../config';
import type { AppDeps } from '../deps';
import { createDemoProvider } from './demo';

/** Provider keys stored in llm_models.provider. */
export const DEMO_PROVIDER = 'demo';
export const OPENAI_COMPATIBLE_PROVIDER = 'openai-compatible';

export interface LlmRegistry {
  /** The model a `llm_models` row names; throws NoSuchProviderError for an unconfigured provider. */
  languageModel(provider: string, providerModelId: string): LanguageModel;
  /** The image model of image mode and the name its usage is metered under. */
  imageModel(): { model: ImageModel; name: string };
}

/** The demo provider's image model: a real PNG drawn offline. */
export const DEMO_IMAGE_MODEL = 'demo-image';

interface LlmSettings {
  demoTokenDelayMs: number;
  /** An OpenAI-compatible chat-completions API (OpenAI, vLLM, Ollama, LM Studio, OpenRouter…). */
  openAiCompatible?: { baseUrl: string; apiKey?: string; imageModel?: string };
}

function llmSettings(config: ServerConfig): LlmSettings {
  return {
    demoTokenDelayMs: config.DEMO_TOKEN_DELAY_MS,
    ...(config.LLM_BASE_URL ? { openAiCompatible: { baseUrl: config.LLM_BASE_URL, apiKey: config.LLM_API_KEY, imageModel: config.IMAGE_MODEL } } : {}),
  };
}

/** The demo provider (paced by DEMO_TOKEN_DELAY_MS), and the OpenAI-compatible one when LLM_BASE_URL is set. */
export function createLlmRegistry({ config }: Pick<AppDeps, 'config'>): LlmRegistry {
  const settings = llmSettings(config);
  const providers: Record<string, ProviderV4> = { [DEMO_PROVIDER]: createDemoProvider(settings.demoTokenDelayMs) };
  if (settings.openAiCompatible) {
    providers[OPENAI_COMPATIBLE_PROVIDER] = createOpenAICompatible({
      name: OPENAI_COMPATIBLE_PROVIDER,
      baseURL: settings.openAiCompatible.baseUrl,
      apiKey: settings.openAiCompatible.apiKey,
      // Ask for the final usage chunk so metering uses the provider's own token counts.
      includeUsage: true,
    });
  }
  const registry = createProviderRegistry(providers);
  const imageModelId = settings.openAiCompatible?.imageModel;
  // One model object per model: they hold only settings, and the OpenAI-compatible one builds its
  // chunk schema in its constructor, whose first parse compiles the validator; built per send, that
  // was a tenth of the server's CPU per stream (issue 6, bench:server profile).
  const languageModels = new Map<string, LanguageModel>();
  return {
    languageModel: (provider, providerModelId) => {
      const id = `${provider}:${providerModelId}` as const;
      let model = languageModels.get(id);
      if (!model) {
        model = registry.languageModel(id);
        languageModels.set(id, model);
      }
      return model;
    },
    imageModel: () =>
      imageModelId
        ? { model: registry.imageModel(`${OPENAI_COMPATIBLE_PROVIDER}:${imageModelId}`), name: imageModelId }
        : { model: registry.imageModel(`${DEMO_PROVIDER}:${DEMO_IMAGE_MODEL}`), name: DEMO_IMAGE_MODEL },
  };
}
