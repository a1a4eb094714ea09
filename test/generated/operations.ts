import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A block: a height (Int >= 0, or a String of digits) or a block hash (String: 64 hex characters, the first eight of them zeros, as the upstream requires). */
  BlockId: { input: string | number; output: string | number; }
  /** An exact decimal number as a JSON string, e.g. "21000000.000000000000000000". Never rounded. */
  Decimal: { input: string; output: string; }
  /** Any JSON value. */
  JSON: { input: unknown; output: unknown; }
  /** Unix epoch milliseconds as a JSON number. Upstream values in seconds (runes) are converted. */
  Timestamp: { input: number; output: number; }
};

export type Brc20Supply = {
  __typename?: 'Brc20Supply';
  /** Addresses holding a balance above zero. */
  holders: Scalars['Int']['output'];
  maxSupply: Scalars['Decimal']['output'];
  mintedSupply: Scalars['Decimal']['output'];
};

export type Brc20Token = Node & {
  __typename?: 'Brc20Token';
  address: Scalars['String']['output'];
  blockHeight: Scalars['Int']['output'];
  decimals: Scalars['Int']['output'];
  deployTimestamp: Scalars['Timestamp']['output'];
  /** A global id: opaque, stable, unique across types; `node(id:)` refetches it. */
  id: Scalars['ID']['output'];
  /** The deploy inscription id (the `id` of versions before 0.2.0). */
  inscriptionId: Scalars['String']['output'];
  maxSupply: Scalars['Decimal']['output'];
  mintLimit?: Maybe<Scalars['Decimal']['output']>;
  mintedSupply: Scalars['Decimal']['output'];
  /** The deploy inscription number. */
  number: Scalars['Int']['output'];
  /** A 5-byte self-mint ticker. Null where the upstream is too old to say. */
  selfMint?: Maybe<Scalars['Boolean']['output']>;
  /** Lowercase, as the upstream stores it. */
  ticker: Scalars['String']['output'];
  txCount: Scalars['Int']['output'];
  txId: Scalars['String']['output'];
};

export type Brc20TokenDetails = Node & {
  __typename?: 'Brc20TokenDetails';
  /** A global id: opaque, stable, unique across types; `node(id:)` refetches it. */
  id: Scalars['ID']['output'];
  supply: Brc20Supply;
  token: Brc20Token;
};

export type ChainTip = {
  __typename?: 'ChainTip';
  blockHeight: Scalars['Int']['output'];
  /** Served by newer token-metadata versions only. */
  indexBlockHash?: Maybe<Scalars['String']['output']>;
};

export type ChainhookDeletion = {
  __typename?: 'ChainhookDeletion';
  chainhookUuid: Scalars['String']['output'];
  message?: Maybe<Scalars['String']['output']>;
  status: Scalars['String']['output'];
};

export type InscriptionLocation = {
  __typename?: 'InscriptionLocation';
  address?: Maybe<Scalars['String']['output']>;
  /** Null where the data source lacks it. */
  blockHash?: Maybe<Scalars['String']['output']>;
  blockHeight: Scalars['Int']['output'];
  /** `output:offset`; null where the data source lacks it. */
  location?: Maybe<Scalars['String']['output']>;
  offset?: Maybe<Scalars['Decimal']['output']>;
  /** `txid:vout`; null where the data source lacks it. */
  output?: Maybe<Scalars['String']['output']>;
  timestamp: Scalars['Timestamp']['output'];
  /** Null where the data source lacks it. */
  txId?: Maybe<Scalars['String']['output']>;
  /** In sats. */
  value?: Maybe<Scalars['Decimal']['output']>;
};

export type InscriptionTransfer = Node & {
  __typename?: 'InscriptionTransfer';
  /** The previous location of the sat; null where the data source lacks it (UniSat). */
  from?: Maybe<InscriptionLocation>;
  /** A global id: opaque, stable, unique across types; `node(id:)` refetches it. */
  id: Scalars['ID']['output'];
  /** The inscription id (the `id` of versions before 0.2.0). */
  inscriptionId: Scalars['String']['output'];
  number: Scalars['Int']['output'];
  /** The location in this block. */
  to: InscriptionLocation;
};

export type InscriptionTransferConnection = {
  __typename?: 'InscriptionTransferConnection';
  edges: Array<InscriptionTransferEdge>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type InscriptionTransferEdge = {
  __typename?: 'InscriptionTransferEdge';
  cursor: Scalars['String']['output'];
  node: InscriptionTransfer;
};

export type InscriptionTransferPage = {
  __typename?: 'InscriptionTransferPage';
  limit: Scalars['Int']['output'];
  offset: Scalars['Int']['output'];
  results: Array<InscriptionTransfer>;
  /** Counts the whole list; the upstream reports 0 whenever the page is empty. */
  total: Scalars['Int']['output'];
};

/** A count that the upstream leaves out is 0. */
export type JobQueueCounts = {
  __typename?: 'JobQueueCounts';
  done: Scalars['Int']['output'];
  failed: Scalars['Int']['output'];
  invalid: Scalars['Int']['output'];
  pending: Scalars['Int']['output'];
  queued: Scalars['Int']['output'];
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Sends exactly one DELETE to the platform; never retried. */
  deleteChainhook?: Maybe<ChainhookDeletion>;
};


export type MutationDeleteChainhookArgs = {
  apiKey?: InputMaybe<Scalars['String']['input']>;
  uuid: Scalars['String']['input'];
};

/** An entity with a global id, which `node(id:)` and `nodes(ids:)` refetch. */
export type Node = {
  /** A global id: opaque, stable, unique across types; `node(id:)` refetches it. */
  id: Scalars['ID']['output'];
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

export type Query = {
  __typename?: 'Query';
  /** GET a path of the devnet Bitcoin node through the platform. */
  bitcoinNode?: Maybe<Scalars['JSON']['output']>;
  /** Case-insensitive. Null when no such token exists. */
  brc20Token?: Maybe<Brc20TokenDetails>;
  /** 1..50 tickers, case-insensitive, exact matches only. One entry per ticker, in the order asked; null where no such token exists. */
  brc20Tokens: Array<Maybe<Brc20TokenDetails>>;
  /** Newest first. limit 1..60, offset >= 0. */
  etchings?: Maybe<RuneEtchingPage>;
  /** Newest first, as a Relay connection. first/last 1..500 (default 20 when neither is given), not both; spans as many upstream pages as needed. Cursors are opaque and survive new items: a malformed one is BAD_USER_INPUT (reason CURSOR_INVALID), one whose item is gone is BAD_USER_INPUT (reason CURSOR_EXPIRED). totalCount is the upstream's total (it counts runes that are not listed). */
  etchingsConnection?: Maybe<RuneEtchingConnection>;
  /** Any entity by its global id (the `id` of a Brc20Token, Brc20TokenDetails, InscriptionTransfer or RuneEtching); null when it no longer exists. */
  node?: Maybe<Node>;
  /** 1..50 global ids; one entry per id, in the order asked; null where none exists. */
  nodes: Array<Maybe<Node>>;
  status?: Maybe<Status>;
  /** Newest first. limit 1..60, offset >= 0. Null when the upstream reports the block unknown (404). */
  transfers?: Maybe<InscriptionTransferPage>;
  /** The block's transfers as a Relay connection, newest first; null when the upstream reports the block unknown. first/last 1..500 (default 20 when neither is given), not both; spans as many upstream pages as needed. Cursors are opaque and survive new items: a malformed one is BAD_USER_INPUT (reason CURSOR_INVALID), one whose item is gone is BAD_USER_INPUT (reason CURSOR_EXPIRED). totalCount is the upstream's total. */
  transfersConnection?: Maybe<InscriptionTransferConnection>;
};


export type QueryBitcoinNodeArgs = {
  apiKey?: InputMaybe<Scalars['String']['input']>;
  path: Scalars['String']['input'];
};


export type QueryBrc20TokenArgs = {
  ticker: Scalars['String']['input'];
};


export type QueryBrc20TokensArgs = {
  tickers: Array<Scalars['String']['input']>;
};


export type QueryEtchingsArgs = {
  limit?: Scalars['Int']['input'];
  offset?: Scalars['Int']['input'];
};


export type QueryEtchingsConnectionArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};


export type QueryNodesArgs = {
  ids: Array<Scalars['ID']['input']>;
};


export type QueryTransfersArgs = {
  block: Scalars['BlockId']['input'];
  limit?: Scalars['Int']['input'];
  offset?: Scalars['Int']['input'];
};


export type QueryTransfersConnectionArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  block: Scalars['BlockId']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type RuneEtching = Node & {
  __typename?: 'RuneEtching';
  divisibility: Scalars['Int']['output'];
  /** A global id: opaque, stable, unique across types; `node(id:)` refetches it. */
  id: Scalars['ID']['output'];
  location: RuneLocation;
  mintTerms: RuneMintTerms;
  name: Scalars['String']['output'];
  number: Scalars['Int']['output'];
  /** `block:tx` (the `id` of versions before 0.2.0). */
  runeId: Scalars['String']['output'];
  spacedName: Scalars['String']['output'];
  supply: RuneSupply;
  symbol: Scalars['String']['output'];
  /** Null where the data source lacks it (UniSat). */
  turbo?: Maybe<Scalars['Boolean']['output']>;
};

export type RuneEtchingConnection = {
  __typename?: 'RuneEtchingConnection';
  edges: Array<RuneEtchingEdge>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type RuneEtchingEdge = {
  __typename?: 'RuneEtchingEdge';
  cursor: Scalars['String']['output'];
  node: RuneEtching;
};

export type RuneEtchingPage = {
  __typename?: 'RuneEtchingPage';
  limit: Scalars['Int']['output'];
  offset: Scalars['Int']['output'];
  results: Array<RuneEtching>;
  /** Counts the whole list; the upstream reports 0 whenever the page is empty. */
  total: Scalars['Int']['output'];
};

export type RuneLocation = {
  __typename?: 'RuneLocation';
  /** Null where the data source lacks it. */
  blockHash?: Maybe<Scalars['String']['output']>;
  blockHeight: Scalars['Int']['output'];
  output?: Maybe<Scalars['String']['output']>;
  /** Milliseconds: the Runes API answers seconds, converted here. */
  timestamp: Scalars['Timestamp']['output'];
  txId: Scalars['String']['output'];
  txIndex: Scalars['Int']['output'];
  vout?: Maybe<Scalars['Int']['output']>;
};

/** Null where the rune sets no such term (the upstream also reports a stored 0 as null). */
export type RuneMintTerms = {
  __typename?: 'RuneMintTerms';
  amount?: Maybe<Scalars['Decimal']['output']>;
  cap?: Maybe<Scalars['Decimal']['output']>;
  heightEnd?: Maybe<Scalars['Int']['output']>;
  heightStart?: Maybe<Scalars['Int']['output']>;
  offsetEnd?: Maybe<Scalars['Int']['output']>;
  offsetStart?: Maybe<Scalars['Int']['output']>;
};

export type RuneSupply = {
  __typename?: 'RuneSupply';
  burned: Scalars['Decimal']['output'];
  current: Scalars['Decimal']['output'];
  mintPercentage: Scalars['Decimal']['output'];
  mintable: Scalars['Boolean']['output'];
  minted: Scalars['Decimal']['output'];
  premine: Scalars['Decimal']['output'];
  /** Null where the data source does not count burns. */
  totalBurns?: Maybe<Scalars['Decimal']['output']>;
  totalMints: Scalars['Decimal']['output'];
};

/** The token-metadata service status (both the v1 shape with counts and the newer v2 shape). */
export type Status = {
  __typename?: 'Status';
  /** Null while the indexer has no tip. */
  chainTip?: Maybe<ChainTip>;
  jobQueue?: Maybe<JobQueueCounts>;
  serverVersion: Scalars['String']['output'];
  status: Scalars['String']['output'];
  tokenContracts?: Maybe<TokenContractCounts>;
  /** Null where the upstream's answer has no such object (newer token-metadata versions have none). */
  tokens?: Maybe<TokenCounts>;
};

/** Live data over GraphQL over SSE (accept: text/event-stream) and graphql-ws on /graphql. */
export type Subscription = {
  __typename?: 'Subscription';
  /** The token's details now, then again each time any field changes. null while no such token exists. */
  brc20Token?: Maybe<Brc20TokenDetails>;
  /** Each etching once, when satgate first sees it (older first when several appear at once). Nothing is sent for etchings that existed when the subscription started. */
  etchingAdded: RuneEtching;
  /** Each etching once, when satgate first sees it (older first when several appear at once). Nothing is sent for etchings that existed when the subscription started. As an edge of etchingsConnection: insert it at the connection's start; its cursor pages on from there. */
  etchingAddedEdge: RuneEtchingEdge;
  /** The status now, then again each time it changes. */
  status?: Maybe<Status>;
};


/** Live data over GraphQL over SSE (accept: text/event-stream) and graphql-ws on /graphql. */
export type SubscriptionBrc20TokenArgs = {
  ticker: Scalars['String']['input'];
};

/** A count that the upstream leaves out is 0. */
export type TokenContractCounts = {
  __typename?: 'TokenContractCounts';
  sip009: Scalars['Int']['output'];
  sip010: Scalars['Int']['output'];
  sip013: Scalars['Int']['output'];
};

/** A count that the upstream leaves out is 0. */
export type TokenCounts = {
  __typename?: 'TokenCounts';
  ft: Scalars['Int']['output'];
  nft: Scalars['Int']['output'];
  sft: Scalars['Int']['output'];
};

export type EtchingsPageQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type EtchingsPageQuery = { __typename?: 'Query', etchingsConnection?: { __typename?: 'RuneEtchingConnection', totalCount: number, edges: Array<{ __typename?: 'RuneEtchingEdge', cursor: string, node: { __typename?: 'RuneEtching', id: string, runeId: string, spacedName: string, number: number, supply: { __typename?: 'RuneSupply', minted: string, mintable: boolean } } }>, pageInfo: { __typename?: 'PageInfo', hasNextPage: boolean, endCursor?: string | null } } | null };

export type BlockTransfersQueryVariables = Exact<{
  block: Scalars['BlockId']['input'];
  last?: InputMaybe<Scalars['Int']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
}>;


export type BlockTransfersQuery = { __typename?: 'Query', transfersConnection?: { __typename?: 'InscriptionTransferConnection', totalCount: number, edges: Array<{ __typename?: 'InscriptionTransferEdge', cursor: string, node: { __typename?: 'InscriptionTransfer', id: string, inscriptionId: string, number: number, to: { __typename?: 'InscriptionLocation', address?: string | null, value?: string | null } } }>, pageInfo: { __typename?: 'PageInfo', hasPreviousPage: boolean, startCursor?: string | null } } | null };

export type TokensQueryVariables = Exact<{
  tickers: Array<Scalars['String']['input']> | Scalars['String']['input'];
}>;


export type TokensQuery = { __typename?: 'Query', brc20Tokens: Array<{ __typename?: 'Brc20TokenDetails', token: { __typename?: 'Brc20Token', ticker: string, mintedSupply: string, txCount: number } } | null> };

export type TokenUpdatesSubscriptionVariables = Exact<{
  ticker: Scalars['String']['input'];
}>;


export type TokenUpdatesSubscription = { __typename?: 'Subscription', brc20Token?: { __typename?: 'Brc20TokenDetails', token: { __typename?: 'Brc20Token', ticker: string, mintedSupply: string, txCount: number } } | null };

export type NewEtchingsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type NewEtchingsSubscription = { __typename?: 'Subscription', etchingAdded: { __typename?: 'RuneEtching', id: string, runeId: string, spacedName: string, number: number } };

export type NewEtchingEdgesSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type NewEtchingEdgesSubscription = { __typename?: 'Subscription', etchingAddedEdge: { __typename?: 'RuneEtchingEdge', cursor: string, node: { __typename?: 'RuneEtching', id: string, runeId: string, spacedName: string, number: number, supply: { __typename?: 'RuneSupply', minted: string, mintable: boolean } } } };

export type RefetchQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type RefetchQuery = { __typename?: 'Query', node?: { __typename: 'Brc20Token', inscriptionId: string, ticker: string, id: string } | { __typename: 'Brc20TokenDetails', id: string } | { __typename: 'InscriptionTransfer', inscriptionId: string, id: string, to: { __typename?: 'InscriptionLocation', blockHeight: number } } | { __typename: 'RuneEtching', runeId: string, spacedName: string, id: string } | null };

export type OverviewQueryVariables = Exact<{
  ticker: Scalars['String']['input'];
  block: Scalars['BlockId']['input'];
  limit: Scalars['Int']['input'];
}>;


export type OverviewQuery = { __typename?: 'Query', status?: { __typename?: 'Status', serverVersion: string, status: string, chainTip?: { __typename?: 'ChainTip', blockHeight: number, indexBlockHash?: string | null } | null, tokens?: { __typename?: 'TokenCounts', ft: number, nft: number, sft: number } | null } | null, brc20Token?: { __typename?: 'Brc20TokenDetails', token: { __typename?: 'Brc20Token', ticker: string, maxSupply: string, mintLimit?: string | null, decimals: number, deployTimestamp: number, selfMint?: boolean | null }, supply: { __typename?: 'Brc20Supply', holders: number } } | null, transfers?: { __typename?: 'InscriptionTransferPage', total: number, results: Array<{ __typename?: 'InscriptionTransfer', id: string, inscriptionId: string, number: number, to: { __typename?: 'InscriptionLocation', address?: string | null, value?: string | null, timestamp: number } }> } | null, etchings?: { __typename?: 'RuneEtchingPage', total: number, results: Array<{ __typename?: 'RuneEtching', id: string, runeId: string, spacedName: string, supply: { __typename?: 'RuneSupply', minted: string, mintable: boolean }, location: { __typename?: 'RuneLocation', timestamp: number } }> } | null };

export type DeleteChainhookMutationVariables = Exact<{
  uuid: Scalars['String']['input'];
  apiKey?: InputMaybe<Scalars['String']['input']>;
}>;


export type DeleteChainhookMutation = { __typename?: 'Mutation', deleteChainhook?: { __typename?: 'ChainhookDeletion', status: string, chainhookUuid: string, message?: string | null } | null };


export const EtchingsPageDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EtchingsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"etchingsConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runeId"}},{"kind":"Field","name":{"kind":"Name","value":"spacedName"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"supply"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minted"}},{"kind":"Field","name":{"kind":"Name","value":"mintable"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}}]} as unknown as DocumentNode<EtchingsPageQuery, EtchingsPageQueryVariables>;
export const BlockTransfersDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BlockTransfers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"block"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BlockId"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"last"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"transfersConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"block"},"value":{"kind":"Variable","name":{"kind":"Name","value":"block"}}},{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"Variable","name":{"kind":"Name","value":"last"}}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"inscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"to"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"address"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasPreviousPage"}},{"kind":"Field","name":{"kind":"Name","value":"startCursor"}}]}}]}}]}}]} as unknown as DocumentNode<BlockTransfersQuery, BlockTransfersQueryVariables>;
export const TokensDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Tokens"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"tickers"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brc20Tokens"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"tickers"},"value":{"kind":"Variable","name":{"kind":"Name","value":"tickers"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ticker"}},{"kind":"Field","name":{"kind":"Name","value":"mintedSupply"}},{"kind":"Field","name":{"kind":"Name","value":"txCount"}}]}}]}}]}}]} as unknown as DocumentNode<TokensQuery, TokensQueryVariables>;
export const TokenUpdatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"TokenUpdates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ticker"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"brc20Token"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ticker"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ticker"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ticker"}},{"kind":"Field","name":{"kind":"Name","value":"mintedSupply"}},{"kind":"Field","name":{"kind":"Name","value":"txCount"}}]}}]}}]}}]} as unknown as DocumentNode<TokenUpdatesSubscription, TokenUpdatesSubscriptionVariables>;
export const NewEtchingsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"NewEtchings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"etchingAdded"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runeId"}},{"kind":"Field","name":{"kind":"Name","value":"spacedName"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}}]}}]} as unknown as DocumentNode<NewEtchingsSubscription, NewEtchingsSubscriptionVariables>;
export const NewEtchingEdgesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"NewEtchingEdges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"etchingAddedEdge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runeId"}},{"kind":"Field","name":{"kind":"Name","value":"spacedName"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"supply"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minted"}},{"kind":"Field","name":{"kind":"Name","value":"mintable"}}]}}]}}]}}]}}]} as unknown as DocumentNode<NewEtchingEdgesSubscription, NewEtchingEdgesSubscriptionVariables>;
export const RefetchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Refetch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RuneEtching"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runeId"}},{"kind":"Field","name":{"kind":"Name","value":"spacedName"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"InscriptionTransfer"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"to"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"blockHeight"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Brc20Token"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"inscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"ticker"}}]}}]}}]}}]} as unknown as DocumentNode<RefetchQuery, RefetchQueryVariables>;
export const OverviewDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Overview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ticker"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"block"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BlockId"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"limit"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"serverVersion"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"chainTip"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"blockHeight"}},{"kind":"Field","name":{"kind":"Name","value":"indexBlockHash"}}]}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ft"}},{"kind":"Field","name":{"kind":"Name","value":"nft"}},{"kind":"Field","name":{"kind":"Name","value":"sft"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"brc20Token"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ticker"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ticker"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ticker"}},{"kind":"Field","name":{"kind":"Name","value":"maxSupply"}},{"kind":"Field","name":{"kind":"Name","value":"mintLimit"}},{"kind":"Field","name":{"kind":"Name","value":"decimals"}},{"kind":"Field","name":{"kind":"Name","value":"deployTimestamp"}},{"kind":"Field","name":{"kind":"Name","value":"selfMint"}}]}},{"kind":"Field","name":{"kind":"Name","value":"supply"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"holders"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"transfers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"block"},"value":{"kind":"Variable","name":{"kind":"Name","value":"block"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"results"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"inscriptionId"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"to"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"address"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"etchings"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"Variable","name":{"kind":"Name","value":"limit"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"results"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runeId"}},{"kind":"Field","name":{"kind":"Name","value":"spacedName"}},{"kind":"Field","name":{"kind":"Name","value":"supply"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minted"}},{"kind":"Field","name":{"kind":"Name","value":"mintable"}}]}},{"kind":"Field","name":{"kind":"Name","value":"location"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"timestamp"}}]}}]}}]}}]}}]} as unknown as DocumentNode<OverviewQuery, OverviewQueryVariables>;
export const DeleteChainhookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DeleteChainhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"apiKey"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteChainhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"uuid"},"value":{"kind":"Variable","name":{"kind":"Name","value":"uuid"}}},{"kind":"Argument","name":{"kind":"Name","value":"apiKey"},"value":{"kind":"Variable","name":{"kind":"Name","value":"apiKey"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"chainhookUuid"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]} as unknown as DocumentNode<DeleteChainhookMutation, DeleteChainhookMutationVariables>;