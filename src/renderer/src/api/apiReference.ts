import { useQuery } from '@tanstack/react-query';
import { API_REFERENCE_PATH } from '../../../shared/domain/http';
import { apiUrl } from './client';

/**
 * "Docs": the API reference the server renders from its OpenAPI document, in the member's language
 * where the page has it. Absolute, for desktop, which opens it in the system browser.
 */
export function useApiReferenceUrl(language: string) {
  return useQuery({
    // No endpoint is called: the address is made from the client's settings.
    queryKey: ['client settings', 'api reference', language],
    queryFn: () => apiUrl(`${API_REFERENCE_PATH}?lang=${encodeURIComponent(language)}`),
    staleTime: Infinity,
  }).data;
}
