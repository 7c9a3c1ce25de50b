import { passwordsApi } from '../../../shared/api';
import type { SupportedLanguage } from '../../../shared/domain/language';
import { callEndpoint } from './client';

export const requestPasswordReset = (email: string, language: SupportedLanguage) => callEndpoint(passwordsApi.resetPassword, { body: { email, language } });

export const confirmPasswordReset = (token: string, newPassword: string) =>
  callEndpoint(passwordsApi.confirmPasswordReset, { body: { token, new_password: newPassword } });

export const changePassword = (password: string, newPassword: string) =>
  callEndpoint(passwordsApi.changePassword, { body: { password, new_password: newPassword } });
