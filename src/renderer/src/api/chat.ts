import { ApiError, buildPath, chatApi, publicSessionsApi } from '../../../shared/api';
import { getPlatform } from '../platform';
import type { ChatStreamRequest } from '../platform/types';
import { apiUrl } from './client';
import { isReportedStatus, reportFailure } from './errorReporter';

/**
 * Sends a chat message and streams the answer through the platform (web or desktop). The stream
 * does not go through callEndpoint, so its failures are reported here like every other call's: a
 * 5xx refusal before the stream, and a network failure before or during it (status 0). Then they
 * are rethrown for the chat screen to show.
 */
export async function streamChat(request: ChatStreamRequest): Promise<void> {
  try {
    await getPlatform().streamChat(request);
  } catch (error) {
    // Like reportFailure itself, a report that cannot be sent never disturbs the chat.
    if (error instanceof ApiError && isReportedStatus(error.status)) void reportChatFailure(request, error).catch(() => undefined);
    throw error;
  }
}

async function reportChatFailure(request: ChatStreamRequest, error: ApiError): Promise<void> {
  const endpoint = request.visitor ? publicSessionsApi.publicChat : chatApi.chat;
  const url = await apiUrl(buildPath(endpoint.path, { id: request.chatbotId }));
  reportFailure({ endpoint, url, requestBody: request.body, error, response: null });
}
