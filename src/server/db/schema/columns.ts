/** Column helpers every table uses, and the enums more than one domain shares. */
import { LANGUAGES } from '../../../shared/domain/language';
import { integer, numeric, pgEnum, timestamp } from 'drizzle-orm/pg-core';

export const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();

export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const credits = (name: string) => numeric(name, { precision: 20, scale: 6, mode: 'number' });

export const languageEnum = pgEnum('language', LANGUAGES);
