import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { destination } from 'pino';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { createCatalystRegistry, type CatalystRegistry } from './adapters/catalyst-registry';
import { createVerificationProvider, type VerificationProvider } from './adapters/verification';
import { createGatewayReader } from './adapters/catalyst-gateway';
import type { ImportFile } from '@cr/contract/proposals';
import { createMailer, type Mailer } from './adapters/mail';
import { createSmtpTransport, type MailTransport } from './adapters/smtp-transport';
import type { Config } from './config';
import { type Db, postgresPool } from './db/client';
import { createJwt } from './lib/jwt';
import { guardedFetch } from './lib/outbound';
import { eventsOrConfigsChanged } from './db/read-cache';
import { createAfterResponse, type AfterResponse } from './lib/concurrency';
import { createPasswordHasher, type PasswordHasher } from './lib/password-hasher';
import { meetsOwaspMinimum } from './lib/secrets';
import { registerDrain } from './plugins/drain';
import { registerMetrics } from './plugins/metrics';
import { registerOverload } from './plugins/overload';
import { createRateLimiter } from './lib/rate-limit';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { adminUsersRoutes } from './modules/accounts/admin-users.routes';
import { createReviewFilesService } from './modules/reviews/review-files.service';
import { tokensRoutes } from './modules/tokens/tokens.routes';
import { createTokensService } from './modules/tokens/tokens.service';
import { accountLimitsOf, createAccountsService } from './modules/accounts/accounts.service';
import { guessLimitsOf } from './modules/accounts/guess-guard';
import { createRefreshTokens } from './modules/accounts/refresh-tokens';
import { createSessionService } from './modules/accounts/session.service';
import { createDeviceCookies } from './modules/accounts/device-cookies';
import { createUserInfoService } from './modules/accounts/user-info.service';
import { createEventsService } from './modules/events/events.service';
import { createLookupsService } from './modules/lookups/lookups.service';
import { eventsRoutes } from './modules/events/events.routes';
import { createEventConfigService } from './modules/events/event-config.service';
import { eventConfigRoutes } from './modules/events/event-config.routes';
import { createSubscriptionsService } from './modules/subscriptions/subscriptions.service';
import { createInvitationsService } from './modules/subscriptions/invitations.service';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions.routes';
import { createAuditService } from './modules/system/audit.service';
import { createMailWorker, type MailWorker } from './modules/mail/mail-worker';
import { createMailQueueService } from './modules/mail/mail-queue.service';
import { mailQueueRoutes } from './modules/mail/mail-queue.routes';
import { auditRoutes, healthRoutes, outboxRoutes } from './modules/system/system.routes';
import { createStatusService } from './modules/system/status.service';
import { statusRoutes } from './modules/system/status.routes';
import { createVerificationService } from './modules/verification/verification.service';
import { createProposalAllocationService } from './modules/proposals/proposal-allocation.service';
import { createProposalImportService } from './modules/proposals/proposal-import.service';
import { createProposalsService } from './modules/proposals/proposals.service';
import { proposalsRoutes } from './modules/proposals/proposals.routes';
import { createRunsService } from './modules/runs/runs.service';
import { flagsRoutes } from './modules/flags/flags.routes';
import { createFlagsService } from './modules/flags/flags.service';
import { moderationAllocationRoutes } from './modules/moderations/moderation-allocation.routes';
import { createModerationAllocationService } from './modules/moderations/moderation-allocation.service';
import { coverageRoutes } from './modules/moderations/coverage.routes';
import { createCoverageService } from './modules/moderations/coverage.service';
import { outcomesRoutes } from './modules/outcomes/outcomes.routes';
import { appealsRoutes } from './modules/appeals/appeals.routes';
import { createAppealAllocationService } from './modules/appeals/appeal-allocation.service';
import { createAppealsService } from './modules/appeals/appeals.service';
import { exportsRoutes } from './modules/exports/exports.routes';
import { openDataRoutes } from './modules/open-data/open-data.routes';
import { createOpenDataService } from './modules/open-data/open-data.service';
import { createExportsService } from './modules/exports/exports.service';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { createDashboardService } from './modules/dashboard/dashboard.service';
import { createProposalScoresService } from './modules/outcomes/proposal-scores.service';
import { createReviewOutcomesService } from './modules/outcomes/review-outcomes.service';
import { createReviewsService } from './modules/reviews/reviews.service';
import { createWarmUpService, type WarmUp } from './modules/warm-up/warm-up.service';
import { createAccountExportService } from './modules/lifecycle/export.service';
import { lifecycleRoutes } from './modules/lifecycle/lifecycle.routes';
import { createLifecycleService } from './modules/lifecycle/lifecycle.service';
import { createRetentionService, type RetentionService } from './modules/lifecycle/retention.service';
import { reviewsRoutes } from './modules/reviews/reviews.routes';
import { createModerationsService } from './modules/moderations/moderations.service';
import { moderationsRoutes } from './modules/moderations/moderations.routes';
import { verificationRoutes } from './modules/verification/verification.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { createNotificationsService, type NotificationsService } from './modules/notifications/notifications.service';
import { createRemindersService, type RemindersService } from './modules/notifications/reminders.service';
import { registerAuth } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { registerIdempotency } from './plugins/idempotency';
import { registerInputGuard } from './plugins/input-guard';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerStatic } from './plugins/static';
import { registerUnknownQueryGuard } from './plugins/unknown-query';
import { registerSwagger } from './plugins/swagger';

export interface AppOptions {
  config: Config;
  db: Db;
  jwtSecret: string;
  registry?: CatalystRegistry;
  verificationProvider?: VerificationProvider;
  /** Reads proposals from a Catalyst Gateway (tests pass one that talks to a fake gateway). */
  gatewayReader?: (url: string) => Promise<ImportFile>;
  /** How often the overload check samples the event loop and heap (tests: faster). */
  overloadSampleIntervalMs?: number;
  /** pino options; tests pass `false`. */
  logger?: boolean | object;
  /** Where mails go instead of SMTP_URL (tests: a transport of their own). */
  mailTransport?: MailTransport;
}

/** Where the API lives. API_BASE only tells the web app what to call (it may be a full URL behind a proxy). */
export const API_PREFIX = '/api/reviews';

const defaultWebDist = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/**
 * Logged requests never show secrets: the Authorization header, cookies and e-mailed tokens are redacted. One line per
 * request (OneLineRequestLog), not Fastify's two.
 */
export const loggerOptions = (level: string) => ({
  level,
  redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
  serializers: {
    req: (req: { method: string; url: string; ip?: string }) => ({
      method: req.method,
      url: req.url.replace(/([?&]token=)[^&]+/g, '$1[redacted]'),
      ip: req.ip,
    }),
  },
});

/**
 * One line per request, when it is answered ("request completed" at info, "request errored" at error): the request
 * (method, URL through the `req` serializer of loggerOptions, which redacts e-mailed tokens, client address), status
 * and time in milliseconds, with the request's id. Fastify's own controller writes a second line ("incoming request")
 * per request: at the default level the two were a quarter of healthz's time (issue 30 item 6). That line is written at
 * debug here (a test waits on it to know the server holds a request).
 */
class OneLineRequestLog extends LogController {
  /** At debug only (a level check at info: nothing written, next to nothing spent). */
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * The server's logger: loggerOptions, its lines written to `dest` (standard output) in batches. pino's default writes
 * each line with a synchronous system call on the event loop, one a request; on a busy two-core host that call often
 * hands the core to another process mid-request (the proposals list under load: p99 44–51 ms against 19–23 batched, p95
 * 16 against 11–15; issue 30 item 6). Here lines collect until 4 KB or for at most 200 ms, then go in one write; what
 * is pending is written synchronously when the process exits (pino flushes such a stream on exit, after a fatal error
 * too). A `kill -9` loses at most the last 200 ms of lines (docs/decisions.md).
 */
const LOG_FLUSH_INTERVAL_MS = 200;
export const productionLogger = (level: string, dest: number | string = 1) => {
  const stream = destination({ dest, sync: false, minLength: 4096 });
  setInterval(() => stream.flush(), LOG_FLUSH_INTERVAL_MS).unref();
  return { ...loggerOptions(level), stream };
};

/** Builds the whole application; registers every module explicitly and never listens. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: options.logger ?? productionLogger(config.LOG_LEVEL),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    // A Catalyst ID (up to 500 characters, spec §3) travels URL-encoded in paths such as `admin/users/{id}`: up to
    // three characters each. Fastify's default of 100 would answer a long one 404 as if no route matched.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1600 },
    logController: new OneLineRequestLog(),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerInputGuard(app);
  registerUnknownQueryGuard(app, API_PREFIX);

  registerSecurityHeaders(app, { apiBase: API_PREFIX, https: config.secureCookies });
  registerDrain(app);
  await registerOverload(app, {
    maxEventLoopDelayMs: config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS ?? (postgresPool(db) ? 1000 : 0),
    maxHeapUsedRatio: config.OVERLOAD_MAX_HEAP_USED_RATIO,
    retryAfterSeconds: config.OVERLOAD_RETRY_AFTER_SECONDS,
    sampleIntervalMs: options.overloadSampleIntervalMs,
  });
  await app.register(cookie);
  await app.register(formbody);
  await registerSwagger(app, API_PREFIX);

  // Adapters and helpers first, then the services strictly in dependency order (each uses only those above it):
  // lookups (a leaf) → events, event config, status, dashboard → runs, verification → subscriptions, invitations →
  // user info, reviews, proposals → accounts.
  const jwt = createJwt(options.jwtSecret, config.ACCESS_TOKEN_TTL_SECONDS);
  const rateLimiter = createRateLimiter(db, config.RATE_LIMIT_WINDOW_SECONDS);
  // The mail worker delivers the queue: the server starts its polling, tests drain it.
  const mailWorker = createMailWorker({
    db,
    transport: options.mailTransport ?? (config.SMTP_URL ? createSmtpTransport(config.SMTP_URL) : null),
    from: config.MAIL_FROM,
    log: app.log,
    ratePerSecond: config.MAIL_RATE_PER_SECOND,
    leaseSeconds: config.MAIL_LEASE_SECONDS,
  });
  app.addHook('onClose', () => mailWorker.close());
  const mailer = createMailer({ wake: () => mailWorker.wake() });
  const registry = options.registry ?? createCatalystRegistry(config);
  const refreshTokens = createRefreshTokens(db, config.REFRESH_TOKEN_TTL_DAYS, {
    secret: options.jwtSecret,
    graceSeconds: config.REFRESH_GRACE_SECONDS,
  });

  const argon2 = { memoryCost: config.PASSWORD_HASH_MEMORY_KIB, timeCost: config.PASSWORD_HASH_ITERATIONS, parallelism: 1 };
  const passwords = createPasswordHasher(
    {
      concurrency: config.PASSWORD_HASH_CONCURRENCY,
      queue: config.PASSWORD_HASH_QUEUE,
      niceness: config.PASSWORD_HASH_NICENESS,
      perSource: config.PASSWORD_HASH_PER_ADDRESS,
      argon2,
    },
    app.log,
  );
  if (!meetsOwaspMinimum(argon2))
    app.log.warn(
      { memoryKib: config.PASSWORD_HASH_MEMORY_KIB, iterations: config.PASSWORD_HASH_ITERATIONS },
      'new password hashes are below OWASP’s minimum cost (PASSWORD_HASH_MEMORY_KIB × PASSWORD_HASH_ITERATIONS): for tests only',
    );
  app.addHook('onClose', () => passwords.close());
  await registerMetrics(app, {
    db,
    passwordGate: passwords.gate,
    token: config.METRICS_TOKEN,
    port: config.METRICS_PORT,
    host: config.METRICS_HOST,
  });
  const afterResponse = createAfterResponse(app.log);
  app.addHook('onClose', () => afterResponse.settled());

  // Mail goes out after the commit that queued it (the transactional outbox); tests wait for it with `settled`.
  const deliverMail = () => afterResponse.run('mail delivery', () => mailer.flush());
  const notifications = createNotificationsService({
    db,
    mailer,
    publicUrl: config.publicUrl,
    apiPrefix: API_PREFIX,
    secret: options.jwtSecret,
  });
  const reminders = createRemindersService({ db, onQueued: deliverMail, log: app.log });
  app.addHook('onClose', () => reminders.stop());

  const lookups = createLookupsService(db);
  const events = createEventsService(db);
  const eventConfig = createEventConfigService(db);
  const status = createStatusService(db);
  const dashboard = createDashboardService({ db, events, eventConfig, onError: (error) => app.log.error(error) });
  // An admin's run, import or invitation shows on the round's dashboard at once (issue 26 item 16).
  const runs = createRunsService({
    db,
    events,
    onWritten: (eventId) => {
      // What the run recorded of itself, once committed (db/read-cache: a read before the commit may have kept the old).
      eventsOrConfigsChanged();
      dashboard.eventChanged(eventId);
      deliverMail();
    },
  });
  const verification = createVerificationService({ db, provider: options.verificationProvider ?? createVerificationProvider(config) });
  const subscriptions = createSubscriptionsService({ db, events, eventConfig, verification });
  const invitations = createInvitationsService({
    db,
    events,
    eventConfig,
    verification,
    lookups,
    notifications,
    onInvited: (eventId) => {
      dashboard.eventChanged(eventId);
      deliverMail();
    },
  });
  const userInfo = createUserInfoService(db, {
    registry,
    registryRecheckMs: config.REGISTRY_RECHECK_SECONDS * 1000,
  });
  // A review answer carries its moderation fields; a moderator's lists are composed in their routes.
  const moderations = createModerationsService({ db, eventConfig });
  const reviews = createReviewsService({
    db,
    eventConfig,
    lookups,
    moderationOf: (viewer, reviewIds) => moderations.reviewModeration(viewer, reviewIds),
    moderationSight: (viewer) => moderations.moderationSight(viewer),
  });
  const proposals = createProposalsService({ db, lookups });
  const warmUp = createWarmUpService({
    db,
    events,
    proposals,
    reviews,
    prewarmBytes: config.WARM_UP_PREWARM_MB * 1048576,
    signedIn: { db, userInfo, proposals, reviews, moderations },
  });
  const imports = createProposalImportService({
    db,
    events,
    registry,
    gateway:
      options.gatewayReader ??
      createGatewayReader(
        guardedFetch({
          sourceUrl: config.PROPOSALS_SOURCE_URL,
          allowlist: config.gatewayAllowlist,
          allowPrivate: config.GATEWAY_ALLOW_PRIVATE,
        }),
      ),
    gatewayUrl: config.PROPOSALS_SOURCE_URL,
    gatewayAllowlist: config.gatewayAllowlist,
    // Once committed: the proposals' totals, and the categories the import may have added (db/read-cache).
    onChange: (eventId) => {
      proposals.proposalsChanged();
      eventsOrConfigsChanged();
      dashboard.eventChanged(eventId);
    },
  });
  const allocation = createProposalAllocationService({ runs, notifications });
  const flags = createFlagsService({ db, runs, events });
  const moderationAllocation = createModerationAllocationService({ runs, notifications });
  const coverage = createCoverageService({ db, runs, events });
  const reviewOutcomes = createReviewOutcomesService({ runs, notifications });
  const appealAllocation = createAppealAllocationService({ runs });
  const appeals = createAppealsService({ db, onDecided: (eventId) => dashboard.eventChanged(eventId) });
  const proposalScores = createProposalScoresService({ runs, appeals: appealAllocation });
  const exportsService = createExportsService({ db, pool: postgresPool(db), events });
  const openData = createOpenDataService({ db, pool: postgresPool(db), events });
  const audit = createAuditService(db);
  const mailQueue = createMailQueueService({ db, wakeWorker: () => mailWorker.wake() });
  const accounts = createAccountsService({
    db,
    afterResponse,
    mailer,
    registry,
    refreshTokens,
    rateLimiter,
    publicUrl: config.publicUrl,
    adminCatalystIds: config.adminCatalystIds,
    registrationOpen: () => eventConfig.registrationOpen(),
    limits: accountLimitsOf(config),
    passwords,
    onAccountCreated: () => userInfo.accountsChanged(),
  });
  const session = createSessionService({
    db,
    jwt,
    refreshTokens,
    rateLimiter,
    limits: guessLimitsOf(config),
    passwords,
    deviceCookies: createDeviceCookies(options.jwtSecret, config.LOGIN_DEVICE_COOKIE_DAYS),
    refusalPauseMs: config.LOGIN_REFUSAL_PAUSE_MS,
  });

  const tokens = createTokensService({ db, ratePerMinute: config.API_TOKEN_RATE_PER_MINUTE });
  // Issue 47: ban, unban and close (the user list's totals change), the person's export, and what is kept a while only.
  const lifecycle = createLifecycleService({ db, passwords, rateLimiter, onChanged: () => userInfo.accountsChanged() });
  const accountExport = createAccountExportService(db);
  const retention = createRetentionService(db, {
    mailRetentionDays: config.MAIL_RETENTION_DAYS,
    idempotencyHours: 24,
    rateLimitWindowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  });
  app.addHook('onClose', () => retention.stop());
  registerAuth(app, {
    jwt,
    apiBase: API_PREFIX,
    sessionUser: (userId, sessionId) => userInfo.sessionUser(userId, sessionId),
    apiTokens: tokens,
  });
  registerIdempotency(app, db);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { db });
      await api.register(accountsRoutes, {
        accounts,
        session,
        userInfo,
        apiBase: API_PREFIX,
        secureCookies: config.secureCookies,
        refreshTtlDays: config.REFRESH_TOKEN_TTL_DAYS,
        deviceCookieDays: config.LOGIN_DEVICE_COOKIE_DAYS,
        publicUrl: config.publicUrl,
      });
      await api.register(adminUsersRoutes, { userInfo });
      await api.register(tokensRoutes, { tokens });
      await api.register(lifecycleRoutes, { lifecycle, accountExport });
      await api.register(eventsRoutes, { events });
      await api.register(eventConfigRoutes, { eventConfig });
      await api.register(statusRoutes, { status });
      await api.register(subscriptionsRoutes, { subscriptions, invitations });
      await api.register(verificationRoutes, { verification });
      await api.register(reviewsRoutes, { reviews, reviewFiles: createReviewFilesService({ db, reviews, publicUrl: config.publicUrl }) });
      await api.register(moderationsRoutes, { moderations, reviews });
      await api.register(proposalsRoutes, {
        proposals,
        imports,
        allocation,
        importBodyLimit: config.IMPORT_BODY_LIMIT_BYTES,
      });
      await api.register(flagsRoutes, { flags });
      await api.register(moderationAllocationRoutes, { allocation: moderationAllocation });
      await api.register(coverageRoutes, { coverage });
      await api.register(outcomesRoutes, { outcomes: reviewOutcomes, scores: proposalScores });
      await api.register(appealsRoutes, { appeals, allocation: appealAllocation });
      await api.register(exportsRoutes, { exports: exportsService });
      await api.register(openDataRoutes, { openData });
      await api.register(dashboardRoutes, { dashboard });
      await api.register(auditRoutes, { audit });
      await api.register(notificationsRoutes, { notifications, publicUrl: config.publicUrl });
      await api.register(mailQueueRoutes, { mailQueue });
      if (config.MAIL_OUTBOX_API) await api.register(outboxRoutes, { db, token: config.MAIL_OUTBOX_TOKEN });
    },
    { prefix: API_PREFIX },
  );

  await registerStatic(app, { webDist: config.WEB_DIST ?? defaultWebDist, apiBase: API_PREFIX, env: config });
  app.decorate('services', {
    accounts,
    eventConfig,
    passwords,
    afterResponse,
    mailer,
    mailWorker,
    notifications,
    reminders,
    warmUp,
    retention,
  });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: {
      accounts: ReturnType<typeof createAccountsService>;
      eventConfig: ReturnType<typeof createEventConfigService>;
      passwords: PasswordHasher;
      /** Work started after an answer (tests wait for it with `settled`). */
      afterResponse: AfterResponse;
      mailer: Mailer;
      notifications: NotificationsService;
      /** Deadline reminders: the server starts their scheduler; tests call `runDueReminders(now)`. */
      reminders: RemindersService;
      /** Delivers the mail queue: the server starts it; tests call `drain()`. */
      mailWorker: MailWorker;
      /** The current rounds' common list totals, counted before the server listens (server.ts). */
      warmUp: WarmUp;
      /** Purges what is kept a while only (issue 47): the server starts it; tests call `purge()`. */
      retention: RetentionService;
    };
  }
}
