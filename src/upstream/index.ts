import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { ServiceName } from '../errors.js';
import { UpstreamService } from './http.js';
import { createMetadataClient } from './metadata.js';
import { createOrdinalsClient } from './ordinals.js';
import { createPlatformClient } from './platform.js';
import { createRunesClient } from './runes.js';

/** One pool per upstream service, created at start and closed on shutdown. */
export function createUpstreams(config: Config, logger: Logger) {
  const service = (name: ServiceName, baseUrl: URL) =>
    new UpstreamService({
      name,
      baseUrl,
      // The platform takes its key in the path: HIRO_API_KEY goes to the hiro services only.
      apiKey: name === 'platform' ? undefined : config.hiroApiKey,
      timeoutMs: config.upstreamTimeoutMs,
      logger,
    });
  const services = [
    service('metadata', config.metadataUrl),
    service('ordinals', config.ordinalsUrl),
    service('runes', config.runesUrl),
    service('platform', config.platformUrl),
  ] as const;
  const [metadata, ordinals, runes, platform] = services;
  return {
    metadata: createMetadataClient(metadata),
    ordinals: createOrdinalsClient(ordinals),
    runes: createRunesClient(runes),
    platform: createPlatformClient(platform),
    async close() {
      await Promise.all(services.map((s) => s.close()));
    },
  };
}
export type Upstreams = ReturnType<typeof createUpstreams>;
