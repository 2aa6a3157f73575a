import {
  REVIEW_FILE_FORMAT,
  REVIEW_FILE_VERSION,
  reviewFileMessages,
  type ReviewFile,
  type ReviewFileEntry,
  type ReviewFileResult,
} from '@cr/contract/review-files';
import { reviewFields, type ReviewFields } from '@cr/contract/reviews';
import { renderValidationMessage } from '@cr/contract/messages';
import type { Db } from '../../db/client';
import { AppError, fieldLabel, ValidationFailure } from '../../errors';
import type { AuthUser } from '../../domain/auth-user';
import { allocatedForFile, type AllocatedForFile } from './review-files.repository';
import type { ReviewsService } from './reviews.service';

/** The review's six fields, as the contract's form schema names them. */
const FIELDS = Object.keys(reviewFields.shape) as (keyof ReviewFields)[];

/** Review writes of one upload run at a time (the database pool's connections serve them side by side). */
const WRITERS = 4;

const isEmpty = (entry: ReviewFileEntry) =>
  FIELDS.every((field) => (field.endsWith('_note') ? !String(entry[field] ?? '').trim() : entry[field] === null));

const contentOf = (row: AllocatedForFile): ReviewFields => ({
  impact_alignment_rating_given: row.impact_alignment_rating_given ?? 0,
  impact_alignment_note: row.impact_alignment_note ?? '',
  feasibility_rating_given: row.feasibility_rating_given ?? 0,
  feasibility_note: row.feasibility_note ?? '',
  auditability_rating_given: row.auditability_rating_given ?? 0,
  auditability_note: row.auditability_note ?? '',
});

/**
 * Offline review files (issue 29 item 2): the caller's allocation as a file (JSON to fill in, Markdown to read), and
 * the filled file back — checked entry by entry with the review form's rules, planned (create, update, unchanged,
 * skipped, conflict) against the reviews as they are now, then written through the reviews service (its rules: the
 * window, the allocation, a conflict of interest). A review changed online since the file was made (its version is
 * not the file's) is never overwritten: it is reported as a conflict.
 */
export function createReviewFilesService(deps: { db: Db; reviews: ReviewsService; publicUrl: string }) {
  const { db, reviews } = deps;

  async function download(user: AuthUser): Promise<ReviewFile> {
    const rows = await allocatedForFile(db, user.id);
    return {
      format: REVIEW_FILE_FORMAT,
      version: REVIEW_FILE_VERSION,
      generated_at: new Date().toISOString(),
      reviews: rows.map((row) => ({
        proposal_id: row.proposal_id,
        proposal_title: row.title,
        proposal_url: `${deps.publicUrl}/proposal/${row.proposal_id}`,
        summary: row.summary,
        review_id: row.review_id,
        base_version: row.review_id === null ? null : (row.version ?? 1),
        impact_alignment_rating_given: row.impact_alignment_rating_given,
        impact_alignment_note: row.impact_alignment_note ?? '',
        feasibility_rating_given: row.feasibility_rating_given,
        feasibility_note: row.feasibility_note ?? '',
        auditability_rating_given: row.auditability_rating_given,
        auditability_note: row.auditability_note ?? '',
      })),
    };
  }

  function markdown(file: ReviewFile): string {
    const lines = [
      '# My allocated proposals',
      '',
      `Made ${file.generated_at}. Fill in the JSON file of the same download and upload it on *My proposals*.`,
      '',
    ];
    for (const entry of file.reviews) {
      lines.push(`## ${entry.proposal_title ?? `Proposal ${entry.proposal_id}`}`, '', `<${entry.proposal_url}>`, '');
      if (entry.summary) lines.push(entry.summary, '');
      lines.push(entry.review_id ? `Your review (version ${entry.base_version}):` : 'Not reviewed yet.', '');
      for (const [label, rating, note] of [
        ['Impact alignment', entry.impact_alignment_rating_given, entry.impact_alignment_note],
        ['Feasibility', entry.feasibility_rating_given, entry.feasibility_note],
        ['Auditability (value for money)', entry.auditability_rating_given, entry.auditability_note],
      ] as const) {
        lines.push(`- **${label}**: ${rating ?? '—'} / 5`, note ? `  ${note.replace(/\n/g, '\n  ')}` : '');
      }
      lines.push('');
    }
    return lines.join('\n');
  }

  async function upload(user: AuthUser, file: ReviewFile, dryRun: boolean): Promise<ReviewFileResult> {
    const current = new Map((await allocatedForFile(db, user.id)).map((row) => [row.proposal_id, row]));
    const result: ReviewFileResult = {
      dry_run: dryRun,
      created: [],
      updated: [],
      unchanged: [],
      skipped: [],
      conflicts: [],
      errors: [],
      refused: [],
    };
    const writes: {
      kind: 'create' | 'update';
      index: number;
      proposalId: number;
      title: string;
      reviewId: number | null;
      fields: ReviewFields;
    }[] = [];
    file.reviews.forEach((entry, index) => {
      const row = current.get(entry.proposal_id);
      const title = row?.title ?? entry.proposal_title ?? `Proposal ${entry.proposal_id}`;
      const named = { proposal_id: entry.proposal_id, proposal_title: title };
      if (isEmpty(entry)) return void result.skipped.push(named);
      if (!row) return void result.errors.push({ ...named, field: 'proposal_id', message: reviewFileMessages.notAllocated });
      const parsed = reviewFields.safeParse(entry);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const field = String(issue.path[0] ?? 'review');
          result.errors.push({ ...named, field, message: renderValidationMessage(issue.message, fieldLabel([field])) });
        }
        return;
      }
      if (row.review_id === null) {
        if (entry.review_id !== null) return void result.conflicts.push({ ...named, message: reviewFileMessages.deletedOnline });
        return void writes.push({ kind: 'create', index, proposalId: row.proposal_id, title, reviewId: null, fields: parsed.data });
      }
      if (entry.review_id === null) return void result.conflicts.push({ ...named, message: reviewFileMessages.existsOnline });
      const version = row.version ?? 1;
      if (entry.review_id !== row.review_id || entry.base_version !== version) {
        return void result.conflicts.push({ ...named, message: reviewFileMessages.changedOnline(version, entry.base_version) });
      }
      const before = contentOf(row);
      if (FIELDS.every((field) => before[field] === parsed.data[field])) return void result.unchanged.push(named);
      writes.push({ kind: 'update', index, proposalId: row.proposal_id, title, reviewId: row.review_id, fields: parsed.data });
    });

    if (!dryRun && result.errors.length > 0) {
      throw new ValidationFailure(
        result.errors.map((error) => ({
          loc: ['body', 'review_file', 'reviews', file.reviews.findIndex((entry) => entry.proposal_id === error.proposal_id), error.field],
          msg: `${error.proposal_title} — ${error.message}`,
          type: 'review_file',
        })),
      );
    }
    if (dryRun) {
      for (const write of writes) {
        const named = { proposal_id: write.proposalId, proposal_title: write.title };
        if (write.kind === 'create') result.created.push({ ...named, review_id: null });
        else result.updated.push({ ...named, review_id: write.reviewId! });
      }
      return result;
    }
    // Each review is its own write (the reviews service's rules and version), WRITERS at a time: they touch
    // different reviews. The answer lists them in the file's order.
    const outcomes: (() => void)[] = new Array(writes.length);
    let next = 0;
    const writer = async () => {
      while (next < writes.length) {
        const at = next++;
        const write = writes[at]!;
        const named = { proposal_id: write.proposalId, proposal_title: write.title };
        try {
          if (write.kind === 'create') {
            const review = await reviews.create(user, { ...write.fields, proposal_id: write.proposalId });
            outcomes[at] = () => result.created.push({ ...named, review_id: review.row_id });
          } else {
            await reviews.update(user, write.reviewId!, write.fields);
            outcomes[at] = () => result.updated.push({ ...named, review_id: write.reviewId! });
          }
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          outcomes[at] = () => result.refused.push({ ...named, message: error.message });
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, writer));
    for (const outcome of outcomes) outcome();
    return result;
  }

  return { download, markdown, upload };
}
export type ReviewFilesService = ReturnType<typeof createReviewFilesService>;
