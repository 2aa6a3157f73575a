import { categoryTitleOfTemplate, importFile, type ParsedImportFile } from '@cr/contract/proposals';

/** `content` is the file's JSON as it is (the server validates it again), `categories` its category titles. */
export type ReadImportFile =
  { ok: true; content: unknown; categories: string[] } | { ok: false; error: 'notJson' | 'notProposals'; detail?: string };

/**
 * The category titles an upload file's proposals fall into (the titles the import's categories option takes): the
 * file's named categories, and for a template whose category the file doesn't name, the template's own title, as
 * the server reads them. Sorted, each title once regardless of case.
 */
export function categoryTitlesOf(file: ParsedImportFile): string[] {
  const titles = new Map<string, string>();
  const add = (title: string | null | undefined) => {
    const trimmed = title?.trim();
    if (trimmed && !titles.has(trimmed.toLowerCase())) titles.set(trimmed.toLowerCase(), trimmed);
  };
  const named = file.categories;
  Object.values(named).forEach(add);
  for (const template of Object.values(file.templates)) {
    if (template.category && !named[template.category]) add(categoryTitleOfTemplate(template.schema));
  }
  return [...titles.values()].sort((a, b) => a.localeCompare(b));
}

/**
 * An upload's text read as a proposals file: JSON, then the shape of `importFile`. The server checks it again; this
 * catches the wrong file before it travels and finds the categories to offer.
 */
export function readImportFile(text: string): ReadImportFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'notJson' };
  }
  const parsed = importFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: 'notProposals', detail: issue ? `${issue.path.join('.') || '/'}: ${issue.message}` : undefined };
  }
  return { ok: true, content: json, categories: categoryTitlesOf(parsed.data) };
}
