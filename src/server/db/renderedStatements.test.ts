import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { PgDialect, alias } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import { describe, expect, it, vi } from 'vitest';
import { creditLedger, members, sessionMessages, sessions } from './schema';
import { cacheRenderedStatements } from './renderedStatements';

const db = drizzle.mock();

/** A dialect whose rendering is cached, and how often Drizzle itself rendered. */
function cachedDialect() {
  const dialect = new PgDialect();
  const original = dialect.sqlToQuery.bind(dialect);
  const drizzleRenders = vi.fn(original);
  const sqlToQuery = cacheRenderedStatements(drizzleRenders);
  // What the drivers read of a rendered statement: its text and its parameters.
  const render = (statement: SQL) => {
    const { sql: text, params } = sqlToQuery(statement);
    return { sql: text, params };
  };
  return { render, drizzleRenders, plain: new PgDialect() };
}

/** Statements of the shapes the server builds, each made twice with other values. */
const statements: Record<string, (n: number) => SQL> = {
  select: (n) =>
    db
      .select()
      .from(members)
      .where(and(eq(members.id, n), eq(members.email, `m${n}@x.test`)))
      .getSQL(),
  'insert with a date and json': (n) =>
    db
      .insert(sessions)
      .values({ tenantId: n, memberId: n + 1, chatbotId: 3, hashId: `h${n}`, title: `t${n}`, createdAt: new Date(1_700_000_000_000 + n) })
      .returning()
      .getSQL(),
  'a list of values': (n) =>
    db
      .select({ id: sessionMessages.id })
      .from(sessionMessages)
      .where(inArray(sessionMessages.id, [n, n + 1, n + 2]))
      .getSQL(),
  'nested fragments and an alias': (n) => {
    const parent = alias(sessionMessages, 'parent');
    const inner = sql`select ${parent.id} from ${parent} where ${parent.id} = ${n}`;
    return sql`with q as (${inner}) select ${sql`${n}::int`.as('value')}, (select count(*) from q) as c`;
  },
  'a ledger write': (n) =>
    sql`with entry as (${db
      .insert(creditLedger)
      .values({ tenantId: 1, memberId: n, kind: 'reservation', amount: -n })
      .returning({ id: creditLedger.id })
      .getSQL()}) select ${JSON.stringify({ n })}::json as extra, ${null} as nothing from entry`,
};

describe('statements rendered once per shape', () => {
  for (const [name, build] of Object.entries(statements)) {
    it(`${name}: the same text and parameters as Drizzle's, rendered by Drizzle once`, () => {
      const { render, drizzleRenders, plain } = cachedDialect();
      for (const n of [1, 2, 3]) expect(render(build(n))).toEqual({ sql: plain.sqlToQuery(build(n)).sql, params: plain.sqlToQuery(build(n)).params });
      expect(drizzleRenders).toHaveBeenCalledTimes(1);
    });
  }

  it('tells apart shapes that differ only in where a value or a list sits', () => {
    const { render, plain } = cachedDialect();
    const cases = [
      sql`select ${1}`,
      sql`select ${'1'}`,
      sql`select ${sql.raw('1')}`,
      sql`select ${[1]}`,
      sql`select ${[1, 2]}`,
      sql`select ${sql.identifier('a')}`,
    ];
    for (const statement of [...cases, ...cases]) expect(render(statement).sql).toBe(plain.sqlToQuery(statement).sql);
  });

  it('leaves statements with placeholders or inlined values to Drizzle', () => {
    const { render, drizzleRenders } = cachedDialect();
    const prepared = db
      .select()
      .from(members)
      .where(eq(members.id, sql.placeholder('id')))
      .getSQL();
    const inlined = sql`select ${'x'}`.inlineParams();
    for (let i = 0; i < 2; i++) {
      render(prepared);
      render(inlined);
    }
    expect(drizzleRenders).toHaveBeenCalledTimes(4);
  });
});
