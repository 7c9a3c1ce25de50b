import { and, eq, exists, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { ChatbotRow, LlmModelRow, MemberRow } from '../../db/rows';
import type { AppDeps } from '../../deps';
import { chatbotTools, chatbots, llmModels, memberGroupLinks, modelGroupPermissions } from '../../db/schema';
import { notFound } from '../../errors';
import { visibleTo } from '../chatbots/service';

/** The chatbot a send goes to, its model, and whether the sender may use that model. */
export interface SendTarget {
  chatbot: ChatbotRow;
  model: LlmModelRow;
  mayUseModel: boolean;
  /** False when the chatbot has no tools at all: the send skips looking for the ones the member may use. */
  mayHaveTools: boolean;
}

const isTrue = (value: unknown) => value === true || value === 't';

/**
 * One statement for what a send reads first: the member's groups, the chatbot they may see (spec
 * §6, the same rule as the chatbot list), its model and the model permission (spec §5: the
 * unlimited model always, any other through a group permission), and whether it has any tools. Built once per server and
 * executed with the send's ids, so a send pays one round trip and no query building for it.
 */
function prepareSendTarget(db: Database) {
  const viewer = { id: sql.placeholder('memberId'), tenantId: sql.placeholder('tenantId') };
  const groupIds = db
    .select({ id: memberGroupLinks.memberGroupId })
    .from(memberGroupLinks)
    .where(and(eq(memberGroupLinks.tenantId, viewer.tenantId), eq(memberGroupLinks.memberId, viewer.id)));
  const permitted = db
    .select({ one: sql`1` })
    .from(modelGroupPermissions)
    .where(
      and(
        eq(modelGroupPermissions.tenantId, viewer.tenantId),
        eq(modelGroupPermissions.llmModelId, chatbots.llmModelId),
        eq(modelGroupPermissions.isAvailable, true),
        inArray(modelGroupPermissions.memberGroupId, groupIds),
      ),
    );
  const tools = db
    .select({ one: sql`1` })
    .from(chatbotTools)
    .where(eq(chatbotTools.chatbotId, chatbots.id));
  return db
    .select({
      chatbot: chatbots,
      model: llmModels,
      mayUseModel: sql<boolean>`(${llmModels.isUnlimited} or ${exists(permitted)})`.mapWith(isTrue),
      mayHaveTools: sql<boolean>`${exists(tools)}`.mapWith(isTrue),
    })
    .from(chatbots)
    .innerJoin(llmModels, eq(llmModels.id, chatbots.llmModelId))
    .where(and(eq(chatbots.id, sql.placeholder('chatbotId')), visibleTo(db, viewer, groupIds)))
    .prepare('send_target');
}

/** Where a send goes: the server's one prepared statement for it, made on the first send. */
export function createSendTargets({ db }: Pick<AppDeps, 'db'>) {
  let statement: ReturnType<typeof prepareSendTarget> | undefined;
  return {
    /** The send's chatbot as `member` sees it, or 404 when they cannot see it. */
    async find(member: MemberRow, chatbotId: number): Promise<SendTarget> {
      statement ??= prepareSendTarget(db);
      const [row] = await statement.execute({ memberId: member.id, tenantId: member.tenantId, chatbotId });
      if (!row) throw notFound();
      return row;
    },
  };
}

export type SendTargets = ReturnType<typeof createSendTargets>;
