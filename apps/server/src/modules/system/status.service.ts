import sanitizeHtml from 'sanitize-html';
import type { StatusMessage, StatusMessageInput } from '@cr/contract/events';
import type { Db } from '../../db/client';
import * as records from '../../db/config-records';
import { recordAudit } from './audit.service';

/** Status-message HTML keeps formatting and links, never scripts, handlers or styles (spec §3: HTML allowed). */
export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['a', 'b', 'strong', 'i', 'em', 'u', 's', 'br', 'p', 'span', 'code', 'ul', 'ol', 'li'],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
  }).trim();
}

/** The site-wide status messages (spec §7 `configs/status/`): one configuration record without an event. */
export function createStatusService(db: Db) {
  return {
    async status(options: { activeOnly?: boolean } = {}) {
      const row = await records.findConfig(db, 'status', null);
      const messages = ((row?.value as { messages?: StatusMessage[] } | undefined)?.messages ?? []).filter(
        (message) => !options.activeOnly || message.is_active,
      );
      return { row_id: row?.id ?? 0, id: 'status', value: { messages } };
    },

    /** Replaces the list of status messages; new ones get the next row ids, HTML is sanitised before it is stored. */
    async putStatus(actorUserId: number, input: StatusMessageInput[]) {
      return db.transaction(async (tx) => {
        const before = await records.lockConfig(tx, 'status', null, { messages: [] });
        const previous = (before.value as { messages?: StatusMessage[] }).messages ?? [];
        let next = Math.max(0, ...previous.map((message) => message.row_id)) + 1;
        const used = new Set<number>();
        const messages: StatusMessage[] = input.map((message) => {
          const keep = message.row_id !== undefined && previous.some((old) => old.row_id === message.row_id) && !used.has(message.row_id);
          const rowId = keep ? message.row_id! : next++;
          used.add(rowId);
          return {
            row_id: rowId,
            // Markup that sanitises to nothing (a lone script) is kept as visible, harmless text.
            message:
              sanitizeMessageHtml(message.message) || sanitizeHtml(message.message, { allowedTags: [], disallowedTagsMode: 'escape' }),
            severity: message.severity,
            is_active: message.is_active ?? true,
            action_text: message.action_text ?? null,
            action_url: message.action_url ?? null,
          };
        });
        const row = await records.updateConfig(tx, before.id, { messages });
        await recordAudit(tx, {
          actorUserId,
          action: 'config.status.update',
          entity: 'config:status',
          entityId: null,
          eventId: null,
          before: { messages: previous },
          after: { messages },
        });
        return { row_id: row.id, id: 'status', value: { messages } };
      });
    },
  };
}
export type StatusService = ReturnType<typeof createStatusService>;
