import type { AccountExport } from '@cr/contract/lifecycle';
import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import { unknownUserMessage } from '../lookups/lookups.service';
import { exportOf } from './export.repository';

const SECTION_TITLES: Record<Exclude<keyof AccountExport, 'format' | 'exported_at' | 'account'>, string> = {
  subscriptions: 'Subscriptions and levels',
  reviews: 'Reviews',
  review_versions: 'Versions of your reviews',
  moderations: 'Moderations',
  moderation_versions: 'Versions of your moderations',
  appeals: 'Appeals',
  appeal_decisions: 'Appeal decisions',
  notification_opt_outs: 'Notification e-mails turned off',
  api_tokens: 'Personal API tokens',
  mails: 'Mails sent to you',
  audit_entries: 'Audit entries about you',
};

/** A value as one line of Markdown: objects as compact JSON, text with its line breaks and table pipes escaped. */
const cell = (value: unknown): string => {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ↵ ');
};

/** The export as a document a person can read: the account as a list, each section as a list of its rows' fields. */
export function exportAsMarkdown(data: AccountExport): string {
  const lines = ['# Your data in Community Review', '', `Exported at ${data.exported_at}.`, '', '## Account', ''];
  for (const [key, value] of Object.entries(data.account)) lines.push(`- **${key}**: ${cell(value)}`);
  for (const [section, title] of Object.entries(SECTION_TITLES)) {
    const rows = data[section as keyof typeof SECTION_TITLES];
    lines.push('', `## ${title} (${rows.length})`, '');
    if (rows.length === 0) lines.push('None.');
    rows.forEach((row, index) => {
      lines.push(`### ${index + 1}.`, '');
      for (const [key, value] of Object.entries(row)) lines.push(`- **${key}**: ${cell(value)}`);
      lines.push('');
    });
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Issue 47: a person's own data (`GET users/me/export`), as JSON or as Markdown. */
export function createAccountExportService(db: Db) {
  return {
    async exportFor(userId: number): Promise<AccountExport> {
      const data = await exportOf(db, userId);
      if (!data) throw notFound(unknownUserMessage);
      return { format: 'community-review-account-export/1', exported_at: new Date().toISOString(), ...data };
    },
    asMarkdown: exportAsMarkdown,
  };
}
export type AccountExportService = ReturnType<typeof createAccountExportService>;
