import type { RenderedMail } from '../../adapters/mail';

/** What a template knows of the queued row besides its params. */
export interface QueuedMail {
  id: number;
  recipient: string;
  kind: string;
  userId: number | null;
  eventId: number | null;
  dedupeKey: string | null;
  createdAt: Date;
}

export type MailTemplate = (params: Record<string, unknown>, row: QueuedMail) => RenderedMail | Promise<RenderedMail>;

const templates = new Map<string, MailTemplate>();

/**
 * Registers how mails of `kind` queued with `params` only (and no subject) are rendered when the worker delivers
 * them: bulk notifications are queued by `INSERT … SELECT` with their parameters, and rendered one by one on their
 * way out (issue 27). The rendered subject, text, HTML, link and headers are stored on the row. A worker claims
 * such rows only for the kinds registered in its process, so an instance that does not know a kind yet (a rolling
 * deploy) leaves them to one that does. A template that throws fails the mail for good, with the error as reason.
 */
export function registerMailTemplate(kind: string, render: MailTemplate): void {
  templates.set(kind, render);
}

export const mailTemplateOf = (kind: string): MailTemplate | undefined => templates.get(kind);

/** The kinds this process can render. */
export const renderableKinds = (): string[] => [...templates.keys()];
