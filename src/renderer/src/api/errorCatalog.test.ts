import { describe, expect, it } from 'vitest';
import * as contract from '../../../shared/api';
import { ApiError, chatbotsApi, declaredErrors, type Endpoint } from '../../../shared/api';
import { LANGUAGES } from '../../../shared/domain/language';
import { collectResources } from '../i18n';
import { ERROR_CATALOG } from './errorCatalog';
import { BY_STATUS, errorMessageKey, errorMessagesFor, errorMessagesOf } from './errorMessages';

const resources = collectResources(import.meta.glob<{ default: Record<string, unknown> }>('../i18n/locales/*/*.json', { eager: true }));

/** Whether `namespace:path` is a text in `language` (a plural key counts by its `_one`/`_other` forms). */
function hasText(language: string, key: string): boolean {
  const [namespace, path] = key.split(':') as [string, string];
  const parts = path.split('.');
  const parent = parts.slice(0, -1).reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], resources[language]?.[namespace]) as
    Record<string, unknown> | undefined;
  const last = parts[parts.length - 1]!;
  return typeof parent?.[last] === 'string' || typeof parent?.[`${last}_other`] === 'string';
}

const endpoints = Object.entries(contract)
  .filter(([name]) => name.endsWith('Api'))
  .flatMap(([group, module]) =>
    Object.entries(module as Record<string, unknown>)
      .filter((entry): entry is [string, Endpoint] => typeof entry[1] === 'object' && entry[1] !== null && 'method' in entry[1] && 'errors' in entry[1])
      .map(([name, endpoint]) => ({ name: `${group}.${name}`, endpoint })),
  );

describe('the message table and the contract', () => {
  it('reads every endpoint of the contract', () => {
    expect(endpoints.length).toBeGreaterThan(150);
  });

  it('gives every declared code of every endpoint a message of its own entry, in all five languages', () => {
    const missing: string[] = [];
    for (const { name, endpoint } of endpoints) {
      const entry = errorMessagesFor(endpoint);
      for (const [status, code] of declaredErrors(endpoint)) {
        // Explicit on purpose: the code's own message, or BY_STATUS (the status's message).
        if (!entry || !Object.hasOwn(entry.codes, code)) {
          missing.push(`${name} ${status} ${code}: no entry in the table`);
          continue;
        }
        const key = errorMessageKey(new ApiError(status, { code, message: '' }), endpoint);
        for (const language of LANGUAGES) if (!hasText(language, key)) missing.push(`${name} ${status} ${code}: ${key} missing in ${language}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has one entry per endpoint', () => {
    const endpointsInTable = ERROR_CATALOG.map((entry) => entry.endpoint);
    expect(new Set(endpointsInTable).size).toBe(endpointsInTable.length);
    expect(endpointsInTable).not.toContain(contract.authApi.signIn);
  });

  it('has no entry keyed by a code its endpoint does not declare', () => {
    const stray = endpoints.flatMap(({ name, endpoint }) =>
      Object.keys(errorMessagesFor(endpoint)?.codes ?? {})
        .filter((code) => !declaredErrors(endpoint).some(([, declared]) => declared === code))
        .map((code) => `${name} ${code}`),
    );
    expect(stray).toEqual([]);
  });

  it("uses a declared code's own message, and its status's message for BY_STATUS and for codes the endpoint answers by rule", () => {
    const conflict = new ApiError(409, { code: 'conflict', message: '' });
    expect(errorMessageKey(new ApiError(403, { code: 'model_not_allowed', message: '' }), chatbotsApi.updateChatbot)).toBe('studio:errors.model_not_allowed');
    expect(errorMessageKey(conflict, chatbotsApi.updateChatbot)).toBe('studio:errors.link_taken');
    expect(errorMessageKey(new ApiError(403, { code: 'account_deactivated', message: '' }), chatbotsApi.updateChatbot)).toBe('studio:errors.not_yours');
    // A code's own message answers only the status it is declared with.
    expect(errorMessageKey(new ApiError(422, { code: 'model_not_allowed', message: '' }), chatbotsApi.updateChatbot)).toBe('errors:status_422');
  });

  it('is checked by the type system: a message for an undeclared code, or a declared code without one, does not compile', () => {
    const codes = { forbidden: BY_STATUS, not_found: BY_STATUS } as const;
    expect(errorMessagesOf(chatbotsApi.deleteChatbot, { codes }).codes).toEqual(codes);
    // @ts-expect-error deleteChatbot does not declare `conflict`.
    errorMessagesOf(chatbotsApi.deleteChatbot, { codes: { ...codes, conflict: 'studio:errors.link_taken' } });
    // @ts-expect-error deleteChatbot declares `not_found`: it needs a message (or BY_STATUS).
    errorMessagesOf(chatbotsApi.deleteChatbot, { codes: { forbidden: BY_STATUS } });
  });
});
