import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Language } from '@cr/contract/languages';
import { outbox, users } from '../src/db/schema/index';
import messagesEs from '../src/locales/messages.es.json';
import { MAIL_STRINGS } from '../src/mail-strings/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import { loginFrom } from './login-requests';

const HOUR = 3_600_000;
const fill = (template: string, values: Record<string, string | number>) =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => String(values[name] ?? whole));

// Issue 31: mails in the recipient's language; the server's messages in the request's.
describe.each(databaseKinds)('languages over the API on %s (issue 31)', (kind) => {
  const ctx = useTestApp(kind, { PUBLIC_URL: 'http://review.test' });

  const setLanguage = async (user: TestUser, language: Language) => {
    const response = await ctx.app.inject({ method: 'PUT', url: `${API}/users/me/language/`, headers: user.auth, payload: { language } });
    expect(response.statusCode, response.body).toBe(200);
  };
  const mailsTo = async (email: string, mailKind: string) => {
    await ctx.app.services.afterResponse.settled();
    await ctx.app.services.mailWorker.drain();
    return ctx.db
      .select()
      .from(outbox)
      .where(and(eq(sql`lower(${outbox.recipient})`, email.toLowerCase()), eq(outbox.kind, mailKind)))
      .orderBy(asc(outbox.id));
  };
  const onlyMail = async (email: string, mailKind: string) => {
    const mails = await mailsTo(email, mailKind);
    expect(mails, `${mailKind} to ${email}`).toHaveLength(1);
    expect(mails[0]!.status).toBe('sent');
    return mails[0]!;
  };

  describe('mails in the recipient’s language', () => {
    it('sends the allocation, the reminder and the outcome mails in ja, es, and English for no language chosen', async () => {
      const end = new Date(Date.now() + 10 * 24 * HOUR);
      end.setUTCMilliseconds(0);
      const event = await ctx.newEvent({ config: { review_submission_enabled: true, review_submission_ends_at: end.toISOString() } });
      const proposals = await ctx.importProposals(event);
      const ja = await ctx.newReviewer(event);
      const es = await ctx.newReviewer(event);
      const none = await ctx.newReviewer(event);
      await setLanguage(ja, 'ja');
      await setLanguage(es, 'es');

      // The allocation: two proposals each.
      await ctx.allocate(event, { nr_of_proposals_lv0: 2, nr_of_proposals_lv1: 2 });
      const words = (language: Language) => MAIL_STRINGS[language].notifications;
      const jaAllocation = await onlyMail(ja.email, 'review_allocation');
      expect(jaAllocation.subject).toBe(fill(words('ja').review_allocation.subject.other, { count: 2, event: event.name }));
      expect(jaAllocation.params).toMatchObject({ language: 'ja' });
      expect(jaAllocation.textBody).toContain(MAIL_STRINGS.ja.hello);
      expect(jaAllocation.textBody).toMatch(/レビュー期間は\d{4}年\d{1,2}月\d{1,2}日（.曜日）\d\d:\d\d UTCに終了します。/);
      const esAllocation = await onlyMail(es.email, 'review_allocation');
      expect(esAllocation.subject).toBe(`2 propuestas para reseñar en ${event.name}`);
      expect(esAllocation.textBody).toContain('El periodo de reseñas se cierra el');
      const enAllocation = await onlyMail(none.email, 'review_allocation');
      expect(enAllocation.subject).toBe(`2 proposals to review in ${event.name}`);
      expect(enAllocation.params).toMatchObject({ language: null });

      // The 72-hour reminder: nobody has reviewed anything yet.
      const response = await ctx.app.inject({
        method: 'PUT',
        url: `${API}/configs/notifications/${event.id}/`,
        headers: event.admin.auth,
        payload: { record_update: { review_reminders_enabled: true, moderation_reminders_enabled: false, hours_before: [72] } },
      });
      expect(response.statusCode, response.body).toBe(200);
      await ctx.app.services.reminders.runDueReminders(new Date(end.getTime() - 71 * HOUR));
      expect((await onlyMail(ja.email, 'review_reminder')).subject).toBe(
        fill(words('ja').review_reminder.subject, { done: 0, total: 2, event: event.name }),
      );
      const esReminder = await onlyMail(es.email, 'review_reminder');
      expect(esReminder.subject).toBe(`Recordatorio: 0 de 2 propuestas reseñadas en ${event.name}`);
      expect(esReminder.textBody).toContain('0 de 2 propuestas reseñadas: quedan 2 propuestas por reseñar antes del cierre del periodo.');
      expect((await onlyMail(none.email, 'review_reminder')).subject).toBe(`Reminder: 0 of 2 proposals reviewed in ${event.name}`);

      // The outcomes: one review each.
      for (const [index, reviewer] of [ja, es, none].entries()) await ctx.newReview(reviewer, proposals[index]!);
      await ctx.configure(event, { review_submission_enabled: false });
      const results = await ctx.app.inject({
        method: 'POST',
        url: `${API}/proposal-reviews/generate-results`,
        headers: event.admin.auth,
        payload: {
          results_params: { event_id: event.id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
        },
      });
      expect(results.statusCode, results.body).toBe(200);
      const jaOutcome = await onlyMail(ja.email, 'review_outcomes');
      expect(jaOutcome.subject).toBe(fill(words('ja').review_outcomes.subject, { event: event.name }));
      expect(jaOutcome.textBody).toContain('- 提出：1件\n- 有効：1件\n- 除外：0件');
      const esOutcome = await onlyMail(es.email, 'review_outcomes');
      expect(esOutcome.subject).toBe(`Ya están disponibles los resultados de las reseñas de ${event.name}`);
      expect(esOutcome.textBody).toContain('- 1 enviada\n- 1 válida\n- 0 excluidas');
      expect((await onlyMail(none.email, 'review_outcomes')).subject).toBe(`The review outcomes of ${event.name} are out`);
    });

    it('writes the LV2 invitation and the password reset in the account’s language', async () => {
      const event = await ctx.newEvent();
      const invitee = await ctx.newUser();
      await setLanguage(invitee, 'ja');
      await ctx.invite(event, invitee);
      expect((await onlyMail(invitee.email, 'lv2_invitation')).subject).toBe(`${event.name}のモデレーションに招待されました`);

      const reset = await ctx.app.inject({
        method: 'POST',
        url: `${API}/users/password/reset-request`,
        payload: { new_user: { catalyst_id: invitee.catalystId } },
      });
      expect(reset.statusCode, reset.body).toBeLessThan(300);
      expect((await ctx.lastMail(invitee.email))?.subject).toBe(MAIL_STRINGS.ja.account.password_reset.subject);
    });

    it('writes the activation mail of a registration in the language of its Accept-Language, English without one', async () => {
      const register = (headers: Record<string, string>) => {
        const body = ctx.registration();
        return ctx.app
          .inject({ method: 'POST', url: `${API}/users/`, headers, payload: { new_user: body } })
          .then((response) => ({ response, email: body.email }));
      };
      const spanish = await register({ 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' });
      expect(spanish.response.statusCode, spanish.response.body).toBe(201);
      expect((await ctx.lastMail(spanish.email))?.subject).toBe('Activar la cuenta de Community Review');
      const english = await register({});
      expect((await ctx.lastMail(english.email))?.subject).toBe('Activate your Community Review account');
      // The account keeps no language until the person chooses one.
      const { id } = await ctx.userIdOf(spanish.email);
      const [row] = await ctx.db.select({ language: users.language }).from(users).where(eq(users.id, id));
      expect(row!.language).toBeNull();
    });
  });

  describe('messages in the request’s language', () => {
    it('answers a wrong password (401) in ja, es, and English without the header', async () => {
      const user = await ctx.newUser();
      const login = (language?: string) =>
        ctx.app.inject({
          method: 'POST',
          url: `${API}/users/token/login`,
          payload: new URLSearchParams({ username: user.catalystId, password: 'Wrong-pass1' }).toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(language ? { 'accept-language': language } : {}) },
          remoteAddress: `10.31.0.${Math.floor(Math.random() * 200) + 1}`,
        });
      const ja = await login('ja');
      expect(ja.statusCode).toBe(401);
      expect(ja.json()).toEqual({ message: 'Catalyst IDまたはパスワードが正しくありません。' });
      expect(ja.headers['content-language']).toBe('ja');
      expect((await login('es-ES,es;q=0.9')).json()).toEqual({ message: 'Catalyst ID o contraseña incorrectos.' });
      const english = await login();
      expect(english.body).toBe('{"message":"Incorrect Catalyst ID or password."}');
      expect(english.headers['content-language']).toBeUndefined();
      expect((await login('fr-FR,de;q=0.8')).json()).toEqual({ message: 'Incorrect Catalyst ID or password.' });
      expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.31.1.1')).json()).toEqual({
        message: 'Incorrect Catalyst ID or password.',
      });
    });

    it('answers a duplicate event name (409) in the request’s language', async () => {
      const event = await ctx.newEvent();
      const post = (language?: string) =>
        ctx.app.inject({
          method: 'POST',
          url: `${API}/events/`,
          headers: { ...event.admin.auth, ...(language ? { 'accept-language': language } : {}) },
          payload: { new_event: { name: event.name, description: 'Again.' } },
        });
      const ja = await post('ja');
      expect(ja.statusCode, ja.body).toBe(409);
      expect(ja.json()).toEqual({ message: 'この名前のイベントはすでに存在します。' });
      expect((await post('es')).json()).toEqual({ message: 'Ya existe un evento con este nombre.' });
      expect((await post()).json()).toEqual({ message: 'An event with this name already exists.' });
    });

    it('answers validation errors (422) in the request’s language: schema messages and the server’s own', async () => {
      const { email: _email, ...withoutEmail } = ctx.registration();
      const register = (language?: string) =>
        ctx.app.inject({
          method: 'POST',
          url: `${API}/users/`,
          headers: language ? { 'accept-language': language } : {},
          payload: { new_user: { ...withoutEmail, catalyst_id: 'x' } },
        });
      expect((await register()).json().detail).toEqual([
        {
          loc: ['body', 'new_user', 'catalyst_id'],
          msg: 'Please enter a valid Catalyst ID (for example id.catalyst://cardano/…).',
          type: 'custom',
        },
        { loc: ['body', 'new_user', 'email'], msg: 'Email is required.', type: 'invalid_type' },
      ]);
      expect((await register('ja')).json().detail.map((item: { msg: string }) => item.msg)).toEqual([
        '有効なCatalyst IDを入力してください（例：id.catalyst://cardano/…）。',
        'メールアドレスは必須です。',
      ]);
      expect((await register('es')).json().detail.map((item: { msg: string }) => item.msg)).toEqual([
        'Introducir un Catalyst ID válido (por ejemplo id.catalyst://cardano/…).',
        'Correo electrónico: campo obligatorio.',
      ]);

      const registration = (language?: string) =>
        ctx.app.inject({
          method: 'POST',
          url: `${API}/users/`,
          headers: language ? { 'accept-language': language } : {},
          payload: { new_user: { ...ctx.registration(), email: 'not an address' } },
        });
      expect((await registration('ja')).json().detail).toContainEqual(
        expect.objectContaining({ msg: '有効なメールアドレスを入力してください。' }),
      );
      expect((await registration()).json().detail).toContainEqual(expect.objectContaining({ msg: 'Please enter a valid email address.' }));

      // A 422 the server writes itself (an unknown query parameter).
      const unknown = (language?: string) =>
        ctx.app.inject({ method: 'GET', url: `${API}/events/?bogus=1`, headers: language ? { 'accept-language': language } : {} });
      expect((await unknown('ja')).json().detail[0].msg).toBe('不明なクエリパラメーター「bogus」です。');
      expect((await unknown('es')).json().detail[0].msg).toBe("Parámetro de consulta desconocido 'bogus'.");
      expect((await unknown()).json().detail[0].msg).toBe("Unknown query parameter 'bogus'.");
    });

    it('answers an unknown API address (404) and a missing login (401) in the request’s language', async () => {
      const missing = await ctx.app.inject({ method: 'GET', url: `${API}/no-such-thing`, headers: { 'accept-language': 'ja' } });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: '見つかりません。' });
      const anonymous = (language?: string) =>
        ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: language ? { 'accept-language': language } : {} });
      const english = await anonymous();
      expect(english.statusCode).toBe(401);
      const spanish = await anonymous('es');
      expect(spanish.statusCode).toBe(401);
      expect(spanish.json()).toEqual({ message: (messagesEs as Record<string, string>)[english.json().message] });
    });
  });
});
