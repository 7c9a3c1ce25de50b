import { type BilingualName, nameKeyOf, type SupportedLanguage } from '../../shared/domain/language';

/**
 * The names a create or update body gives (docs/decisions/0024-bilingual-names-fields-modes.md): its own
 * `ko_name` / `en_name`, and the spec's single name (`field_name`, `mode_name`) as the name in the
 * admin's language when `omitted` says the body left that one out.
 */
export function givenNames(
  body: { ko_name?: string; en_name?: string },
  specName: string | undefined,
  adminLanguage: SupportedLanguage,
  omitted: (key: keyof BilingualName) => boolean,
): Partial<BilingualName> {
  const names: Partial<BilingualName> = { ko_name: body.ko_name, en_name: body.en_name };
  const key = nameKeyOf(adminLanguage);
  if (specName !== undefined && omitted(key)) names[key] = specName;
  return names;
}
