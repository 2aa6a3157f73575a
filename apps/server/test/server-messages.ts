import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appealMessages } from '@cr/contract/appeals';
import { coverageMessages } from '@cr/contract/coverage';
import { serverMessages } from '@cr/contract/messages';
import { moderationMessages } from '@cr/contract/moderations';
import { unsubscribeMessages } from '@cr/contract/notifications';
import { outcomeMessages } from '@cr/contract/outcomes';
import { reviewFileMessages } from '@cr/contract/review-files';
import { reviewMessages } from '@cr/contract/reviews';
import { tokenMessages } from '@cr/contract/tokens';
import { lifecycleMessages } from '@cr/contract/lifecycle';
import { databaseUnavailableMessage } from '../src/errors';
import { busyMessage } from '../src/lib/password-hasher';
import { messages as accountMessages } from '../src/modules/accounts/accounts.service';
import { sessionMessages } from '../src/modules/accounts/session.service';
import { eventMessages } from '../src/modules/events/events.service';
import { flagErrors } from '../src/modules/flags/flags.service';
import { unknownUserMessage } from '../src/modules/lookups/lookups.service';
import { moderationErrors } from '../src/modules/moderations/moderations.service';
import { importSelectionMessages } from '../src/modules/proposals/proposal-import-selection';
import { importSourceMessages } from '../src/modules/proposals/proposal-import-source';
import { proposalMessages } from '../src/modules/proposals/proposals.service';
import { reviewErrors } from '../src/modules/reviews/reviews.service';
import { runMessages } from '../src/modules/runs/runs.service';
import { subscriptionMessages } from '../src/modules/subscriptions/subscriptions.service';
import { verificationMessages } from '../src/modules/verification/verification.service';
import { inactiveAccountMessage } from '../src/plugins/auth';
import { invalidJsonMessage, prototypeKeyMessage } from '../src/plugins/error-handler';
import { idempotencyMessages } from '../src/plugins/idempotency';
import { overloadMessage } from '../src/plugins/overload';
import { crossSiteMessage } from '../src/plugins/same-site';

/*
 * The English messages the server answers users with (issue 31), gathered the way a translator would: the message
 * objects, imported, and the literal strings passed to the error helpers, found in the sources by a regex. A message
 * with variable parts is written with `{{name}}` for each part, as the catalogs key it.
 */

const MESSAGE_OBJECTS: Record<string, unknown> = {
  appealMessages,
  coverageMessages,
  serverMessages,
  moderationMessages,
  unsubscribeMessages,
  outcomeMessages,
  reviewFileMessages,
  reviewMessages,
  tokenMessages,
  lifecycleMessages,
  accountMessages,
  sessionMessages,
  eventMessages,
  flagErrors,
  moderationErrors,
  importSelectionMessages,
  importSourceMessages,
  proposalMessages,
  reviewErrors,
  runMessages,
  subscriptionMessages,
  verificationMessages,
  idempotencyMessages,
  single: {
    databaseUnavailableMessage,
    busyMessage,
    unknownUserMessage,
    inactiveAccountMessage,
    invalidJsonMessage,
    prototypeKeyMessage,
    overloadMessage,
    crossSiteMessage,
  },
};

/**
 * How each message that is a function is called to write it with `{{…}}` parts: a function missing here fails the
 * test, so that a new one is not forgotten.
 */
export const FUNCTION_MESSAGES: Record<string, () => string> = {
  'tokenMessages.missingScope': () => tokenMessages.missingScope('{{scope}}'),
  'lifecycleMessages.banned': () => lifecycleMessages.banned('{{reason}}'),
  'reviewMessages.contentMin': () => reviewMessages.contentMin('{{min}}' as unknown as number),
  'reviewMessages.contentMax': () => reviewMessages.contentMax('{{max}}' as unknown as number, '{{current}}' as unknown as number),
  'reviewFileMessages.changedOnline': () =>
    reviewFileMessages.changedOnline('{{current}}' as unknown as number, '{{base}}' as unknown as number),
  // "Not reviews of this event: 1, 2 and 3 more": the list is one part.
  'flagErrors.unknownReviews': () => 'Not reviews of this event: {{ids}}',
};

export interface CollectedMessage {
  text: string;
  /** Where it was found: an object's path, or a source file. */
  from: string;
}

function fromObjects(): { found: CollectedMessage[]; unknownFunctions: string[] } {
  const found: CollectedMessage[] = [];
  const unknownFunctions: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (typeof value === 'string') found.push({ text: value, from: path });
    else if (typeof value === 'function') {
      const call = FUNCTION_MESSAGES[path];
      if (call) found.push({ text: call(), from: path });
      else unknownFunctions.push(path);
    } else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) walk(inner, path === 'single' ? key : `${path}.${key}`);
    }
  };
  for (const [name, value] of Object.entries(MESSAGE_OBJECTS)) walk(value, name);
  return { found, unknownFunctions };
}

const here = dirname(fileURLToPath(import.meta.url));
const serverSrc = resolve(here, '../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return /\.ts$/.test(entry.name) ? [path] : [];
  });
}

const STRING = String.raw`(['"\x60])((?:\\.|(?!\1)[^\\])*)\1`;
/**
 * Literal messages: the error helpers' arguments and defaults, AppError's, `msg:` of 422 items (and their fallback),
 * `send({ message })`.
 */
const LITERAL_PATTERNS = [
  new RegExp(String.raw`\b(?:badRequest|conflict|forbidden|unauthorized|notFound)\(\s*${STRING}`, 'g'),
  new RegExp(String.raw`new (?:AppError|ValidationFailure)\(\s*\d+,\s*${STRING}`, 'g'),
  new RegExp(String.raw`\(message = ${STRING}\)`, 'g'),
  new RegExp(String.raw`\bmsg:\s*${STRING}`, 'g'),
  new RegExp(String.raw`\.send\(\{\s*message:\s*${STRING}`, 'g'),
  new RegExp(String.raw`new AppError\(\s*\d+,\s*${STRING}`, 'g'),
  new RegExp(String.raw`\bmsg \?\? ${STRING}\)`, 'g'),
];

/** Texts the patterns find that never reach a user: log lines. */
const NOT_FOR_USERS = new Set(['database connection lost; the pool reconnects']);

/** `${expression}` of a template literal as `{{name}}`, the expression's last word. */
const placeholders = (text: string) =>
  text.replace(/\$\{([^}]*)\}/g, (_whole, expression: string) => `{{${/(\w+)\W*$/.exec(expression)?.[1] ?? 'value'}}}`);

function fromSources(): CollectedMessage[] {
  const found: CollectedMessage[] = [];
  for (const file of sourceFiles(serverSrc)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of LITERAL_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const body = match[2]!;
        // A template of only parts ("${a} — ${b}") is a composition, not a message.
        if (!/[a-z]{3}/i.test(body.replace(/\$\{[^}]*\}/g, '')) || NOT_FOR_USERS.has(body)) continue;
        found.push({ text: placeholders(body.replace(/\\(['"\x60\\])/g, '$1')), from: relative(serverSrc, file) });
      }
    }
  }
  return found;
}

/** Every English message, once each, and the function messages nobody said how to write. */
export function collectServerMessages(): { messages: CollectedMessage[]; unknownFunctions: string[] } {
  const objects = fromObjects();
  const seen = new Set<string>();
  const messages = [...objects.found, ...fromSources()].filter((message) => {
    // Validation keys ('validation.required') are the contract's validation messages, translated apart.
    if (message.text.startsWith('validation.') || seen.has(message.text)) return false;
    seen.add(message.text);
    return true;
  });
  return { messages, unknownFunctions: objects.unknownFunctions };
}
