import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { queryBoolean } from './common';

/** A model as shown to users: context limit, cost per 10K input tokens, release date. */
export const llmModelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  display_name: z.string(),
  is_available: z.boolean(),
  is_low_llm: z.boolean(),
  /** Costs nothing and stays usable with credits depleted when the tenant's plan has is_low_llm_free. */
  is_unlimited: z.boolean().default(false),
  context_limit: z.number().int(),
  input_cost_per_10k: z.number(),
  output_cost_per_10k: z.number(),
  release_date: z.string().nullable(),
  /** The model reasons when asked: the composer offers thinking mode. Absent means it does not. */
  supports_thinking: z.boolean().default(false),
});
export type LlmModel = z.infer<typeof llmModelSchema>;

/**
 * Models the member's groups may use (spec §5 model permissions), for the Studio model picker.
 * `for_chatbot` leaves out the models the operator keeps out of chatbots.
 */
export const listLlmModels = defineEndpoint({
  method: 'GET',
  path: '/llm-models/',
  access: 'member',
  errors: {},
  query: z.object({ for_chatbot: queryBoolean.optional() }),
  response: z.object({ items: z.array(llmModelSchema) }),
  summary: 'Models the member may use',
  tags: ['chatbots'],
});
