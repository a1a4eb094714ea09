/**
 * Lists a source serves page by page (ord's runes, UniSat's block events), each page cached on its
 * own: a walk that finds its pages do not fit together reads them again, together.
 */
import type { UpstreamError } from '../errors.js';

/** A list's pages that do not fit together: read at different times, or a source's error. */
export class PagesDisagree extends Error {}

/**
 * A list read page by page through the cache, and once more past it (`fresh`) when its pages
 * disagree: each page is cached on its own, so pages read before and after the list changed (a new
 * etching moves every rune down ord's pages) can meet in one answer. Pages that still disagree
 * when read together are the source's error, `disagree()`.
 */
export async function consistentPages<T>(read: (fresh: boolean) => Promise<T>, disagree: () => UpstreamError): Promise<T> {
  try {
    return await read(false);
  } catch (error) {
    if (!(error instanceof PagesDisagree)) throw error;
  }
  try {
    return await read(true);
  } catch (error) {
    throw error instanceof PagesDisagree ? disagree() : error;
  }
}
