import { RequestStats } from '../http/request-stats.js';
import type { CallStats, UsedAnswers } from '../upstream/request.js';

/**
 * A served request's stats: what http/request-stats.ts counts, and the upstream answers its result
 * rests on, noted by the upstream layer while the response cache (response-cache.ts) asks for them.
 */
export class ServedStats extends RequestStats implements CallStats {
  used: UsedAnswers | undefined;
}
