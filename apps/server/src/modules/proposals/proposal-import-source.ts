import { importFile, type ImportFile, type ImportOptions, type ParsedImportFile } from '@cr/contract/proposals';
import { GatewayError } from '../../adapters/catalyst-gateway';
import { AppError, badRequest, ValidationFailure } from '../../errors';
import { hostPermitted } from '../../lib/outbound';
import { sampleImportFile } from './sample';

export const importSourceMessages = {
  noGateway: 'No Catalyst Gateway is configured: set PROPOSALS_SOURCE_URL or give a gateway URL.',
  gatewayNotAllowed: 'This gateway is not allowed: the server imports only from PROPOSALS_SOURCE_URL and the hosts in GATEWAY_ALLOWLIST.',
};

/** Reads documents from a Catalyst Gateway into the upload format (adapters/catalyst-gateway). */
export type GatewaySource = (url: string, options: { categories: string[] }) => Promise<ImportFile>;

/** Where a gateway import may read from. */
export interface GatewaySettings {
  gateway?: GatewaySource | undefined;
  /** PROPOSALS_SOURCE_URL: the gateway used when the admin names none. */
  gatewayUrl?: string | undefined;
  /** GATEWAY_ALLOWLIST: the hosts besides PROPOSALS_SOURCE_URL's that an admin may import from (lib/outbound). */
  gatewayAllowlist?: string[];
}

/**
 * The import file of the chosen source (spec §3 "Import options"): the demo sample, the upload, or what a permitted
 * gateway answers for the chosen categories; checked against the contract's file schema, each issue a 422 item.
 */
export async function loadImportFile(settings: GatewaySettings, options: ImportOptions, categories: string[]): Promise<ParsedImportFile> {
  let content: unknown = options.file;
  if (options.source === 'sample') content = sampleImportFile();
  if (options.source === 'gateway') content = await readGateway(settings, options.gateway_url, categories);
  const parsed = importFile.safeParse(content);
  if (!parsed.success) {
    throw new ValidationFailure(
      parsed.error.issues.slice(0, 50).map((issue) => ({
        loc: ['body', 'import_options', 'file', ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
        msg: issue.message,
        type: issue.code,
      })),
    );
  }
  return parsed.data;
}

async function readGateway(settings: GatewaySettings, chosenUrl: string | undefined, categories: string[]): Promise<unknown> {
  const url = chosenUrl ?? settings.gatewayUrl;
  if (!url || !settings.gateway) throw badRequest(importSourceMessages.noGateway);
  if (!hostPermitted(new URL(url), { sourceUrl: settings.gatewayUrl, allowlist: settings.gatewayAllowlist ?? [] })) {
    throw new ValidationFailure([
      { loc: ['body', 'import_options', 'gateway_url'], msg: importSourceMessages.gatewayNotAllowed, type: 'not_allowed' },
    ]);
  }
  try {
    return await settings.gateway(url, { categories });
  } catch (error) {
    if (error instanceof GatewayError) throw new AppError(502, error.message);
    throw error;
  }
}
