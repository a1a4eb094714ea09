/** What every data source's client is built from: the configuration, and what createUpstreams shares. */
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { UpstreamEvents } from '../observe/metrics.js';
import type { SharedWithSources } from '../upstream/sourced.js';

export interface SourceDeps extends SharedWithSources {
  config: Config;
  logger: Logger;
  events?: UpstreamEvents;
}
