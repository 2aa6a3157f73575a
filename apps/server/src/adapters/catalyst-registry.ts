import { displayCatalystId } from '@cr/contract/rules';
import { RegistrationStatus } from '@cr/contract/users';

/** On-chain registration status of a Catalyst ID (spec §4 "Registration (on-chain) status"; DOMAIN.md). */
export interface CatalystRegistry {
  registrationStatus(catalystId: string): Promise<number>;
}

/** Default: every Catalyst ID counts as persistently registered. */
export const localRegistry: CatalystRegistry = {
  registrationStatus: async () => RegistrationStatus.persistent,
};

/**
 * A Catalyst Gateway's RBAC registration endpoint (`GET /api/v1/rbac/registration?lookup=`): 404 → not found, a
 * chain with a persistent transaction → persistent, with only a volatile one → volatile. When the gateway can't be
 * reached the status stays initialized, to be looked up again later.
 */
export function gatewayRegistry(baseUrl: string, fetchImpl: typeof fetch = fetch): CatalystRegistry {
  return {
    async registrationStatus(catalystId) {
      const url = new URL('/api/v1/rbac/registration', baseUrl);
      // The gateway looks up the URI form (`id.catalyst://…`); we store IDs without the scheme.
      url.searchParams.set('lookup', displayCatalystId(catalystId));
      try {
        const response = await fetchImpl(url, { signal: AbortSignal.timeout(5000) });
        if (response.status === 404) return RegistrationStatus.not_found;
        if (!response.ok) return RegistrationStatus.initialized;
        const chain = (await response.json()) as { last_persistent_txn?: string | null; last_volatile_txn?: string | null };
        if (chain.last_persistent_txn) return RegistrationStatus.persistent;
        if (chain.last_volatile_txn) return RegistrationStatus.volatile;
        return RegistrationStatus.not_found;
      } catch {
        return RegistrationStatus.initialized;
      }
    },
  };
}

export function createCatalystRegistry(config: {
  CATALYST_REGISTRY: 'local' | 'gateway';
  CATALYST_GATEWAY_URL?: string | undefined;
}): CatalystRegistry {
  return config.CATALYST_REGISTRY === 'gateway' && config.CATALYST_GATEWAY_URL
    ? gatewayRegistry(config.CATALYST_GATEWAY_URL)
    : localRegistry;
}
