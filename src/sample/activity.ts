// Activity on the sample upstream: new etchings prepended to the runes list and mints of one BRC-20
// token, so the demo is alive and tests can change the data between two requests. The ordinals and
// runes ETags are derived from the current data, so they change exactly when it does.
import {
  ETCHING_COUNT,
  findBrc20Token,
  findEtching,
  makeEtching,
  ORDINALS_ETAG,
  sampleData,
  SELF_MINT_TICKER,
  type Brc20TokenDetails,
  type Etching,
} from './data.js';
import { formatUnits } from './util.js';

/** The token the activity mints: partially minted, with a mint limit. */
export const MINTING_TICKER = SELF_MINT_TICKER;

export interface SampleActivity {
  /** Newest first, as `GET /runes/v1/etchings` lists them. */
  etchings(): readonly Etching[];
  /** MAX(number) + 1, as the upstream reports it. */
  etchingsTotal(): number;
  findEtching(etching: string): Etching | undefined;
  /** The block hash of the newest etching's block: the indexer's chain tip. */
  runesEtag(): string;
  brc20Tokens(): readonly Brc20TokenDetails[];
  findBrc20Token(ticker: string): Brc20TokenDetails | undefined;
  /** The newest inscription location time, in seconds. */
  ordinalsEtag(): string;
  /** Etches `count` new runes, each in its own new block on top of the chain; answers them, newest first. */
  etch(count?: number): Etching[];
  /** One mint of `ticker` (its mint limit, up to the max supply) in a new block; answers the new details. */
  mint(ticker?: string): Brc20TokenDetails;
  /** Back to the initial data. */
  reset(): void;
  /** Every `intervalMs`, one new etching and one mint (the demo). Answers the function that stops it. */
  simulate(intervalMs: number): () => void;
}

const BLOCK_MS = 600_000;

export function createActivity(): SampleActivity {
  let etchings: Etching[] = [...sampleData.etchings];
  let names = new Set(etchings.map((e) => e.name));
  /** Tokens whose data changed, by lowercase ticker. */
  let minted = new Map<string, Brc20TokenDetails>();
  let ordinalsTipMs = Number(ORDINALS_ETAG) * 1000;
  const total = () => Math.max(...etchings.map((e) => e.number)) + 1;
  const token = (ticker: string) => minted.get(ticker.toLowerCase()) ?? findBrc20Token(ticker);

  const activity: SampleActivity = {
    etchings: () => etchings,
    etchingsTotal: total,
    findEtching: (etching) => findEtching(etching, etchings),
    runesEtag: () => etchings[0]!.location.block_hash,
    brc20Tokens: () => sampleData.brc20Tokens.map((t) => minted.get(t.token.ticker.toLowerCase()) ?? t),
    findBrc20Token: token,
    ordinalsEtag: () => String(ordinalsTipMs / 1000),
    etch(count = 1) {
      const added: Etching[] = [];
      for (let i = 0; i < count; i++) {
        const height = etchings[0]!.location.block_height + 1;
        // The data is a function of how many etchings were added, so one ETag always means one state.
        const spec = { number: Math.max(total(), ETCHING_COUNT + 2), height, txIndex: 1 + (height % 7) };
        added.unshift(makeEtching(spec, height, names));
        etchings = [added[0]!, ...etchings];
      }
      return added;
    },
    mint(ticker = MINTING_TICKER) {
      const current = token(ticker);
      if (!current?.token.mint_limit) throw new Error(`sample: ${ticker} cannot be minted`);
      const { decimals } = current.token;
      const units = (amount: string) => BigInt(amount.replace('.', ''));
      const max = units(current.token.max_supply);
      const next = formatUnits(
        [units(current.token.minted_supply) + units(current.token.mint_limit), max].reduce((a, b) => (a < b ? a : b)),
        decimals,
      );
      const details: Brc20TokenDetails = {
        token: { ...current.token, minted_supply: next, tx_count: current.token.tx_count + 1 },
        supply: { ...current.supply, minted_supply: next },
      };
      minted.set(current.token.ticker.toLowerCase(), details);
      // The mint inscription is a new location in a new block: the global ETag moves on.
      ordinalsTipMs += BLOCK_MS;
      return details;
    },
    reset() {
      etchings = [...sampleData.etchings];
      names = new Set(etchings.map((e) => e.name));
      minted = new Map();
      ordinalsTipMs = Number(ORDINALS_ETAG) * 1000;
    },
    simulate(intervalMs) {
      const timer = setInterval(() => {
        activity.etch();
        activity.mint();
      }, intervalMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return activity;
}
