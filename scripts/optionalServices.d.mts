// Types of scripts/optionalServices.mjs for the TypeScript that imports it (fixtures, playwright.config.ts).
export type OptionalService = 'browser' | 'postgres' | 'keychain' | 'redis' | 'slapd' | 'cjkFont';
export function findExecutable(name: string, options?: { sbin?: boolean }): string | undefined;
export function systemChromium(): string | undefined;
export function slapdPrograms(): { slapd: string; slapadd: string } | undefined;
export const optionalServices: Record<OptionalService, { skips: string; missing?: () => string | undefined; enable: string }>;
export function recordSkip(service: OptionalService, why: string, enable?: string): void;
export function needService(service: Exclude<OptionalService, 'browser'>): boolean;
