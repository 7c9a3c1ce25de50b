import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, idTextSchema, pageQuerySchema, paginatedSchema, queryBoolean } from './common';
import { llmModelSchema } from './llmModels';
import { categorySchema } from './categories';
import { DEFAULT_LIST_PAGE_SIZE } from '../domain/pagination';

export const publishStatusSchema = z.enum(['none', 'pending', 'approved', 'rejected']);

export const chatbotSchema = z.object({
  id: z.number().int(),
  hash_id: z.string(),
  en_name: z.string(),
  ko_name: z.string(),
  profile_image_url: z.string().nullable(),
  en_key_features: z.string(),
  ko_key_features: z.string(),
  system_instructions: z.string(),
  temperature: z.number(),
  top_p: z.number(),
  llm_model: llmModelSchema,
  categories: z.array(categorySchema),
  is_public: z.boolean(),
  is_default: z.boolean(),
  waiting_publish: z.boolean(),
  publish_status: publishStatusSchema,
  message_count: z.number().int(),
  token_count: z.number().int(),
  month_token_count: z.number().int(),
  creator: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  last_chat_at: z.string().nullable(),
});
export type Chatbot = z.infer<typeof chatbotSchema>;

export const chatbotOrderSchema = z.enum(['recent', 'popular', 'name', 'created_at.desc', 'last_chat_at.desc']);

export const chatbotListQuerySchema = pageQuerySchema(DEFAULT_LIST_PAGE_SIZE).extend({
  include_default: queryBoolean.optional(),
  search_term: z.string().trim().max(200).optional(),
  is_public: queryBoolean.optional(),
  category_id: idTextSchema.optional(),
  creator_id: idTextSchema.optional(),
  waiting_publish: queryBoolean.optional(),
  order_by: chatbotOrderSchema.optional(),
});

export const listChatbots = defineEndpoint({
  method: 'GET',
  path: '/chatbots/',
  access: 'member',
  query: chatbotListQuerySchema,
  response: paginatedSchema(chatbotSchema),
  summary: 'Chatbots visible to the member (defaults first when include_default)',
  tags: ['chatbots'],
});

export const getChatbot = defineEndpoint({
  method: 'GET',
  path: '/chatbots/:id/',
  access: 'member',
  params: idParamsSchema,
  response: chatbotSchema,
  summary: 'One chatbot visible to the member',
  tags: ['chatbots'],
});
