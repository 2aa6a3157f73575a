import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEFAULT_LEVEL_QUALIFIER, type EventPublic, type LevelQualifier, type LevelQualifiers } from '@cr/contract/events';
import type { ImportFile, ProposalRow } from '@cr/contract/proposals';
import type { ReviewPublic } from '@cr/contract/reviews';
import { ReviewerLevel, SubscriptionStatus, type ReviewerLevelValue } from '@cr/contract/subscriptions';
import type { SubscriptionPublic } from '@cr/contract/users';
import type { Db } from '../src/db/client';
import { proposalAllocations } from '../src/db/schema/index';
import { sampleImportFile } from '../src/modules/proposals/sample';
import { uniqueName, type TestUser } from './fixtures';

/**
 * World fixtures: an event, its reviewers, moderators, proposals, allocations and reviews, each in one line
 * (`ctx.newEvent()`, `ctx.newReviewer(event, { level })`, …). Everything goes through the app's routes, so the
 * fixtures obey the same rules as a real caller; the one exception is `newAllocation` (no route allocates a single
 * pair), which checks the allocation rules itself before writing its row.
 */

const API = '/api/reviews';
type Auth = { auth: { authorization: string } };

/** Qualifiers no history reaches, and one every history (even an empty one) fits. */
export const QUALIFIER = {
  never: { ...DEFAULT_LEVEL_QUALIFIER, min_valid_reviews: 1_000_000, max_valid_reviews: 1_000_000 } satisfies LevelQualifier,
  always: {
    min_valid_reviews: 0,
    max_valid_reviews: 10,
    min_perc_valid_reviews: 0,
    max_perc_valid_reviews: 1,
    min_active_funds: 0,
    max_active_funds: 10,
  } satisfies LevelQualifier,
};

/** A valid note (more than 200 counted characters) and valid ratings for every field of a review. */
export const VALID_NOTE = 'This proposal is clear about its goal and budget. '.repeat(6);
export const reviewFields = (overrides: Record<string, unknown> = {}) => ({
  impact_alignment_rating_given: 4,
  impact_alignment_note: VALID_NOTE,
  feasibility_rating_given: 3,
  feasibility_note: VALID_NOTE,
  auditability_rating_given: 5,
  auditability_note: VALID_NOTE,
  ...overrides,
});

/** The second form's answers for a yes to an LV2 invitation. */
export const LV2_FORM = {
  public_contact: 'x.com/reviewer',
  telegram_handle_private: '@reviewer',
  reward_address: 'addr1qxyz',
  acknowledge_public_contact: true,
};

/** An event made by `newEvent`: the public event plus its id and the admin who runs it. */
export type TestEvent = EventPublic & { id: number; admin: TestUser };

/** A user with a subscription to an event (a reviewer or a moderator). */
export type TestReviewer = TestUser & {
  event: TestEvent;
  level: ReviewerLevelValue;
  subscription: SubscriptionPublic;
  /** The reviewer's public identity in this event. */
  anonymousId: string;
};

/** A proposal as the proposals list answers it (for an anonymous viewer), plus `id`. */
export type TestProposal = ProposalRow & { id: number };

export interface TestCategory {
  id: number;
  title: string;
}

export interface NewEventOptions {
  /** The admin who creates and configures the event (one shared admin when left out). */
  admin?: TestUser;
  /** Fields of the new event; `active: true` unless given. */
  event?: Record<string, unknown>;
  /** Event configuration switches and windows; reviewer subscription is open unless this says otherwise. */
  config?: Record<string, boolean | string | null>;
  /** Level qualifiers; a level left out is one no history reaches (so newcomers subscribe at LV0). */
  qualifiers?: Partial<LevelQualifiers>;
}

export interface NewProposalOptions {
  /** The author (their Catalyst ID goes into the document); a made-up proposer when left out. */
  author?: TestUser | string;
  /** The category (objective) title; `null` for a proposal without category. */
  category?: string | null;
  title?: string;
}

function expectStatus(response: LightMyRequestResponse, status: number, what: string) {
  if (response.statusCode !== status) throw new Error(`${what} failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/**
 * Builds the world fixtures on the app's API. `users` gives the account fixtures (`newUser`, `newAdmin`) they build
 * on; `db` is used only by `newAllocation`.
 */
export function createWorldFixtures(app: FastifyInstance, db: Db, users: { newUser(): Promise<TestUser>; newAdmin(): Promise<TestUser> }) {
  let sharedAdmin: Promise<TestUser> | undefined;
  /** One admin for the whole test file, made on first use. */
  const admin = () => (sharedAdmin ??= users.newAdmin());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user?: Auth, payload?: object) =>
    app.inject({ method, url: `${API}/${url}`, headers: user ? user.auth : {}, ...(payload ? { payload } : {}) });

  // ---------- event configuration ----------

  /** The event's configuration (switches and windows) as the API answers it. */
  const configOf = async (event: TestEvent): Promise<Record<string, boolean | string | null>> =>
    expectStatus(await call('GET', `configs/reviews/${event.id}/`), 200, 'read config').value;

  /** Changes some switches or windows of an event; the others keep their current value (the PUT replaces all). */
  const configure = async (event: TestEvent, changes: Record<string, boolean | string | null>) => {
    const current = await configOf(event);
    const response = await call('PUT', `configs/reviews/${event.id}/`, event.admin, { record_update: { ...current, ...changes } });
    return expectStatus(response, 200, 'configure event').value as Record<string, boolean | string | null>;
  };

  const qualifiersOf = async (event: TestEvent): Promise<LevelQualifiers> =>
    expectStatus(await call('GET', `configs/reviews-level-qualifiers/${event.id}/`, event.admin), 200, 'read qualifiers').value;

  /** Changes the level qualifiers of an event; a level left out keeps its current qualifier. */
  const setQualifiers = async (event: TestEvent, changes: Partial<LevelQualifiers>) => {
    const current = await qualifiersOf(event);
    const response = await call('PUT', `configs/reviews-level-qualifiers/${event.id}/`, event.admin, {
      record_update: { ...current, ...changes },
    });
    return expectStatus(response, 200, 'set qualifiers').value as LevelQualifiers;
  };

  /** A new event (active, reviewer subscription open, everyone subscribes at LV0), configured as asked. */
  const newEvent = async (options: NewEventOptions = {}): Promise<TestEvent> => {
    const owner = options.admin ?? (await admin());
    const created: EventPublic = expectStatus(
      await call('POST', 'events/', owner, {
        new_event: { name: uniqueName('Fund'), description: 'A funding round.', active: true, ...options.event },
      }),
      201,
      'create event',
    );
    const event: TestEvent = { ...created, id: created.row_id, admin: owner };
    await configure(event, { reviewer_subscription_enabled: true, ...options.config });
    await setQualifiers(event, { lv1: QUALIFIER.never, lv2: QUALIFIER.never, ...options.qualifiers });
    return event;
  };

  // ---------- proposals and categories ----------

  const listProposals = async (query: string, user?: Auth): Promise<TestProposal[]> =>
    expectStatus(await call('GET', `proposals/?size=100&${query}`, user), 200, 'list proposals').data.map((row: TestProposal) => ({
      ...row,
      id: row.row_id,
    }));

  /**
   * Imports a file (the sample's 31 proposals unless given) into the event through the import route and answers
   * the event's proposals. `authorOf` chooses the author of the sample proposal with this index.
   */
  const importProposals = async (
    event: TestEvent,
    options: { file?: ImportFile; authorOf?: (index: number) => TestUser | string | undefined } = {},
  ): Promise<TestProposal[]> => {
    const authorOf = options.authorOf;
    const file =
      options.file ??
      sampleImportFile({
        authorOf: (index) => {
          const author = authorOf?.(index);
          return typeof author === 'object' ? author.catalystId : (author ?? `id.catalyst://cardano/someone-${index}`);
        },
      });
    const response = await call('POST', `proposals/import/${event.id}`, event.admin, {
      import_options: { source: 'file', file, dry_run: false },
    });
    expectStatus(response, 200, 'import proposals');
    const rows: TestProposal[] = [];
    for (let page = 0; ; page += 1) {
      const batch = await listProposals(`event_id=${event.id}&page=${page}`);
      rows.push(...batch);
      if (batch.length < 100) return rows;
    }
  };

  /** One new proposal in the event (imported through the route), by this author, in this category. */
  const newProposal = async (event: TestEvent, options: NewProposalOptions = {}): Promise<TestProposal> => {
    const sample = sampleImportFile();
    const template = sample.documents[0]!;
    const title = options.title ?? uniqueName('Proposal');
    const category = options.category === undefined ? sample.categories![template.category!]! : options.category;
    const categoryRef = category === null ? null : `category-${category}`;
    const id = uniqueName('doc');
    const document: ImportFile['documents'][number] = {
      ...structuredClone(template),
      id,
      ver: id,
      category: categoryRef,
      authors: [
        typeof options.author === 'object'
          ? options.author.catalystId
          : (options.author ?? `id.catalyst://cardano/${uniqueName('proposer')}`),
      ],
      url: `https://app.projectcatalyst.io/proposal/${id}`,
    };
    (document.payload as { setup: { title: { title: string } } }).setup.title.title = title;
    const templates = {
      // Without a category the template must not bring its own.
      [template.template as string]: { ...sample.templates[template.template as string]!, category: categoryRef },
    };
    const file: ImportFile = {
      format: sample.format,
      categories: categoryRef ? { [categoryRef]: category! } : {},
      templates,
      documents: [document],
    };
    const response = await call('POST', `proposals/import/${event.id}`, event.admin, {
      import_options: { source: 'file', file, dry_run: false },
    });
    if (expectStatus(response, 200, 'import a proposal').created !== 1) throw new Error(`import a proposal: ${response.body}`);
    const [proposal] = (await listProposals(`event_id=${event.id}&title=${encodeURIComponent(title)}`)).filter((p) => p.title === title);
    if (!proposal) throw new Error(`the imported proposal ${title} is not listed`);
    return proposal;
  };

  /** The event's categories with these titles, made (through one imported proposal each) where missing. */
  const newCategories = async (event: TestEvent, titles: string[]): Promise<TestCategory[]> => {
    for (const title of titles) await newProposal(event, { category: title });
    const all: TestCategory[] = expectStatus(await call('GET', `categories/?event_id=${event.id}`), 200, 'list categories');
    return titles.map((title) => all.find((category) => category.title === title)!);
  };

  // ---------- reviewers and moderators ----------

  /**
   * `POST subscriptions/` with the reviewer's acknowledgements given and no categories, as the subscription form
   * sends it; `body` overrides fields. Answers the raw response (for tests of the subscription itself).
   */
  const subscribe = (user: Auth | undefined, event: TestEvent | number | undefined, body: Record<string, unknown> = {}) =>
    call('POST', 'subscriptions/', user, {
      new_subscription: {
        want_to_be_reviewer: true,
        fund_rules_acceptance: true,
        preferred_categories: [],
        event_id: typeof event === 'object' ? event.id : event,
        ...body,
      },
    });

  /**
   * `POST subscriptions/invitation`: a yes (with the second form, `LV2_FORM`, and `form` over it) or a no to an LV2
   * invitation; the raw response.
   */
  const answerInvitation = (user: Auth | undefined, event: TestEvent | number, yes: boolean, form: Record<string, unknown> = {}) =>
    call('POST', 'subscriptions/invitation', user, {
      invitation_answer: {
        event_id: typeof event === 'number' ? event : event.id,
        role: ReviewerLevel.level_2,
        ...(yes ? { status: 1, ...LV2_FORM } : { status: 0 }),
        ...form,
      },
    });

  /** The event's admin invites the user to LV2 (`POST subscriptions/invite`); answers the user's subscriptions. */
  const invite = async (event: TestEvent, user: TestUser): Promise<SubscriptionPublic[]> =>
    expectStatus(
      await call('POST', 'subscriptions/invite', event.admin, { invitation: { event_id: event.id, catalyst_id: user.catalystId } }),
      201,
      'invite to LV2',
    );

  /**
   * A new user (or the given one) subscribed to the event at LV0 or LV1, active. The level comes from the event's
   * qualifiers, as for everyone: the fixture sets them so that any history earns exactly this level, subscribes,
   * and puts the event's qualifiers back (those writes are audited like any admin's). The event's subscription must
   * be open (it is after `newEvent`) and verification off (the default). Make the reviewers of one event one after
   * another, not in parallel: each may set the event's qualifiers for a moment.
   */
  const newReviewer = async (
    event: TestEvent,
    options: { level?: typeof ReviewerLevel.level_0 | typeof ReviewerLevel.level_1; categories?: number[]; user?: TestUser } = {},
  ): Promise<TestReviewer> => {
    const level = options.level ?? ReviewerLevel.level_0;
    const user = options.user ?? (await users.newUser());
    const before = await qualifiersOf(event);
    const pinned = { lv1: level === ReviewerLevel.level_1 ? QUALIFIER.always : QUALIFIER.never, lv2: QUALIFIER.never };
    const differs = !isDeepStrictEqual(before, pinned);
    if (differs) await setQualifiers(event, pinned);
    try {
      const response = await subscribe(user, event, { preferred_categories: options.categories ?? [] });
      const subscriptions: SubscriptionPublic[] = expectStatus(response, 201, 'subscribe');
      const subscription = subscriptions.find((item) => item.role === level && item.status === SubscriptionStatus.active);
      if (!subscription) throw new Error(`subscribe answered no active LV${level} subscription: ${response.body}`);
      return { ...user, event, level, subscription, anonymousId: subscription.extra.anonymous_id };
    } finally {
      if (differs) await setQualifiers(event, before);
    }
  };

  /** A new user (or the given one) invited by the event's admin to LV2 who accepted: an active moderator. */
  const newModerator = async (event: TestEvent, options: { user?: TestUser } = {}): Promise<TestReviewer> => {
    const user = options.user ?? (await users.newUser());
    await invite(event, user);
    const response = await answerInvitation(user, event, true);
    const subscriptions: SubscriptionPublic[] = expectStatus(response, 200, 'accept the LV2 invitation');
    const subscription = subscriptions.find((item) => item.role === ReviewerLevel.level_2 && item.status === SubscriptionStatus.active);
    if (!subscription) throw new Error(`the accepted invitation is not an active LV2 subscription: ${response.body}`);
    return { ...user, event, level: ReviewerLevel.level_2, subscription, anonymousId: subscription.extra.anonymous_id };
  };

  // ---------- allocations and reviews ----------

  /** Runs the real proposal allocation of the event (`generate-allocations`) and answers its statistics. */
  const allocate = async (
    event: TestEvent,
    params: { allocation_seed?: number; nr_of_proposals_lv0: number; nr_of_proposals_lv1: number; categories?: number[] },
  ) =>
    expectStatus(
      await call('POST', 'proposal-reviews/generate-allocations', event.admin, {
        allocation_params: { event_id: event.id, allocation_seed: 1, dry_run: false, ...params },
      }),
      200,
      'allocate proposals',
    );

  /**
   * Allocates one proposal to one reviewer. No route allocates a single pair, so this writes the row itself after
   * checking what the allocation run guarantees: an LV0/LV1 reviewer of the proposal's event, and no proposal in a
   * category the reviewer authored in.
   */
  const newAllocation = async (reviewer: TestReviewer, proposal: TestProposal) => {
    if (reviewer.level === ReviewerLevel.level_2) throw new Error('only LV0 and LV1 reviewers are allocated proposals');
    if (proposal.event_id !== reviewer.event.id) throw new Error('the proposal is not in the reviewer’s event');
    const me = expectStatus(await call('GET', 'users/me/', reviewer), 200, 'read the reviewer');
    if (proposal.objective !== null && (me.extra.unique_objectives_as_author as number[]).includes(proposal.objective))
      throw new Error('a reviewer is never allocated a proposal in a category they authored in');
    await db
      .insert(proposalAllocations)
      .values({ eventId: reviewer.event.id, subscriptionId: reviewer.subscription.row_id, proposalId: proposal.id });
  };

  /** A review by this reviewer of this proposal, through the API (valid fields unless overridden). */
  const newReview = async (
    reviewer: TestReviewer | TestUser,
    proposal: TestProposal | number,
    fields: Record<string, unknown> = {},
  ): Promise<ReviewPublic> => {
    const response = await call('POST', 'proposal-reviews/', reviewer, {
      new_proposal_review: { proposal_id: typeof proposal === 'number' ? proposal : proposal.id, ...reviewFields(fields) },
    });
    return expectStatus(response, 201, 'write a review');
  };

  return {
    admin,
    newEvent,
    configOf,
    configure,
    qualifiersOf,
    setQualifiers,
    importProposals,
    newProposal,
    newCategories,
    subscribe,
    answerInvitation,
    invite,
    newReviewer,
    newModerator,
    allocate,
    newAllocation,
    newReview,
  };
}
export type WorldFixtures = ReturnType<typeof createWorldFixtures>;
