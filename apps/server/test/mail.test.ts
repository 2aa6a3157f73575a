import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailTemplates } from '../src/adapters/mail';
import { outbox } from '../src/db/schema/index';
import { databaseKinds, useTestApp } from './build-test-app';

describe('mail templates', () => {
  it('build plain-text and HTML messages around the link, escaping the HTML', () => {
    const link = 'http://app.test/reset-password?token=a&b="c"';
    const message = mailTemplates.passwordReset('someone@example.test', link);
    expect(message).toMatchObject({
      to: 'someone@example.test',
      kind: 'password_reset',
      subject: 'Reset your Community Review password',
      link,
    });
    expect(message.text).toContain(`Choose a new password: ${link}`);
    expect(message.html).toContain('href="http://app.test/reset-password?token=a&amp;b=&quot;c&quot;"');
    expect(message.html).not.toContain('"c"');
  });

  it.each([
    ['activation', mailTemplates.activation, 'Activate your Community Review account', '48 hours'],
    ['email_verification', mailTemplates.emailVerification, 'Verify your e-mail address', '48 hours'],
    ['password_reset', mailTemplates.passwordReset, 'Reset your Community Review password', '1 hour'],
  ] as const)('has a subject and the link lifetime for %s', (kind, template, subject, lifetime) => {
    const message = template('a@example.test', 'http://app.test/x?token=t');
    expect(message.kind).toBe(kind);
    expect(message.subject).toBe(subject);
    expect(message.text).toContain(lifetime);
    expect(message.html).toContain(lifetime);
  });
});

describe.each(databaseKinds)('mail delivery over SMTP on %s', (kind) => {
  // Nothing listens on port 1 of the loopback address: delivery fails at once with ECONNREFUSED.
  const smtp = useTestApp(kind, { SMTP_URL: 'smtp://127.0.0.1:1' });

  it('still registers when SMTP delivery fails, and keeps the message queued for a later attempt with its error', async () => {
    const user = await smtp.register();
    await smtp.app.services.mailWorker.drain();
    const mail = await smtp.lastMail(user.email);
    expect(mail?.kind).toBe('activation');
    expect(mail).toMatchObject({ status: 'queued', attempts: 1, sentAt: null });
    expect(mail?.error).toMatch(/ECONNREFUSED|connect/i);
    expect(mail!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    const [row] = await smtp.db.select().from(outbox).where(eq(outbox.id, mail!.id));
    expect(row?.recipient).toBe(user.email);
  });
});
