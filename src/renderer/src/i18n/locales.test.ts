import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../shared/domain/language';
import { collectResources } from '.';

const resources = collectResources(import.meta.glob<{ default: Record<string, unknown> }>('./locales/*/*.json', { eager: true }));

function keysOf(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keysOf(child, prefix ? `${prefix}.${key}` : key));
}

describe('translations', () => {
  const namespaces = Object.keys(resources.en ?? {});

  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s has every English key in every namespace, none empty', (language) => {
    for (const namespace of namespaces) {
      const english = keysOf(resources.en?.[namespace]).sort();
      expect(keysOf(resources[language]?.[namespace]).sort(), `${language}/${namespace}`).toEqual(english);
      for (const key of english) {
        const text = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], resources[language]?.[namespace]);
        expect(typeof text === 'string' && text.trim().length > 0, `${language}/${namespace}:${key}`).toBe(true);
      }
    }
  });
});
