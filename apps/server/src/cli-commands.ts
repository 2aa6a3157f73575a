import { isCatalystId, normalizeCatalystId } from '@cr/contract/rules';
import { UserRole } from '@cr/contract/users';
import { ConfigError } from './config';
import { DatabaseLockedError, type Database } from './db/client';
import { MigrationFailedError, SchemaTooNewError } from './db/migrator';
import { DEMO_PASSWORD, seedDemo } from './demo';
import { findAccountByCatalystId, updateUser } from './modules/accounts/accounts.repository';
import { insertAuditEntry } from './modules/system/audit.repository';
import { SCALE_PASSWORD, seedScale } from './scale-seed';
import { runAuditCommand } from './cli-audit';
import { runBackupCommand } from './cli-backup';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliDeps } from './cli-deps';

/** A refusal the operator can act on: printed as it is, exit code 1. */
export class CliError extends Error {}

export const usage = [
  'Usage: npm run cli -- <command> [argument]',
  '',
  'Commands:',
  '  grant-admin <catalystId>   make the account an admin (role 100)',
  '  revoke-admin <catalystId>  make the admin an ordinary user again',
  '  force-reset <catalystId>   make the user choose a new password before reviewing or moderating',
  '  migrate [--dry-run]        apply the pending database migrations (one instance at a time, each in a',
  '                             transaction); --dry-run lists them and changes nothing',
  '  seed-demo                  create the demo accounts that do not exist yet',
  '  seed-scale [--proposals=20000] [--reviewers=5000] [--categories=40] [--reviews=10] [--seed=1]',
  '             [--flags-notes=1] [--duplicates=10] [--moderators=0] [--moderation-allocations=0] [--moderations=0]',
  '                             generate an active round at that size (benchmarks, load tests); --flags-notes=1',
  '                             writes varied notes with --duplicates per 1,000 reviews planted near-duplicates,',
  '                             --moderators LV2 moderators, then that many moderation allocations and moderations',
  '  backup <file>              copy the embedded database (DATA_DIR) into a new file (the server must be stopped)',
  '  restore <file> [--replace] restore such a copy into DATA_DIR (--replace keeps the present one aside)',
  "  audit verify [--head=<hash>] walk the audit log's hash chain and name its first broken link; --head also",
  '                             checks that a head published earlier is in the chain',
  "  audit head [--event=<id>]  print the head of the log's (or an event's) chain, to publish",
  '  help                       show this text',
  '',
  'Every other command first applies the migrations. Each uses DATABASE_URL, or else the embedded database in DATA_DIR,',
  'which must not be in use by a running server.',
].join('\n');

type Context = { database: Database; adminCatalystIds: string[]; out: (line: string) => void };
type Command = {
  argument?: 'catalystId';
  options?: readonly string[];
  /** Switches without a value (`--dry-run`), passed as options set to 1. */
  switches?: readonly string[];
  /** The command migrates (or not) itself: runCli does not apply the migrations first. */
  ownsMigrations?: boolean;
  run(context: Context, argument: string, options: Record<string, number>): Promise<void>;
};

async function setRole(context: Context, rawCatalystId: string, role: number, action: string) {
  const catalystId = normalizeCatalystId(rawCatalystId).id;
  await context.database.db.transaction(async (tx) => {
    const account = await findAccountByCatalystId(tx, catalystId);
    if (!account) throw new CliError(`No account has the Catalyst ID ${catalystId}. Nothing was changed.`);
    if (account.role !== role) {
      await updateUser(tx, account.userId, { role });
      await insertAuditEntry(tx, {
        actorUserId: null,
        action,
        entity: 'user',
        entityId: String(account.userId),
        before: { role: account.role },
        after: { role },
      });
    }
  });
  return catalystId;
}

const commands: Record<string, Command> = {
  'grant-admin': {
    argument: 'catalystId',
    async run(context, argument) {
      const catalystId = await setRole(context, argument, UserRole.admin, 'cli.grant-admin');
      context.out(`${catalystId} is now an admin.`);
    },
  },
  'revoke-admin': {
    argument: 'catalystId',
    async run(context, argument) {
      const catalystId = await setRole(context, argument, UserRole.user, 'cli.revoke-admin');
      const listed = context.adminCatalystIds.some((id) => normalizeCatalystId(id).id === catalystId);
      context.out(
        listed
          ? `${catalystId} is no longer an admin, but ADMIN_CATALYST_IDS lists it: the server makes it an admin again at its next start.`
          : `${catalystId} is no longer an admin.`,
      );
    },
  },
  'force-reset': {
    argument: 'catalystId',
    async run(context, argument) {
      const catalystId = normalizeCatalystId(argument).id;
      await context.database.db.transaction(async (tx) => {
        const account = await findAccountByCatalystId(tx, catalystId);
        if (!account) throw new CliError(`No account has the Catalyst ID ${catalystId}. Nothing was changed.`);
        await updateUser(tx, account.userId, { forceReset: true });
        await insertAuditEntry(tx, {
          actorUserId: null,
          action: 'cli.force-reset',
          entity: 'user',
          entityId: String(account.userId),
          before: { force_reset: account.forceReset },
          after: { force_reset: true },
        });
      });
      context.out(`${catalystId} must choose a new password before reviewing or moderating.`);
    },
  },
  migrate: {
    switches: ['dry-run'],
    ownsMigrations: true,
    async run(context, _argument, options) {
      const dryRun = options['dry-run'] === 1;
      const report = await context.database.migrate({
        dryRun,
        onApplied: (name, ms) => context.out(`Applied ${name} (${ms} ms).`),
      });
      const where = `The database (${context.database.kind})`;
      if (report.applied.length === 0) {
        context.out(`${where} is migrated to the latest version (${report.alreadyApplied} migrations); nothing to apply.`);
      } else if (dryRun) {
        context.out(`${where} has ${report.applied.length} pending migration(s); a run would apply, in order:`);
        for (const name of report.applied) context.out(`  ${name}`);
        context.out('Nothing was changed (--dry-run).');
      } else {
        context.out(`${where} is migrated to the latest version: ${report.applied.length} migration(s) applied.`);
      }
    },
  },
  'seed-scale': {
    options: [
      'proposals',
      'reviewers',
      'categories',
      'reviews',
      'seed',
      'flags-notes',
      'duplicates',
      'moderators',
      'moderation-allocations',
      'moderations',
    ],
    async run(context, _argument, options) {
      const {
        reviews: reviewsPerReviewer,
        'flags-notes': flagsNotes,
        duplicates,
        'moderation-allocations': moderationAllocations,
        ...rest
      } = options;
      const result = await seedScale(context.database.db, {
        ...rest,
        ...(reviewsPerReviewer ? { reviewsPerReviewer } : {}),
        ...(flagsNotes ? { flagsNotes: true } : {}),
        ...(duplicates ? { duplicateRate: duplicates / 1000 } : {}),
        ...(moderationAllocations ? { moderationAllocations } : {}),
      });
      const moderation =
        result.moderators > 0
          ? `, ${result.moderators} moderators with ${result.moderationAllocations} moderation allocations and ${result.moderations} moderations`
          : '';
      context.out(
        `Created the active round ${result.eventId} with ${result.proposals} proposals in ${result.categories} categories, ${result.reviewers} subscribed reviewers (password ${SCALE_PASSWORD}) and ${result.reviews} reviews${moderation} in ${result.seconds} s.`,
      );
    },
  },
  'seed-demo': {
    async run(context) {
      const created = await seedDemo(context.database.db);
      context.out(
        created > 0
          ? `Created ${created} demo accounts (password ${DEMO_PASSWORD}); the README lists them.`
          : 'The demo accounts exist already; nothing was created.',
      );
    },
  },
};

/** Runs one operator command; returns the process exit code. Never throws. */
export async function runCli(args: string[], deps: CliDeps): Promise<number> {
  const [name, argument, ...rest] = args;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    deps.out(usage);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  if (name === 'backup' || name === 'restore') return runBackupCommand(name, args.slice(1), deps);
  if (name === 'audit') return runAuditCommand(args.slice(1), deps);
  const command = commands[name];
  if (!command) {
    deps.err(`Unknown command '${name}'.\n\n${usage}`);
    return EXIT_USAGE;
  }
  if (command.argument && (argument === undefined || rest.length > 0)) {
    deps.err(`${name} takes one argument: the Catalyst ID, e.g. npm run cli -- ${name} id.catalyst://cardano/…`);
    return EXIT_USAGE;
  }
  const options: Record<string, number> = {};
  if (command.switches) {
    for (const word of args.slice(1)) {
      const option = word.replace(/^--/, '');
      if (!word.startsWith('--') || !command.switches.includes(option)) {
        deps.err(`${name} takes no argument but ${command.switches.map((s) => `--${s}`).join(' ')}; '${word}' is not one of them.`);
        return EXIT_USAGE;
      }
      options[option] = 1;
    }
  } else if (command.options) {
    for (const word of args.slice(1)) {
      const match = /^--([a-z-]+)=(\d+)$/.exec(word);
      if (!match || !command.options.includes(match[1]!) || Number(match[2]) < 1) {
        deps.err(
          `${name} takes ${command.options.map((option) => `--${option}=<positive number>`).join(' ')}; '${word}' is not one of them.`,
        );
        return EXIT_USAGE;
      }
      options[match[1]!] = Number(match[2]);
    }
  } else if (!command.argument && argument !== undefined) {
    deps.err(`${name} takes no argument.`);
    return EXIT_USAGE;
  }
  if (command.argument && !isCatalystId(argument!)) {
    deps.err(`'${argument}' is not a Catalyst ID (expected e.g. id.catalyst://cardano/…). Nothing was changed.`);
    return EXIT_USAGE;
  }

  let opened: Awaited<ReturnType<CliDeps['open']>> | undefined;
  try {
    opened = await deps.open();
    if (!command.ownsMigrations) await opened.database.migrate();
    await command.run({ ...opened, out: deps.out }, command.options || command.switches ? '' : (argument ?? ''), options);
    return EXIT_OK;
  } catch (error) {
    if (
      error instanceof CliError ||
      error instanceof ConfigError ||
      error instanceof DatabaseLockedError ||
      error instanceof SchemaTooNewError ||
      error instanceof MigrationFailedError
    ) {
      deps.err(error.message);
    } else {
      deps.err(`The command failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return EXIT_FAILED;
  } finally {
    await opened?.database.close();
  }
}
