// satgate's object types that have no id (a rune's supply, a transfer's locations, the status,
// pages and connections): normalised caches keep each inside its parent. The Apollo and urql
// Graphcache setups say so for each; test/frontend/apollo.test.ts checks that the list is the schema's.
export const WITHOUT_ID = `Brc20Supply ChainTip ChainhookDeletion InscriptionLocation InscriptionTransferConnection
  InscriptionTransferEdge InscriptionTransferPage JobQueueCounts PageInfo RuneEtchingConnection RuneEtchingEdge
  RuneEtchingPage RuneLocation RuneMintTerms RuneSupply Status TokenContractCounts TokenCounts`.split(/\s+/);
