import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const categorySchema = z.object({ id: z.number().int(), en_name: z.string(), ko_name: z.string() });
export type Category = z.infer<typeof categorySchema>;

export const listCategories = defineEndpoint({
  method: 'GET',
  path: '/categories/',
  access: 'member',
  errors: {},
  response: z.object({ items: z.array(categorySchema) }),
  summary: 'Chatbot categories',
  tags: ['chatbots'],
});
