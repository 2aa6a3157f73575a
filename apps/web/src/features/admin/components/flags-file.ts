import { externalFlagsFile, type ExternalFlag } from '@cr/contract/flags';

export type ReadFlags = { ok: true; flags: ExternalFlag[] } | { ok: false; error: 'notJson' | 'notFlags'; detail?: string };

/** An upload's text read as an outside tool's flags file: JSON, then the contract's `externalFlagsFile`. */
export function readFlagsFile(text: string): ReadFlags {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'notJson' };
  }
  const parsed = externalFlagsFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: 'notFlags', detail: issue ? `${issue.path.join('.') || '/'}: ${issue.message}` : '' };
  }
  return { ok: true, flags: parsed.data };
}
