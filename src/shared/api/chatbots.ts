import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idParamsSchema, idSchema, idTextSchema, okSchema, pageQuerySchema, paginatedSchema, queryBoolean } from './common';
import { llmModelSchema } from './llmModels';
import { categorySchema } from './categories';
import { DEFAULT_LIST_PAGE_SIZE } from '../domain/pagination';
import { CHATBOT_LIMITS, CHATBOT_STATUSES } from '../domain/chatbots';
import { CHATBOT_TOOLS_MAX, TOOL_STEP_LIMIT } from '../domain/mcp';
import { PARSE_STATUSES, UPLOAD_ERRORS } from './files';

export const publishStatusSchema = z.enum(['none', 'pending', 'approved', 'rejected']);

/** A knowledge document of a chatbot (spec §3 Chatbot.documents), parsed and indexed by the file jobs. */
export const chatbotDocumentSchema = z.object({
  id: z.number().int(),
  file_id: z.number().int().nullable(),
  name: z.string(),
  size: z.number().int(),
  status: z.enum(PARSE_STATUSES),
  parsed_percentage: z.number().int().min(0).max(100),
  created_at: z.string(),
});
export type ChatbotDocument = z.infer<typeof chatbotDocumentSchema>;

export const chatbotStatusSchema = z.enum(CHATBOT_STATUSES);

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
  /** The admin's reason when the last publish request was rejected. */
  publish_feedback: z.string().nullable(),
  /** Derived from the flags above (shared/domain/chatbots). */
  status: chatbotStatusSchema,
  /** The custom public link's id, when the author set one. */
  public_hash_id: z.string().nullable(),
  /** Groups the chatbot is shared with (empty: the whole tenant when public or default, else only its author). */
  member_group_ids: z.array(z.number().int()),
  /** Default chatbots: the groups whose members start with it (first in their list and their new chat). */
  default_member_groups: z.array(z.number().int()),
  /** The pending publish request in the admins' queue (oldest first); null when none is pending. */
  public_queue: z.object({ requested_at: z.string() }).nullable(),
  documents: z.array(chatbotDocumentSchema),
  /**
   * The MCP tools the chatbot may call (issue 24), ascending: every tool put on it that still
   * exists, also those switched off or gone for now (they come back with the tool). A member
   * chatting gets only those their own groups may use, checked at every call.
   */
  tool_ids: z.array(z.number().int()),
  /** Model steps one answer may take when it calls tools. */
  tool_step_limit: z.number().int(),
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
  /** Only the member's recent chatbots (relations), most recently used first. */
  recent: queryBoolean.optional(),
  /** Spec §7: list what this member can see; oneself, or any member of the tenant for an admin (403 otherwise, 404 unknown). */
  member_id: idTextSchema.optional(),
});

export const listChatbots = defineEndpoint({
  method: 'GET',
  path: '/chatbots/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  query: chatbotListQuerySchema,
  response: paginatedSchema(chatbotSchema),
  summary: 'Chatbots visible to the member, or with member_id to that member (admins; 403 for another member otherwise); defaults first when include_default',
  tags: ['chatbots'],
});

export const getChatbot = defineEndpoint({
  method: 'GET',
  path: '/chatbots/:id/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: chatbotSchema,
  summary: 'One chatbot visible to the member',
  tags: ['chatbots'],
});

const text = (max: number) => z.string().trim().max(max);

/**
 * `POST /chatbots/`: an empty body makes a nameless draft on the first model the member may use;
 * the Studio sends the name the member gave first, which makes it private instead
 * (docs/decisions/0022-chatbot-named-before-created.md).
 */
export const createChatbotBodySchema = z
  .object({ ko_name: text(CHATBOT_LIMITS.nameMax), en_name: text(CHATBOT_LIMITS.nameMax) })
  .partial()
  .strict()
  // A request without a body reaches validation as null.
  .nullish();
export type CreateChatbotBody = z.input<typeof createChatbotBodySchema>;

export const createChatbot = defineEndpoint({
  method: 'POST',
  path: '/chatbots/',
  access: 'member',
  errors: { 403: ['model_not_allowed'], 404: ['not_found'] },
  body: createChatbotBodySchema,
  response: chatbotSchema,
  summary: 'Create a chatbot owned by the member: a nameless draft, or private with the names given',
  tags: ['chatbots'],
});

/** What the Studio editor saves. Every field is optional: only those sent change. */
export const updateChatbotBodySchema = z
  .object({
    ko_name: text(CHATBOT_LIMITS.nameMax),
    en_name: text(CHATBOT_LIMITS.nameMax),
    ko_key_features: text(CHATBOT_LIMITS.keyFeaturesMax),
    en_key_features: text(CHATBOT_LIMITS.keyFeaturesMax),
    system_instructions: z.string().max(CHATBOT_LIMITS.instructionsMax),
    temperature: z.number().min(CHATBOT_LIMITS.temperature.min).max(CHATBOT_LIMITS.temperature.max),
    top_p: z.number().min(CHATBOT_LIMITS.topP.min).max(CHATBOT_LIMITS.topP.max),
    llm_model_id: idSchema,
    category_ids: z.array(idSchema).max(20),
    /** A file uploaded with `POST /files/` (image, chatbot_id set); null removes the picture. */
    profile_image_file_id: idSchema.nullable(),
    /** Custom public link; null goes back to the generated hash id. 409 when taken. */
    public_hash_id: z.string().regex(CHATBOT_LIMITS.publicHashPattern).nullable(),
    /**
     * The chatbot's tools, replaced as sent. A tool added must be one the editor may pick
     * (`GET /tools/`; 403 `tool_not_allowed` otherwise); one already on the chatbot may stay or go
     * (docs/decisions/0084-chatbot-tools.md).
     */
    tool_ids: z
      .array(idSchema)
      .max(CHATBOT_TOOLS_MAX)
      .refine((ids) => new Set(ids).size === ids.length, 'Each tool once'),
    tool_step_limit: z.number().int().min(TOOL_STEP_LIMIT.min).max(TOOL_STEP_LIMIT.max),
  })
  .partial()
  .strict();
export type UpdateChatbotBody = z.input<typeof updateChatbotBodySchema>;

export const updateChatbot = defineEndpoint({
  method: 'PATCH',
  path: '/chatbots/:id/',
  access: 'member',
  errors: { 403: ['forbidden', 'model_not_allowed', 'tool_not_allowed'], 404: ['not_found'], 409: ['conflict'], 422: ['validation_error'] },
  params: idParamsSchema,
  body: updateChatbotBodySchema,
  response: chatbotSchema,
  summary: 'Change a chatbot (its author or an admin). 403 model or tool not allowed, 404 not visible, 409 public link taken',
  tags: ['chatbots'],
});

export const deleteChatbot = defineEndpoint({
  method: 'DELETE',
  path: '/chatbots/:id/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: 'Delete a chatbot (its author or an admin); its sessions show the unavailable page',
  tags: ['chatbots'],
});

export const updateChatbotAccessBodySchema = z
  .object({
    /** true asks an admin to publish it (waiting_publish); false makes it private again. */
    is_public: z.boolean(),
    member_group_ids: z.array(idSchema).max(CHATBOT_LIMITS.sharedGroupsMax),
    category_id: idSchema.nullable().optional(),
    /** Default chatbots only (422 otherwise): groups that start with it; each must see it. */
    default_member_group_ids: z.array(idSchema).max(CHATBOT_LIMITS.sharedGroupsMax).optional(),
  })
  .strict();
export type UpdateChatbotAccessBody = z.input<typeof updateChatbotAccessBodySchema>;

export const updateChatbotAccess = defineEndpoint({
  method: 'PATCH',
  path: '/chatbots/:id/access/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'], 422: ['validation_error'] },
  params: idParamsSchema,
  body: updateChatbotAccessBodySchema,
  response: chatbotSchema,
  summary: 'Share a chatbot with member groups, ask to publish it, or make it private',
  tags: ['chatbots'],
});

export const checkPublicHash = defineEndpoint({
  method: 'POST',
  path: '/chatbots/:id/check-public-hash/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: idParamsSchema,
  body: z.object({ public_hash_id: z.string().regex(CHATBOT_LIMITS.publicHashPattern) }).strict(),
  response: z.object({ is_available: z.boolean() }),
  summary: 'Whether a custom public link id is free for this chatbot',
  tags: ['chatbots'],
});

export const uploadChatbotDocuments = defineEndpoint({
  method: 'POST',
  path: '/chatbots/:id/documents/',
  access: 'member',
  errors: UPLOAD_ERRORS,
  params: idParamsSchema,
  response: z.object({ items: z.array(chatbotDocumentSchema) }),
  summary: 'Add knowledge documents (multipart/form-data, `files` parts; the limits and errors of POST /files/). Parsed and indexed in the background',
  tags: ['chatbots'],
});

export const deleteChatbotDocument = defineEndpoint({
  method: 'DELETE',
  path: '/chatbots/:id/documents/:docId/',
  access: 'member',
  errors: { 403: ['forbidden'], 404: ['not_found'] },
  params: z.object({ id: idTextSchema, docId: idTextSchema }),
  response: okSchema,
  summary: 'Remove a knowledge document and its passages',
  tags: ['chatbots'],
});

export const rememberChatbot = defineEndpoint({
  method: 'POST',
  path: '/chatbots/:id/relations/',
  access: 'member',
  errors: { 404: ['not_found'] },
  params: idParamsSchema,
  response: okSchema,
  summary: "Put a chatbot first in the member's recent chatbots (at most 3 non-default kept)",
  tags: ['chatbots'],
});

export const forgetChatbot = defineEndpoint({
  method: 'DELETE',
  path: '/chatbots/:id/relations/',
  access: 'member',
  errors: {},
  params: idParamsSchema,
  response: okSchema,
  summary: "Remove a chatbot from the member's recent chatbots",
  tags: ['chatbots'],
});
