import { eq } from 'drizzle-orm';
import { DEMO_PROVIDER, OPENAI_COMPATIBLE_PROVIDER } from '../llm/registry';
import { hashPassword } from '../domains/auth/service';
import { grantTenantCredits } from '../domains/credits/service';
import { ASSETS_PATH } from '../routes/assets';
import type { Database } from './client';
import {
  announcements,
  categories,
  chatbotCategories,
  chatbots,
  customFields,
  llmModels,
  policies,
  taskModes,
  memberGroupLinks,
  memberGroups,
  members,
  modelGroupPermissions,
  piiSettings,
  plans,
  tenants,
} from './schema';

export const DEMO_ADMIN = { email: 'admin@demo.test', password: 'DemoAdmin!234' } as const;
export const DEMO_MEMBER = { email: 'member@demo.test', password: 'DemoMember!234' } as const;

export interface SeedOptions {
  subdomain: string;
  tenantName: string;
  /** When set, every seeded model runs on the OpenAI-compatible provider with this model id. */
  openAiCompatibleModel?: string;
  /**
   * Also publish a chatbot made by the demo admin (PUBLIC_DEMO_CHATBOT), so the demo server's
   * store is not empty and visitors of a shared chat can start their own. Off in tests, whose
   * chatbot lists expect the three defaults only.
   */
  publicChatbot?: boolean;
}

/** Spec §3 sample categories. */
const CATEGORIES = [
  ['Writing', '글쓰기'],
  ['Productivity', '생산성'],
  ['Research & Analysis', '연구 및 분석'],
  ['Education', '교육'],
  ['Lifestyle', '라이프스타일'],
  ['Programming', '프로그래밍'],
] as const;

const MODELS = [
  {
    name: 'swift-lite',
    displayName: 'Swift Lite (unlimited)',
    contextLimit: 32_000,
    maxOutputTokens: 4096,
    inputCostPer10k: 0.5,
    outputCostPer10k: 1.5,
    releaseDate: '2025-01-15',
    isLowLlm: true,
    isUnlimited: true,
    supportsReasoning: false,
  },
  {
    name: 'balanced-pro',
    displayName: 'Balanced Pro',
    contextLimit: 128_000,
    maxOutputTokens: 8192,
    inputCostPer10k: 3,
    outputCostPer10k: 12,
    releaseDate: '2025-06-01',
    isLowLlm: false,
    isUnlimited: false,
    supportsReasoning: true,
  },
  {
    name: 'deep-reasoner',
    displayName: 'Deep Reasoner',
    contextLimit: 200_000,
    maxOutputTokens: 16_384,
    inputCostPer10k: 15,
    outputCostPer10k: 60,
    releaseDate: '2025-10-01',
    isLowLlm: false,
    isUnlimited: false,
    supportsReasoning: true,
  },
] as const;

type ModelName = (typeof MODELS)[number]['name'];

const CHATBOTS: {
  enName: string;
  koName: string;
  enKeyFeatures: string;
  koKeyFeatures: string;
  systemInstructions: string;
  model: ModelName;
  category: (typeof CATEGORIES)[number][0];
}[] = [
  {
    enName: 'General Assistant',
    koName: '일반 어시스턴트',
    enKeyFeatures: 'Answers everyday questions, drafts and summaries.',
    koKeyFeatures: '일상적인 질문에 답하고 초안과 요약을 작성합니다.',
    systemInstructions: 'You are a helpful, concise assistant. Answer in the language of the question.',
    model: 'balanced-pro',
    category: 'Productivity',
  },
  {
    enName: 'Quick Helper',
    koName: '빠른 도우미',
    enKeyFeatures: 'Fast answers on the unlimited low-cost model, even when credits run out.',
    koKeyFeatures: '크레딧이 소진되어도 사용할 수 있는 무제한 저비용 모델로 빠르게 답합니다.',
    systemInstructions: 'You give short, direct answers.',
    model: 'swift-lite',
    category: 'Lifestyle',
  },
  {
    enName: 'Writing Coach',
    koName: '글쓰기 코치',
    enKeyFeatures: 'Improves structure, tone and clarity of your texts.',
    koKeyFeatures: '글의 구조, 어조, 명료성을 개선해 드립니다.',
    systemInstructions: 'You are a writing coach. Suggest concrete improvements and explain them briefly.',
    model: 'deep-reasoner',
    category: 'Writing',
  },
];

/** The demo admin's published chatbot (with `publicChatbot`). */
const PUBLIC_DEMO_CHATBOT = {
  enName: 'Trip Planner',
  koName: '여행 플래너',
  enKeyFeatures: 'Plans trips day by day. Open to visitors of shared chats.',
  koKeyFeatures: '여행 일정을 하루 단위로 짜 드립니다. 공유된 대화의 방문자도 이용할 수 있습니다.',
  systemInstructions: 'You plan trips: suggest a day-by-day itinerary and keep it practical.',
  model: 'balanced-pro',
  category: 'Lifestyle',
} as const;
/** Task modes, named in both languages (the chooser shows the interface language's name). */
const TASK_MODES = [
  { koName: '요약', enName: 'Summary', instructions: 'Task mode: summary. Answer with a short summary of the essentials as bullet points.' },
  {
    koName: '번역',
    enName: 'Translation',
    instructions: 'Task mode: translation. Translate the message into English, or into Korean when it is in English. Answer with the translation only.',
  },
  { koName: '아이디어', enName: 'Brainstorm', instructions: 'Task mode: brainstorming. Offer at least five varied ideas as a numbered list, one line each.' },
];

/**
 * Sign-up as a visitor of the demo meets it: one required text field, one optional unique number,
 * a mandatory policy read to its end and an optional one (the tenant approves new members by admin).
 */
const SIGNUP_FIELDS = [
  { koName: '부서', enName: 'Department', fieldType: 'text' as const, isRequired: true, isSearchable: true },
  { koName: '사번', enName: 'Employee number', fieldType: 'number' as const, isUnique: true },
];
const POLICIES = [
  {
    policyName: 'Terms of service',
    isMandatory: true,
    markdownContent: [
      '## Terms of service',
      'These demo terms stand in for a real agreement.',
      ...Array.from(
        { length: 12 },
        (_, i) => `${i + 1}. Use the assistants for your work, keep shared chats free of secrets, and follow your organization's rules.`,
      ),
      'By ticking the box you agree to these terms.',
    ].join('\n\n'),
  },
  { policyName: 'Product news by email', isMandatory: false, markdownContent: 'We may send you occasional product news. You can unsubscribe at any time.' },
];

const ANNOUNCEMENTS = [
  { content: '## Welcome\n\nThis workspace runs on the **reference server** with demo data.', daysAgo: 3 },
  { content: '## Maintenance\n\nA short maintenance window is planned for Sunday, 02:00–03:00.', daysAgo: 2 },
  {
    content: '## New: Writing Coach\n\nTry the new **Writing Coach** chatbot for clearer texts.\n\n- Structure\n- Tone\n- Clarity',
    daysAgo: 1,
    active: true,
  },
];

/**
 * Creates a complete demo tenant (plan, credits, group, categories, models, default chatbots,
 * announcements, an admin and a member). Does nothing when the tenant already exists.
 */
export async function seedDemoTenant(db: Database, options: SeedOptions): Promise<{ created: boolean }> {
  const [existing] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.subdomain, options.subdomain));
  if (existing) return { created: false };

  const [adminHash, memberHash] = await Promise.all([hashPassword(DEMO_ADMIN.password), hashPassword(DEMO_MEMBER.password)]);
  return db.transaction(async (tx) => {
    // Several server processes may start at once: the one whose insert wins seeds, the others wait
    // on the unique subdomain and then do nothing.
    const [tenant] = await tx
      .insert(tenants)
      .values({ subdomain: options.subdomain, name: options.tenantName, logoUrl: `${ASSETS_PATH}/demo-logo.svg`, isLowLlmFree: true })
      .onConflictDoNothing({ target: tenants.subdomain })
      .returning();
    if (!tenant) return { created: false };
    const [plan] = await tx
      .insert(plans)
      .values({ tenantId: tenant.id, koName: '팀', enName: 'Team', krwMonthPrice: 99_000, credit: 100_000, memberLimit: 50, invitationLimit: 50 })
      .returning();
    await tx.update(tenants).set({ planId: plan?.id }).where(eq(tenants.id, tenant.id));
    // The other plans the plans page offers (spec §3 Plan): one cheaper, one dearer.
    await tx.insert(plans).values([
      { tenantId: tenant.id, koName: '스타터', enName: 'Starter', krwMonthPrice: 29_000, credit: 20_000, memberLimit: 10, invitationLimit: 10 },
      { tenantId: tenant.id, koName: '비즈니스', enName: 'Business', krwMonthPrice: 299_000, credit: 400_000, memberLimit: 200, invitationLimit: 200 },
    ]);
    await tx.insert(piiSettings).values({ tenantId: tenant.id });
    await grantTenantCredits(tx, tenant.id, 100_000, { koName: '팀 플랜 월간 크레딧', enName: 'Team plan monthly credits' });

    const [group] = await tx
      .insert(memberGroups)
      .values({ tenantId: tenant.id, koName: '기본 그룹', enName: 'Default group', isDefault: true, creditQuota: 50_000, memberCreditQuota: 5_000 })
      .returning();
    if (!group) throw new Error('Group insert returned no row');

    const categoryRows = await tx
      .insert(categories)
      .values(CATEGORIES.map(([enName, koName], index) => ({ tenantId: tenant.id, enName, koName, sortOrder: index })))
      .returning();

    const modelRows = await tx
      .insert(llmModels)
      .values(
        MODELS.map((model) => ({
          tenantId: tenant.id,
          ...model,
          provider: options.openAiCompatibleModel ? OPENAI_COMPATIBLE_PROVIDER : DEMO_PROVIDER,
          providerModelId: options.openAiCompatibleModel ?? model.name,
        })),
      )
      .returning();
    await tx
      .insert(modelGroupPermissions)
      .values(modelRows.map((model) => ({ tenantId: tenant.id, llmModelId: model.id, memberGroupId: group.id, isAvailable: true })));

    for (const [index, bot] of CHATBOTS.entries()) {
      const model = modelRows.find((row) => row.name === bot.model);
      const category = categoryRows.find((row) => row.enName === bot.category);
      if (!model || !category) throw new Error(`Seed data mismatch for ${bot.enName}`);
      const [chatbot] = await tx
        .insert(chatbots)
        .values({
          tenantId: tenant.id,
          hashId: `${options.subdomain}-default-${index + 1}`,
          enName: bot.enName,
          koName: bot.koName,
          enKeyFeatures: bot.enKeyFeatures,
          koKeyFeatures: bot.koKeyFeatures,
          systemInstructions: bot.systemInstructions,
          llmModelId: model.id,
          isDefault: true,
          publishStatus: 'approved',
          sortOrder: index,
        })
        .returning({ id: chatbots.id });
      if (!chatbot) throw new Error('Chatbot insert returned no row');
      await tx.insert(chatbotCategories).values({ tenantId: tenant.id, chatbotId: chatbot.id, categoryId: category.id });
    }

    const memberRows = await tx
      .insert(members)
      .values(
        [
          { tenantId: tenant.id, email: DEMO_ADMIN.email, name: 'Demo Admin', passwordHash: adminHash, isAdmin: true },
          { tenantId: tenant.id, email: DEMO_MEMBER.email, name: 'Demo Member', passwordHash: memberHash, isAdmin: false },
        ].map((member) => ({ ...member, status: 'approved' as const, language: 'en' as const, defaultMemberGroupId: group.id })),
      )
      .returning({ id: members.id });
    await tx.insert(memberGroupLinks).values(memberRows.map((member) => ({ tenantId: tenant.id, memberId: member.id, memberGroupId: group.id })));

    if (options.publicChatbot) {
      const bot = PUBLIC_DEMO_CHATBOT;
      const model = modelRows.find((row) => row.name === bot.model);
      const category = categoryRows.find((row) => row.enName === bot.category);
      const admin = memberRows[0];
      if (!model || !category || !admin) throw new Error('Seed data mismatch for the public chatbot');
      const { category: _category, model: _model, ...names } = bot;
      const [chatbot] = await tx
        .insert(chatbots)
        .values({
          tenantId: tenant.id,
          hashId: `${options.subdomain}-public-1`,
          ...names,
          llmModelId: model.id,
          creatorId: admin.id,
          isPublic: true,
          publishStatus: 'approved',
        })
        .returning({ id: chatbots.id });
      if (!chatbot) throw new Error('Chatbot insert returned no row');
      await tx.insert(chatbotCategories).values({ tenantId: tenant.id, chatbotId: chatbot.id, categoryId: category.id });
    }
    await tx.insert(customFields).values(SIGNUP_FIELDS.map((field) => ({ tenantId: tenant.id, isSignupField: true, ...field })));
    await tx.insert(policies).values(POLICIES.map((policy) => ({ tenantId: tenant.id, kind: 'markdown' as const, ...policy })));
    await tx.insert(taskModes).values(TASK_MODES.map((mode) => ({ tenantId: tenant.id, ...mode })));

    const now = Date.now();
    await tx.insert(announcements).values(
      ANNOUNCEMENTS.map((item) => {
        const at = new Date(now - item.daysAgo * 86_400_000);
        return { tenantId: tenant.id, content: item.content, isActive: item.active ?? false, createdAt: at, updatedAt: at };
      }),
    );
    return { created: true };
  });
}
