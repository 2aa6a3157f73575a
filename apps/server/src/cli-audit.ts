import { sql } from 'drizzle-orm';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliDeps } from './cli-deps';
import { readAuditHeads, verifyAuditChain } from './modules/system/audit.repository';

/**
 * `audit verify [--head=<hash>]` (issue 48 item 3; docs/security.md "The audit hash chain"): walks the audit log's
 * hash chain in id order and names the first broken link (exit code 1), or prints the head and how many entries it
 * checked (exit code 0). `--head` also checks that a head published earlier (e.g. in a round's announcement) is in
 * the chain: an operator who rewrote the log since cannot make both hold. `audit head [--event=<id>]` prints the head
 * to publish. Never throws; answers the exit code.
 */
export async function runAuditCommand(args: string[], deps: CliDeps): Promise<number> {
  const [sub, ...rest] = args;
  const published = rest.map((word) => /^--head=([0-9a-f]{64})$/.exec(word)?.[1]);
  const event = rest.map((word) => /^--event=(\d+)$/.exec(word)?.[1]);
  const usable =
    (sub === 'verify' && published.every((value) => value !== undefined) && rest.length <= 1) ||
    (sub === 'head' && event.every((value) => value !== undefined) && rest.length <= 1);
  if (!usable) {
    deps.err('audit takes: verify [--head=<64 hex characters>] | head [--event=<id>], e.g. npm run cli -- audit verify');
    return EXIT_USAGE;
  }
  let opened: Awaited<ReturnType<CliDeps['open']>> | undefined;
  try {
    opened = await deps.open();
    await opened.database.migrate();
    const { db } = opened.database;
    if (sub === 'head') {
      const chain = event[0] === undefined ? 0 : Number(event[0]);
      const head = (await readAuditHeads(db)).find((row) => row.chain === chain);
      if (!head) {
        deps.err(chain === 0 ? 'The audit log has no chained entry yet.' : `Event ${chain} has no chained audit entry.`);
        return EXIT_FAILED;
      }
      deps.out(`${head.hash} (entry ${head.entryId}${chain === 0 ? '' : `, event ${chain}`})`);
      return EXIT_OK;
    }
    const started = Date.now();
    const report = await verifyAuditChain(db);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (!report.verified) {
      deps.err(`The audit chain is broken at entry ${report.broken!.entryId}: ${report.broken!.reason}.`);
      return EXIT_FAILED;
    }
    if (published[0] !== undefined) {
      // A scan of one text column without an index: an operator's occasional check.
      const known = await db.execute(sql`select id from audit_log where hash = ${published[0]} limit 1`);
      const rows = Array.isArray(known) ? known : ((known as { rows?: unknown[] }).rows ?? []);
      if (rows.length === 0) {
        deps.err(
          `The audit chain verifies, but the published head ${published[0]} is not in it: the log was rewritten after it was published.`,
        );
        return EXIT_FAILED;
      }
    }
    const legacy = report.legacy > 0 ? ` (${report.legacy} earlier entries predate the chain and are not covered)` : '';
    const redacted =
      report.redacted > 0 ? `; ${report.redacted} had personal words erased when an account closed (linked, data not checked)` : '';
    deps.out(
      report.head
        ? `The audit chain verifies: ${report.entries} entries${legacy}${redacted}, head ${report.head.hash} (entry ${report.head.id}), in ${seconds} s.`
        : `The audit log has no chained entry yet${legacy}.`,
    );
    return EXIT_OK;
  } catch (error) {
    deps.err(`The command failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  } finally {
    await opened?.database.close();
  }
}
