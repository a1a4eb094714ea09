// The sample upstream's dataset: the upstream example bodies verbatim, plus deterministic
// generated data around them. Objects are stored in the upstream's response shape so tests can
// compute expected answers straight from `sampleData`.
import ordiJson from './data/brc20-ordi.json' with { type: 'json' };
import pepeJson from './data/brc20-pepe.json' with { type: 'json' };
import satsJson from './data/brc20-sats.json' with { type: 'json' };
import block775700Json from './data/transfers-block-775700.json' with { type: 'json' };
import block775701Json from './data/transfers-block-775701-limit1-offset1.json' with { type: 'json' };
import etchingsPageJson from './data/etchings-page.json' with { type: 'json' };
import statusV1Json from './data/status-openapi-example.json' with { type: 'json' };
import chainInfoJson from './data/bitcoin-node-chaininfo.json' with { type: 'json' };
import { address, formatUnits, hex, percent4, pick, rand, randInt } from './util.js';
import type { Brc20Token, Brc20TokenDetailsResponse, InscriptionLocation, InscriptionTransfer, RuneEtching } from '../upstream/types.js';

// ---------- types (upstream response shapes) ----------

/** The sample serves the upstream's own shapes (src/upstream/types.ts). */
export type { Brc20Token, InscriptionLocation };
export type Brc20TokenDetails = Brc20TokenDetailsResponse;
export type BlockTransfer = InscriptionTransfer;
export type Etching = RuneEtching;

export interface TransferBlock {
  height: number;
  hash: string;
  /** In block order: index 0 is the first transfer (the API lists them in reverse). */
  transfers: BlockTransfer[];
}

// ---------- chain model ----------

/** Real hashes used by the example bodies; every other height gets a generated hash. */
const KNOWN_HASHES: Record<number, string> = {
  775617: '00000000000000000002a90330a99f67e3f01eb2ce070b45930581e82fb7a91d',
  775700: '00000000000000000002a90330a99f67e3f01eb2ce070b45930581e82fb7bbbb',
  775701: '000000000000000000044b12039abd3112963959d9fd7510ac503ea84dc17002',
  840000: '00000000000000000000c9787573a1f1775a2b56b403a2d0c7957e9a5bc754bb',
};

export function blockHash(height: number): string {
  return KNOWN_HASHES[height] ?? '0000000000000000000' + hex(`block:${height}`, 45);
}

/** Block time in seconds: ~10 minutes per block around the real time of block 840000. */
export function blockTime(height: number): number {
  return 1713571767 + (height - 840000) * 600 + randInt(`time:${height}`, -240, 240);
}

// ---------- BRC-20 ----------

export const EMOJI_TICKER = '🐸';
export const SELF_MINT_TICKER = 'bitai';
export const NULL_MINT_LIMIT_TICKER = 'void';
export const BIG_AMOUNT_TICKER = 'bign';
export const PERCENT_TICKER = 'x%y';
export const SPACE_TICKER = 'a b';

const PLAIN_TICKERS = [
  'rats',
  'trac',
  'oxbt',
  'mubi',
  'bili',
  'zbit',
  'vmpx',
  'piza',
  'lger',
  'honk',
  'domo',
  'moon',
  'bear',
  'doge',
  'shib',
  'fren',
  'wojk',
  'cats',
  'btcs',
  'lady',
  'dogi',
  'sato',
  'yoyo',
  'csas',
  'ligo',
  'grum',
  'nals',
  'meme',
  'punk',
  'turt',
  'frog',
  'gold',
];

interface TokenSpec {
  ticker: string;
  decimals: number;
  height: number;
  max: bigint; // base units
  limit: bigint; // base units, 0 = no limit (emitted as null)
  minted: bigint; // base units
  selfMint?: boolean;
}

function inscriptionNumberAt(height: number, label: string): number {
  // Grows roughly like the real inscription count: ~0 at 767430, ~70M by 840000.
  const progress = Math.max(0, (height - 767430) / (840000 - 767430));
  return Math.floor(progress ** 2 * 70_000_000) + randInt(label, 0, 900);
}

function makeToken(spec: TokenSpec): Brc20TokenDetails {
  const l = `brc20:${spec.ticker}`;
  const txId = hex(`${l}:tx`);
  const minted = formatUnits(spec.minted, spec.decimals);
  const max = formatUnits(spec.max, spec.decimals);
  const mints = spec.limit > 0n ? Number(spec.minted / spec.limit) : 0;
  const holders = spec.minted === 0n ? 0 : randInt(`${l}:holders`, 1, 60000);
  return {
    token: {
      id: `${txId}i0`,
      number: inscriptionNumberAt(spec.height, `${l}:number`),
      block_height: spec.height,
      tx_id: txId,
      address: address(`${l}:deployer`),
      ticker: spec.ticker,
      max_supply: max,
      mint_limit: spec.limit > 0n ? formatUnits(spec.limit, spec.decimals) : null,
      decimals: spec.decimals,
      deploy_timestamp: blockTime(spec.height) * 1000,
      minted_supply: minted,
      tx_count: 1 + mints + (holders > 0 ? randInt(`${l}:txs`, holders, holders * 3) : 0),
      self_mint: spec.selfMint ?? false,
    },
    supply: { max_supply: max, minted_supply: minted, holders },
  };
}

function plainTokenSpec(ticker: string): TokenSpec {
  const l = `brc20:${ticker}`;
  const decimals = pick(`${l}:dec`, [18, 18, 18, 18, 8, 0, 2, 6]);
  const unit = 10n ** BigInt(decimals);
  const maxWhole = pick(`${l}:max`, [
    21_000_000n,
    1_000_000_000n,
    2_100_000_000_000_000n,
    100_000_000n,
    420_690_000_000_000n,
    10_000_000_000n,
  ]);
  const limitWhole = maxWhole / pick(`${l}:lim`, [1_000n, 21_000n, 100_000n, 1_000_000n]);
  const mode = pick(`${l}:mode`, ['full', 'full', 'partial', 'partial', 'partial', 'none']);
  const mintCount = maxWhole / limitWhole;
  let minted =
    mode === 'full'
      ? maxWhole * unit
      : mode === 'none'
        ? 0n
        : BigInt(Math.floor(rand(`${l}:frac`) * Number(mintCount))) * limitWhole * unit;
  // A partially minted token can hold odd amounts (mints below the limit), visible in the fraction.
  if (mode === 'partial' && decimals > 0) minted += (BigInt(randInt(`${l}:dust`, 1, 99)) * unit) / 100n;
  return {
    ticker,
    decimals,
    height: randInt(`${l}:height`, 779000, 836000),
    max: maxWhole * unit,
    limit: limitWhole * unit,
    minted,
  };
}

const E18 = 10n ** 18n;
const generatedTokenSpecs: TokenSpec[] = [
  ...PLAIN_TICKERS.map(plainTokenSpec),
  {
    ticker: EMOJI_TICKER,
    decimals: 18,
    height: 780112,
    max: 420_690_000_000n * E18,
    limit: 1_000_000n * E18,
    minted: 420_690_000_000n * E18,
  },
  // 5-byte tickers can only be deployed as self-mint tokens (after block 837090).
  {
    ticker: SELF_MINT_TICKER,
    decimals: 8,
    height: 839447,
    max: 21_000_000n * 10n ** 8n,
    limit: 1_000n * 10n ** 8n,
    minted: 1_234_567n * 10n ** 8n + 12345678n,
    selfMint: true,
  },
  { ticker: NULL_MINT_LIMIT_TICKER, decimals: 0, height: 781204, max: 1_000_000n, limit: 0n, minted: 0n },
  // Amounts above 2^53: a float64 would turn ...993 into ...992 and drop the final ...001.
  {
    ticker: BIG_AMOUNT_TICKER,
    decimals: 18,
    height: 790321,
    max: 9_007_199_254_740_993n * E18 + 1n,
    limit: 4_503_599_627_370_497n * E18 + 1n,
    minted: 9_007_199_254_740_992n * E18 - 1n,
  },
  { ticker: PERCENT_TICKER, decimals: 2, height: 801777, max: 100_000_000n * 100n, limit: 1_000n * 100n, minted: 12_345_600n * 100n + 7n },
  {
    ticker: SPACE_TICKER,
    decimals: 6,
    height: 803210,
    max: 21_000_000n * 10n ** 6n,
    limit: 100n * 10n ** 6n,
    minted: 21_000_000n * 10n ** 6n,
  },
];

const brc20Tokens: Brc20TokenDetails[] = [ordiJson, pepeJson, satsJson, ...generatedTokenSpecs.map(makeToken)];

const tokensByTicker = new Map(brc20Tokens.map((t) => [t.token.ticker.toLowerCase(), t]));

/** Case-insensitive like the upstream's `LOWER(ticker)` lookup. */
export function findBrc20Token(ticker: string): Brc20TokenDetails | undefined {
  return tokensByTicker.get(ticker.toLowerCase());
}

// ---------- inscription transfers ----------

export const BIG_TRANSFER_BLOCK = 812345;
export const NULL_LOCATION_BLOCK = 820000;
export const KNOWN_BLOCK_HASH = blockHash(775700);

function location(
  height: number,
  txId: string,
  vout: number,
  value: string | null,
  offset: string | null,
  addr: string | null,
): InscriptionLocation {
  const output = `${txId}:${vout}`;
  return {
    block_height: height,
    block_hash: blockHash(height),
    address: addr,
    tx_id: txId,
    location: `${output}:${offset}`, // upstream template literal: reads "...:null" when offset is null
    output,
    value,
    offset,
    timestamp: blockTime(height) * 1000,
  };
}

const VALUES = ['546', '330', '600', '1000', '10000', '9000', '294', '1500'];

function generateTransfers(height: number, count: number, nullTo = false): BlockTransfer[] {
  return Array.from({ length: count }, (_, i) => {
    const l = `xfer:${height}:${i}`;
    const genesisHeight = height - randInt(`${l}:age`, 1, 40000);
    const genesisTx = hex(`${l}:genesis`);
    // About a quarter move for the first time, so `from` is still the reveal output.
    const fromTx = i % 4 === 0 ? genesisTx : hex(`${l}:from`);
    const fromHeight = i % 4 === 0 ? genesisHeight : randInt(`${l}:fromh`, genesisHeight, height - 1);
    const value = pick(`${l}:value`, VALUES);
    const fromOffset = i % 7 === 3 ? String(randInt(`${l}:off`, 1, Number(value) - 1)) : '0';
    const toTx = hex(`${l}:to`);
    const number = i % 9 === 5 ? -randInt(`${l}:cursed`, 1, 470000) : inscriptionNumberAt(genesisHeight, `${l}:number`);
    return {
      id: `${genesisTx}i0`,
      number,
      from: location(fromHeight, fromTx, randInt(`${l}:fromvout`, 0, 2), value, fromOffset, address(`${l}:from`)),
      to: nullTo
        ? location(height, toTx, 0, null, null, null)
        : location(height, toTx, randInt(`${l}:tovout`, 0, 3), value, '0', address(`${l}:to`)),
    };
  });
}

/** Results of the example pages, newest first, turned back into block order. */
const block775700 = [...block775700Json.results].reverse();
const transferBlocks: TransferBlock[] = [
  // 775617 holds only genesis reveals, so it has no transfers (the upstream's empty example).
  { height: 775617, hash: blockHash(775617), transfers: [] },
  { height: 775700, hash: blockHash(775700), transfers: block775700 },
  {
    height: 775701,
    hash: blockHash(775701),
    transfers: [
      ...block775701Json.results, // index 0 (the example page's only item, at offset 1)
      // index 1: inscription #1 moves on from its block-775700 location
      {
        id: '7ac73ecd01b9da4a7eab904655416dbfe8e03f193e091761b5a63ad0963570cdi0',
        number: 1,
        from: block775700[1]!.to,
        to: {
          ...location(775701, hex('xfer:775701:1:to'), 0, '8000', '0', address('xfer:775701:1:to')),
          timestamp: 1676913208000, // the example fixture's time for block 775701
        },
      },
    ],
  },
  ...[
    [800000, 12],
    [BIG_TRANSFER_BLOCK, 77],
    [825000, 5],
    [840000, 25],
    [845678, 1],
  ].map(([height, count]) => ({ height: height!, hash: blockHash(height!), transfers: generateTransfers(height!, count!) })),
  { height: NULL_LOCATION_BLOCK, hash: blockHash(NULL_LOCATION_BLOCK), transfers: generateTransfers(NULL_LOCATION_BLOCK, 3, true) },
].sort((a, b) => a.height - b.height);

const HASH_RE = /^[0]{8}[a-fA-F0-9]{56}$/;

/** The upstream compares hashes as exact strings and heights numerically. */
export function findTransferBlock(block: string): TransferBlock | undefined {
  if (HASH_RE.test(block)) return transferBlocks.find((b) => b.hash === block);
  return transferBlocks.find((b) => b.height === Number(block));
}

// Global ordinals ETag: the newest inscription location time, in seconds.
const allLocationTimes = [
  ...transferBlocks.flatMap((b) => b.transfers.flatMap((t) => [t.from.timestamp, t.to.timestamp])),
  ...brc20Tokens.map((t) => t.token.deploy_timestamp),
];
export const ORDINALS_ETAG = String(Math.max(...allLocationTimes) / 1000);

// ---------- runes ----------

const RUNE_WORDS = [
  'DOG',
  'GO',
  'TO',
  'THE',
  'MOON',
  'BITCOIN',
  'PIZZA',
  'SATOSHI',
  'NAKAMOTO',
  'MEME',
  'ECONOMICS',
  'BILLION',
  'DOLLAR',
  'CAT',
  'WORLD',
  'PEACE',
  'RUNE',
  'STONE',
  'GENESIS',
  'ORDINAL',
  'MAGIC',
  'INTERNET',
  'MONEY',
  'HODL',
  'LASER',
  'EYES',
  'PUPS',
  'WOLF',
  'FROG',
  'DIAMOND',
  'HANDS',
  'TIME',
  'CHAIN',
  'BLOCK',
  'HALVING',
  'EPOCH',
  'SIGNAL',
  'NODE',
  'MINER',
  'GOLD',
  'ORANGE',
  'PILL',
  'FEHU',
];
const SYMBOLS = ['ᚠ', '🐕', '$', '₿', '🌕', '🐸', '¤', '🔥', '🍕', '🐺', '𝕏', '♠', '¥', 'Ω', '💎', 'R', 'Ð', '⚡'];
const DIVISIBILITIES = [0, 0, 0, 0, 1, 2, 2, 2, 5, 8, 8, 18, 38];
const U128_MAX = 340282366920938463463374607431768211455n;
export const ETCHING_COUNT = 300;

export interface RuneSpec {
  number: number;
  height: number;
  txIndex: number;
}

function runeName(label: string, used: Set<string>): { name: string; spaced: string } {
  for (let attempt = 0; ; attempt++) {
    const words: string[] = [];
    // Names etched around 840000 need at least 13 letters.
    for (let k = 0; words.join('').length < 13; k++) {
      const word = pick(`${label}:${attempt}:w${k}`, RUNE_WORDS);
      if (!words.includes(word)) words.push(word);
    }
    const spaced = rand(`${label}:nospace`) < 0.15 ? words.join('') : words.join('•');
    const name = words.join('');
    if (!used.has(name)) {
      used.add(name);
      return { name, spaced };
    }
  }
}

/** Applies the upstream's parseEtchingResponse rules to raw (base-unit) rune values. */
export function makeEtching(spec: RuneSpec, chainTip: number, used: Set<string>): Etching {
  const l = `rune:${spec.number}`;
  const { name, spaced } = runeName(l, used);
  const div = pick(`${l}:div`, DIVISIBILITIES);
  const unit = 10n ** BigInt(div);
  const hasTerms = rand(`${l}:terms`) < 0.85;
  // On chain an amount is a u128 of base units (ord writes it so): at 38 decimals, 3 whole units at most.
  const fits = (whole: number) => BigInt(whole) * unit <= U128_MAX;
  const amount = hasTerms ? BigInt(pick(`${l}:amount`, [1, 100, 1000, 2100, 10000, 69420, 1000000].filter(fits))) * unit : null;
  const cap = hasTerms ? pick(`${l}:cap`, [1000n, 21000n, 100000n, 1000000n, 21000000n, U128_MAX]) : null;
  // 0 here stands for no such term (null); the example rune 840000:1 has a term of 0, written 0.
  const heightStart = hasTerms && rand(`${l}:hs`) < 0.4 ? spec.height + randInt(`${l}:hsv`, 0, 10) : 0;
  const heightEnd = heightStart ? heightStart + pick(`${l}:he`, [1000, 10000, 210000]) : 0;
  const offsetStart = hasTerms && rand(`${l}:os`) < 0.2 ? randInt(`${l}:osv`, 0, 1) : 0;
  const offsetEnd = hasTerms && (offsetStart || rand(`${l}:oe`) < 0.2) ? pick(`${l}:oev`, [144, 1000, 4320]) : 0;
  const cenotaph = rand(`${l}:ceno`) < 0.03;
  const totalMints = cap === null ? 0n : BigInt(Math.floor(rand(`${l}:mints`) ** 2 * Number(cap < 10_000_000n ? cap : 10_000_000n)));
  const minted = amount === null ? 0n : totalMints * amount;
  const premine = rand(`${l}:pre`) < 0.4 ? BigInt(randInt(`${l}:prev`, 1, fits(1_000_000_000) ? 1_000_000_000 : 3)) * unit : 0n;
  const totalBurns = minted > 0n && rand(`${l}:burns`) < 0.3 ? BigInt(randInt(`${l}:burnn`, 1, 40)) : 0n;
  const burned = totalBurns * BigInt(randInt(`${l}:burnv`, 1, 500));
  const mintable = !(
    amount === null ||
    cenotaph ||
    (cap !== null && totalMints >= cap) ||
    (heightStart && chainTip < heightStart) ||
    (heightEnd && chainTip > heightEnd) ||
    (offsetStart && chainTip < spec.height + offsetStart) ||
    (offsetEnd && chainTip > spec.height + offsetEnd)
  );
  return {
    id: `${spec.height}:${spec.txIndex}`,
    name,
    spaced_name: spaced,
    number: spec.number,
    divisibility: div,
    symbol: pick(`${l}:symbol`, SYMBOLS),
    turbo: rand(`${l}:turbo`) < 0.35,
    mint_terms: {
      amount: amount === null ? null : formatUnits(amount, div),
      cap: cap === null ? null : formatUnits(cap, div), // quirk: a mint count formatted with divisibility
      height_start: heightStart || null,
      height_end: heightEnd || null,
      offset_start: offsetStart || null,
      offset_end: offsetEnd || null,
    },
    supply: {
      current: formatUnits(minted + burned + premine, div), // quirk: the upstream adds burns
      minted: formatUnits(minted, div),
      total_mints: totalMints.toString(),
      mint_percentage: cap ? percent4(totalMints, cap) : '0.0000',
      mintable,
      burned: formatUnits(burned, div),
      total_burns: totalBurns.toString(),
      premine: formatUnits(premine, div),
    },
    location: {
      block_hash: blockHash(spec.height),
      block_height: spec.height,
      tx_id: hex(`${l}:tx`),
      tx_index: spec.txIndex,
      timestamp: blockTime(spec.height), // seconds, unlike the ordinals API
    },
  };
}

function generateEtchings(): Etching[] {
  const specs: RuneSpec[] = [];
  // Groups of three etchings per block, so the tx_index ordering inside a block matters.
  for (let g = 0; specs.length < ETCHING_COUNT; g++) {
    const height = g === 0 ? 840000 : 840000 + g * 71 + ((g * g) % 13);
    const base = g === 0 ? 2 : 0; // 840000:0 and 840000:1 are taken by the example runes
    const indexes = [0, 1, 2].map((k) => base + k * 40 + randInt(`rune-tx:${g}:${k}`, 1, 39));
    for (const txIndex of indexes) {
      if (specs.length < ETCHING_COUNT) specs.push({ number: specs.length + 2, height, txIndex });
    }
  }
  const chainTip = specs[specs.length - 1]!.height;
  const used = new Set(etchingsPageJson.results.map((e) => e.name));
  return specs.map((s) => makeEtching(s, chainTip, used));
}

/** Newest first (block_height DESC, tx_index DESC): the list endpoint's order. */
const etchings: Etching[] = [...etchingsPageJson.results, ...generateEtchings()].sort(
  (a, b) => b.location.block_height - a.location.block_height || b.location.tx_index - a.location.tx_index,
);

/** The upstream reports MAX(number) + 1, counting runes that are not listed too. */
const etchingsTotal = Math.max(...etchings.map((e) => e.number)) + 1;

/** The upstream checks the forms in this order: name, spaced name, number, else id. */
export function findEtching(etching: string, list: readonly Etching[] = etchings): Etching | undefined {
  if (/^[A-Z]+$/.test(etching)) return list.find((e) => e.name === etching);
  if (/^[A-Za-z]+(•[A-Za-z]+)+$/.test(etching)) return list.find((e) => e.spaced_name === etching);
  if (/^[0-9]+$/.test(etching)) return list.find((e) => e.number === Number(etching));
  return list.find((e) => e.id === etching);
}

/** Runes ETag: the block hash of the indexer's chain tip (the newest etching's block). */
export const RUNES_ETAG = etchings[0]!.location.block_hash;

// ---------- token metadata status ----------

const statusV1 = statusV1Json;
const statusV2 = {
  server_version: statusV1.server_version,
  status: 'ready',
  chain_tip: { block_height: statusV1.chain_tip.block_height, index_block_hash: '0x' + hex('stacks-index-block:163541') },
};
export const STATUS_V1_ETAG = String(statusV1.chain_tip.block_height);
export const STATUS_V2_ETAG = statusV2.chain_tip.index_block_hash;

// ---------- platform ----------

/** The docs example UUID plus four generated v4 UUIDs; all can be deleted (until reset()). */
const chainhookUuids = [
  'aa3626dc-2090-49cd-8f1e-8f9994393aed',
  ...[1, 2, 3, 4].map((i) => {
    const h = hex(`chainhook:${i}`, 32);
    const variant = '89ab'[parseInt(h[16]!, 16) % 4];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }),
];
export const DELETABLE_CHAINHOOK_UUIDS: readonly string[] = chainhookUuids;

// Devnet bitcoind (regtest): genesis is the real regtest genesis, the tip is the example's best block.
const chainInfo = chainInfoJson.result;
const REGTEST_GENESIS = '0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206';
const devnetBlockHashes = Array.from({ length: chainInfo.blocks + 1 }, (_, h) =>
  h === 0 ? REGTEST_GENESIS : h === chainInfo.blocks ? chainInfo.bestblockhash : hex(`regtest:${h}`),
);

/** bitcoind's getblockheader JSON for a devnet height. */
export function devnetHeader(height: number) {
  const tip = chainInfo.blocks;
  const time = chainInfo.time - (tip - height) * 5;
  return {
    hash: devnetBlockHashes[height]!,
    confirmations: tip - height + 1,
    height,
    version: 536870912,
    versionHex: '20000000',
    merkleroot: hex(`regtest-merkle:${height}`),
    time,
    mediantime: time - 30,
    nonce: randInt(`regtest-nonce:${height}`, 0, 3),
    bits: '207fffff',
    difficulty: chainInfo.difficulty,
    chainwork: (2 * (height + 1)).toString(16).padStart(64, '0'),
    nTx: height === 0 ? 1 : randInt(`regtest-ntx:${height}`, 1, 4),
    ...(height > 0 ? { previousblockhash: devnetBlockHashes[height - 1]! } : {}),
    ...(height < tip ? { nextblockhash: devnetBlockHashes[height + 1]! } : {}),
  };
}

const mempoolInfo = {
  loaded: true,
  size: 3,
  bytes: 669,
  usage: 4320,
  total_fee: 0.0000669,
  maxmempool: 300000000,
  mempoolminfee: 0.00001,
  minrelaytxfee: 0.00001,
  incrementalrelayfee: 0.00001,
  unbroadcastcount: 0,
  fullrbf: false,
};

export const sampleData = {
  brc20Tokens,
  /** Sorted by height; `transfers` in block order (the API answers newest first). */
  transferBlocks,
  /** Newest first, as `GET /runes/v1/etchings` lists them. */
  etchings,
  etchingsTotal,
  chainhookUuids,
  statusV1,
  statusV2,
  bitcoinNode: { chainInfo, mempoolInfo, blockHashes: devnetBlockHashes },
} as const;
