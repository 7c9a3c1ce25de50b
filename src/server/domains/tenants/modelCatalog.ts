/**
 * The models a tenant offers, as the operator declares them (admin CLI `set-model`, `list-models`):
 * provider, context limit, costs, release date and the low-tier, unlimited, reasoning and
 * chatbot flags. Which member groups may use a model is the tenant admin's matrix.
 */
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { llmModels } from '../../db/schema';
import { DEMO_PROVIDER, OPENAI_COMPATIBLE_PROVIDER } from '../../llm/registry';
import { ProvisioningError, tenantBySubdomain } from './provisioning';

const cost = z.coerce.number().min(0).max(1_000_000);

/** A model's answers when the operator names no limit: long enough for ordinary answers, and what a send reserves credits for. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 4096;

export const modelDefinitionSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^[a-z0-9][a-z0-9._-]*$/, 'lower-case letters, digits, dots, dashes and underscores'),
    displayName: z.string().trim().min(1).max(100),
    provider: z.enum([DEMO_PROVIDER, OPENAI_COMPATIBLE_PROVIDER]),
    providerModelId: z.string().trim().min(1).max(200),
    contextLimit: z.coerce.number().int().min(1000).max(10_000_000),
    maxOutputTokens: z.coerce.number().int().min(16).max(1_000_000).default(DEFAULT_MAX_OUTPUT_TOKENS),
    inputCostPer10k: cost,
    outputCostPer10k: cost,
    webSearchCostPer10k: cost.default(0),
    releaseDate: z.iso.date().nullable().default(null),
    isLowLlm: z.boolean().default(false),
    isUnlimited: z.boolean().default(false),
    supportsReasoning: z.boolean().default(false),
    chatbotAllowed: z.boolean().default(true),
  })
  .refine((model) => model.maxOutputTokens < model.contextLimit, { path: ['maxOutputTokens'], message: 'must be less than the context limit' });
export type ModelDefinition = z.input<typeof modelDefinitionSchema>;

/** Creates the tenant's model of that name or changes it; answers whether it was new. */
export async function setModel(db: Database, tenant: string, definition: ModelDefinition): Promise<{ created: boolean }> {
  const parsed = modelDefinitionSchema.safeParse(definition);
  if (!parsed.success) {
    throw new ProvisioningError(parsed.error.issues.map((issue) => `${issue.path.join('.') || 'model'}: ${issue.message}`).join('; '));
  }
  const row = await tenantBySubdomain(db, tenant);
  const [existing] = await db
    .select({ id: llmModels.id })
    .from(llmModels)
    .where(and(eq(llmModels.tenantId, row.id), eq(llmModels.name, parsed.data.name)));
  if (existing) {
    await db.update(llmModels).set(parsed.data).where(eq(llmModels.id, existing.id));
    return { created: false };
  }
  await db.insert(llmModels).values({ tenantId: row.id, ...parsed.data });
  return { created: true };
}

export async function listModels(db: Database, tenant: string) {
  const row = await tenantBySubdomain(db, tenant);
  return db.select().from(llmModels).where(eq(llmModels.tenantId, row.id)).orderBy(asc(llmModels.isLowLlm), asc(llmModels.name));
}
