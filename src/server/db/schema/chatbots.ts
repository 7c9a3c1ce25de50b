/** Chatbots, their categories, models, documents and who may use them. */
import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, date, index, integer, numeric, pgEnum, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, credits } from './columns';
import { files } from './files';
import { memberGroups, memberId, members } from './members';
import { tenantId } from './tenants';

export const publishStatusEnum = pgEnum('publish_status', ['none', 'pending', 'approved', 'rejected']);

export const categories = pgTable('categories', {
  id: id(),
  tenantId: tenantId(),
  koName: text('ko_name').notNull(),
  enName: text('en_name').notNull(),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const llmModels = pgTable(
  'llm_models',
  {
    id: id(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    displayName: text('display_name').notNull(),
    /** Key of the provider registry: `demo` or `openai-compatible`. */
    provider: text('provider').notNull(),
    providerModelId: text('provider_model_id').notNull(),
    contextLimit: integer('context_limit').notNull(),
    /**
     * The longest answer the model gives, in tokens (reasoning included): every call sets it as the
     * output limit, and a send reserves credits for an answer this long (DESIGN §7).
     */
    maxOutputTokens: integer('max_output_tokens').notNull().default(4096),
    inputCostPer10k: credits('input_cost_per_10k').notNull(),
    outputCostPer10k: credits('output_cost_per_10k').notNull(),
    webSearchCostPer10k: credits('web_search_cost_per_10k').notNull().default(0),
    releaseDate: date('release_date'),
    isLowLlm: boolean('is_low_llm').notNull().default(false),
    /** Usable without credits when the tenant's plan has is_low_llm_free. */
    isUnlimited: boolean('is_unlimited').notNull().default(false),
    /** Reasons when asked (thinking mode): the thinking button is offered and reasoning is requested. */
    supportsReasoning: boolean('supports_reasoning').notNull().default(false),
    /** Offered in the Studio: the operator may keep a model for chat only (its chatbots keep working). */
    chatbotAllowed: boolean('chatbot_allowed').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('llm_models_name_idx').on(t.tenantId, t.name)],
);

export const modelGroupPermissions = pgTable(
  'model_group_permissions',
  {
    tenantId: tenantId(),
    llmModelId: integer('llm_model_id')
      .notNull()
      .references(() => llmModels.id, { onDelete: 'cascade' }),
    memberGroupId: integer('member_group_id')
      .notNull()
      .references(() => memberGroups.id, { onDelete: 'cascade' }),
    isAvailable: boolean('is_available').notNull().default(true),
  },
  (t) => [primaryKey({ columns: [t.llmModelId, t.memberGroupId] })],
);

export const chatbots = pgTable(
  'chatbots',
  {
    id: id(),
    tenantId: tenantId(),
    hashId: text('hash_id').notNull().unique(),
    /** Hash id of the public link, when the author set one. */
    publicHashId: text('public_hash_id').unique(),
    koName: text('ko_name').notNull().default(''),
    enName: text('en_name').notNull().default(''),
    profileImageUrl: text('profile_image_url'),
    /** The uploaded picture behind profile_image_url: served without a token (domains/files/service public rule). */
    profileImageFileId: integer('profile_image_file_id').references((): AnyPgColumn => files.id, { onDelete: 'set null' }),
    koKeyFeatures: text('ko_key_features').notNull().default(''),
    enKeyFeatures: text('en_key_features').notNull().default(''),
    systemInstructions: text('system_instructions').notNull().default(''),
    temperature: numeric('temperature', { precision: 4, scale: 2, mode: 'number' }).notNull().default(0.7),
    topP: numeric('top_p', { precision: 4, scale: 2, mode: 'number' }).notNull().default(1),
    /** Model steps one answer may take when it calls tools (shared/domain/mcp TOOL_STEP_LIMIT). */
    toolStepLimit: integer('tool_step_limit').notNull().default(5),
    llmModelId: integer('llm_model_id')
      .notNull()
      .references(() => llmModels.id),
    creatorId: integer('creator_id').references(() => members.id, { onDelete: 'set null' }),
    isPublic: boolean('is_public').notNull().default(false),
    isDefault: boolean('is_default').notNull().default(false),
    waitingPublish: boolean('waiting_publish').notNull().default(false),
    publishStatus: publishStatusEnum('publish_status').notNull().default('none'),
    publishFeedback: text('publish_feedback'),
    /** When the pending publish request was made (spec §3 public_queue); null when none is pending. */
    publishRequestedAt: timestamp('publish_requested_at', { withTimezone: true }),
    /** Default chatbots: the member groups whose members start with it (spec §3 default_member_groups). */
    defaultMemberGroupIds: integer('default_member_group_ids')
      .array()
      .notNull()
      .default(sql`'{}'::integer[]`),
    messageCount: integer('message_count').notNull().default(0),
    tokenCount: integer('token_count').notNull().default(0),
    monthTokenCount: integer('month_token_count').notNull().default(0),
    /** `YYYY-MM` the month_token_count belongs to; a new month starts it again. */
    monthTokenPeriod: text('month_token_period'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    lastChatAt: timestamp('last_chat_at', { withTimezone: true }),
  },
  (t) => [index('chatbots_tenant_idx').on(t.tenantId, t.isDefault)],
);

export const chatbotCategories = pgTable(
  'chatbot_categories',
  {
    tenantId: tenantId(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.categoryId] })],
);

/** Groups that may see a chatbot; a chatbot without rows is visible to the whole tenant. */
export const chatbotMemberGroups = pgTable(
  'chatbot_member_groups',
  {
    tenantId: tenantId(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    memberGroupId: integer('member_group_id')
      .notNull()
      .references(() => memberGroups.id, { onDelete: 'cascade' }),
    /** For default chatbots: the group gets it among its defaults. */
    isDefaultForGroup: boolean('is_default_for_group').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.chatbotId, t.memberGroupId] })],
);

export const chatbotDocuments = pgTable('chatbot_documents', {
  id: id(),
  tenantId: tenantId(),
  chatbotId: integer('chatbot_id')
    .notNull()
    .references(() => chatbots.id, { onDelete: 'cascade' }),
  fileId: integer('file_id').references(() => files.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** Recently used non-default chatbots of a member (at most RECENT_CHATBOTS_KEPT are shown). */
export const recentChatbots = pgTable(
  'recent_chatbots',
  {
    tenantId: tenantId(),
    memberId: memberId(),
    chatbotId: integer('chatbot_id')
      .notNull()
      .references(() => chatbots.id, { onDelete: 'cascade' }),
    usedAt: timestamp('used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.memberId, t.chatbotId] })],
);
