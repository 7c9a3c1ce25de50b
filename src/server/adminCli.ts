/**
 * The operator's CLI (`npm run admin -- <command>`), as a function so that tests run it in-process:
 * it takes the arguments and its streams and returns the exit code instead of exiting.
 */
import type { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config';
import { type DatabaseHandle, openPglite, openPostgres } from './db/client';
import { ProvisioningError, createAdmin, createTenant, listTenants, resetPassword } from './domains/tenants/provisioning';
import { listOutbox } from './mail/outbox';
import { type ModelDefinition, listModels, setModel } from './domains/tenants/modelCatalog';

export const EXIT_OK = 0;
/** The database failed or something unexpected broke. */
export const EXIT_FAILURE = 1;
/** Bad command line or input the operator has to correct. */
export const EXIT_USAGE = 2;

export interface AdminIo {
  env: Record<string, string | undefined>;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  stdout: Writable;
  stderr: Writable;
}

const USAGE = `Usage: npm run admin -- <command> [arguments]

Commands:
  create-tenant <subdomain> <name>                 a new, empty tenant
  create-admin <tenant> <email> <name> [--password-stdin]
                                                   an approved admin of the tenant
  reset-password <tenant> <email> [--password-stdin]
                                                   a new password; signs the member out everywhere
  list-tenants                                     every tenant, by subdomain
  list-outbox [--limit N]                          the mail outbox, newest first: each mail's status and, until
                                                   sent over SMTP, its text (without SMTP_URL mail is only kept)
  list-models <tenant>                             the tenant's models with provider, limits, costs and flags
  set-model <tenant> <name> --display-name T --provider demo|openai-compatible --provider-model ID
            --context-limit N --input-cost C --output-cost C [--max-output N] [--web-search-cost C]
            [--release-date YYYY-MM-DD] [--low-tier] [--unlimited] [--reasoning] [--no-chatbots]
                                                   declares a model (creates it, or changes the one of that
                                                   name); costs are credits per 10K tokens; a new model is
                                                   off for every group until an admin allows it, except
                                                   an unlimited one

The database is the server's: DATABASE_URL (PostgreSQL) or else the PGlite directory DATA_DIR
(stop the server first: PGlite allows one process at a time).
Passwords come from --password-stdin (first line of standard input), else ADMIN_PASSWORD, else a
prompt when run in a terminal. Exit codes: 0 done, 1 failure, 2 bad input.`;

class UsageError extends Error {}

/** Reads standard input to its end and returns the first line (a trailing newline is not part of the password). */
async function readFirstLine(stdin: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stdin) text += chunk.toString();
  return text.split(/\r?\n/)[0] ?? '';
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(io: AdminIo, question: string): Promise<string> {
  const { stdin, stdout } = io;
  // Echo off before the question appears, so that nothing typed after it is shown.
  stdin.setRawMode?.(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  stdout.write(question);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.setRawMode?.(false);
      stdin.pause();
      stdin.off('data', onData);
      stdout.write('\n');
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          finish();
          resolve(value);
          return;
        }
        if (char === '\u0003' || char === '\u0004') {
          finish();
          reject(new UsageError('cancelled'));
          return;
        }
        value = char === '\u007f' || char === '\b' ? value.slice(0, -1) : value + char;
      }
    };
    stdin.on('data', onData);
  });
}

async function readPassword(io: AdminIo, fromStdin: boolean): Promise<string> {
  if (fromStdin) return readFirstLine(io.stdin);
  if (io.env.ADMIN_PASSWORD) return io.env.ADMIN_PASSWORD;
  if (!io.stdin.isTTY) throw new UsageError('no password given: use --password-stdin, ADMIN_PASSWORD, or run in a terminal');
  const password = await promptHidden(io, 'Password: ');
  if ((await promptHidden(io, 'Repeat password: ')) !== password) throw new UsageError('the passwords differ');
  return password;
}

function positionals(args: string[], names: string[]): string[] {
  if (args.length !== names.length) throw new UsageError(`expected ${names.map((name) => `<${name}>`).join(' ')}`);
  return args;
}

export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  let database: DatabaseHandle | undefined;
  const say = (line: string) => io.stdout.write(`${line}\n`);
  try {
    const { values, positionals: args } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        'password-stdin': { type: 'boolean', default: false },
        limit: { type: 'string', default: '20' },
        'display-name': { type: 'string' },
        provider: { type: 'string' },
        'provider-model': { type: 'string' },
        'context-limit': { type: 'string' },
        'max-output': { type: 'string' },
        'input-cost': { type: 'string' },
        'output-cost': { type: 'string' },
        'web-search-cost': { type: 'string' },
        'release-date': { type: 'string' },
        'low-tier': { type: 'boolean', default: false },
        unlimited: { type: 'boolean', default: false },
        reasoning: { type: 'boolean', default: false },
        'no-chatbots': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    const [command, ...rest] = args;
    if (values.help || !command) {
      (values.help ? io.stdout : io.stderr).write(`${USAGE}\n`);
      return values.help ? EXIT_OK : EXIT_USAGE;
    }
    if (!['create-tenant', 'create-admin', 'reset-password', 'list-tenants', 'list-outbox', 'list-models', 'set-model'].includes(command))
      throw new UsageError(`unknown command "${command}"`);

    const config = loadConfig(io.env);
    // Arguments first, then the password, then the database: bad input fails before anything opens.
    const open = async () => {
      database = config.DATABASE_URL ? await openPostgres(config.DATABASE_URL, 1) : await openPglite(config.DATA_DIR);
      return database.db;
    };
    switch (command) {
      case 'create-tenant': {
        const [subdomain, name] = positionals(rest, ['subdomain', 'name']);
        const tenant = await createTenant(await open(), { subdomain: subdomain!, name: name! });
        say(`created tenant "${tenant.subdomain}" (${tenant.name})`);
        break;
      }
      case 'create-admin': {
        const [tenant, email, name] = positionals(rest, ['tenant', 'email', 'name']);
        const password = await readPassword(io, values['password-stdin']);
        const member = await createAdmin(await open(), { tenant: tenant!, email: email!, name: name!, password });
        say(`created admin ${member.email} in "${tenant}"`);
        break;
      }
      case 'reset-password': {
        const [tenant, email] = positionals(rest, ['tenant', 'email']);
        const password = await readPassword(io, values['password-stdin']);
        await resetPassword(await open(), { tenant: tenant!, email: email!, password });
        say(`password of ${email!.trim().toLowerCase()} in "${tenant}" reset; its sessions are signed out`);
        break;
      }
      case 'list-tenants': {
        positionals(rest, []);
        const rows = await listTenants(await open());
        if (rows.length === 0) say('no tenants (create one with create-tenant)');
        for (const row of rows) say(`${row.subdomain}\t${row.name}\t${row.createdAt.toISOString()}`);
        break;
      }
      case 'list-models': {
        const [tenant] = positionals(rest, ['tenant']);
        const rows = await listModels(await open(), tenant!);
        if (rows.length === 0) say(`no models in "${tenant}" (declare one with set-model)`);
        for (const row of rows) {
          const flags = [row.isLowLlm && 'low-tier', row.isUnlimited && 'unlimited', row.supportsReasoning && 'reasoning', !row.chatbotAllowed && 'no-chatbots']
            .filter(Boolean)
            .join(',');
          say(
            [
              row.name,
              row.displayName,
              `${row.provider}:${row.providerModelId}`,
              `${row.contextLimit} tokens, answers up to ${row.maxOutputTokens}`,
              `in ${row.inputCostPer10k} / out ${row.outputCostPer10k} per 10K`,
              row.releaseDate ?? '-',
              flags || '-',
            ].join('\t'),
          );
        }
        break;
      }
      case 'set-model': {
        const [tenant, name] = positionals(rest, ['tenant', 'name']);
        const required = (option: 'display-name' | 'provider' | 'provider-model' | 'context-limit' | 'input-cost' | 'output-cost') => {
          const value = values[option];
          if (value === undefined) throw new UsageError(`set-model needs --${option}`);
          return value;
        };
        const definition = {
          name: name!,
          displayName: required('display-name'),
          provider: required('provider') as ModelDefinition['provider'],
          providerModelId: required('provider-model'),
          contextLimit: required('context-limit'),
          inputCostPer10k: required('input-cost'),
          outputCostPer10k: required('output-cost'),
          ...(values['max-output'] === undefined ? {} : { maxOutputTokens: values['max-output'] }),
          ...(values['web-search-cost'] === undefined ? {} : { webSearchCostPer10k: values['web-search-cost'] }),
          releaseDate: values['release-date'] ?? null,
          isLowLlm: values['low-tier'],
          isUnlimited: values.unlimited,
          supportsReasoning: values.reasoning,
          chatbotAllowed: !values['no-chatbots'],
        } satisfies ModelDefinition;
        const { created } = await setModel(await open(), tenant!, definition);
        say(
          `${created ? 'declared' : 'updated'} model "${name}" in "${tenant}"${created && !values.unlimited ? '; allow it to groups in the admin console (Model permissions)' : ''}`,
        );
        break;
      }
      case 'list-outbox': {
        positionals(rest, []);
        const limit = Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new UsageError('--limit takes a whole number from 1 to 1000');
        const mails = await listOutbox(await open(), { limit });
        if (mails.length === 0) say('no mail in the outbox');
        for (const mail of mails) {
          say(`--- ${mail.createdAt.toISOString()}  ${mail.template}  to ${mail.to}  (${mail.language})  ${mail.status}`);
          say(`Subject: ${mail.subject}`);
          if (mail.lastError) say(`Last error: ${mail.lastError}`);
          say('');
          say(mail.text === '' ? '(sent over SMTP: the text is not kept)' : mail.text.trimEnd());
          say('');
        }
        break;
      }
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError || error instanceof ProvisioningError || error instanceof ConfigError) {
      io.stderr.write(`error: ${error.message}\n`);
      if (error instanceof UsageError) io.stderr.write('Run with --help for the commands.\n');
      return EXIT_USAGE;
    }
    // parseArgs rejects unknown options and missing option values with a TypeError carrying these codes.
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' || code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      io.stderr.write(`error: ${(error as Error).message}\nRun with --help for the commands.\n`);
      return EXIT_USAGE;
    }
    io.stderr.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT_FAILURE;
  } finally {
    await database?.close();
  }
}
