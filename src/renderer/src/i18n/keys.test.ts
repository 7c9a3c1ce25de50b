import { describe, expect, it } from 'vitest';
import { useTranslation } from 'react-i18next';
import { renderHook } from '@testing-library/react';
import { formErrorText } from '../components/forms/zodResolver';
import { isMessageKey, messageText } from './keys';

describe('message keys', () => {
  it('knows a key by the loaded strings: with its namespace, or common without', () => {
    expect(isMessageKey('errors:unknown')).toBe(true);
    expect(isMessageKey('validation.required')).toBe(true);
    expect(isMessageKey('errors:no_such_key')).toBe(false);
    expect(isMessageKey('This is a required field.')).toBe(false);
    expect(isMessageKey(undefined)).toBe(false);
  });

  it('translates a key with its values', () => {
    expect(messageText('errors:unknown')).toBe('An unknown error has occurred. Please try again.');
    expect(messageText('validation.password_too_short', { count: 12 })).toBe('The password must be at least 12 characters long.');
  });

  it('shows a form error that is a key translated, and one that is already text as it is', () => {
    expect(formErrorText('common:validation.required')).toBe('This is a required field.');
    expect(formErrorText('validation.password_too_short', { count: 10 })).toBe('The password must be at least 10 characters long.');
    expect(formErrorText('Ce nom est déjà pris.')).toBe('Ce nom est déjà pris.');
    expect(formErrorText(undefined)).toBeUndefined();
  });

  it('types the keys: one the English files lack does not compile', () => {
    const { t } = renderHook(() => useTranslation('common')).result.current;
    // @ts-expect-error: not a key of common; tsc fails here if keys ever stop being typed
    expect(t('no_such_key')).toBe('no_such_key');
    // @ts-expect-error: a key of another namespace needs it listed in useTranslation
    expect(t('errors:unknown')).toBe('An unknown error has occurred. Please try again.');
    // @ts-expect-error: not a key of any namespace
    expect(messageText('errors:no_such_key')).toBe('no_such_key');
  });
});
