import { chatbotsApi } from '../../../../shared/api';
import { useEndpointQuery } from '../../api/endpointHooks';

/** Most chatbots a key's picker offers: the largest page the chatbot list serves. */
const KEY_CHATBOT_CHOICES = 100;

/** The chatbots a key may be given (the key dialog, the docs' example): those the member sees, defaults included. */
export function useKeyChatbotChoices() {
  return useEndpointQuery(chatbotsApi.listChatbots, { query: { include_default: true, size: KEY_CHATBOT_CHOICES } });
}
