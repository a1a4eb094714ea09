/**
 * Relay documents for test/frontend/relay.test.ts: a `@refetchable` fragment on each Node type and
 * the lists that spread them. relay-compiler compiles this file during the test's setup (into a
 * temporary directory); nothing imports it at run time.
 */
import { graphql } from 'relay-runtime';

export const etching = graphql`
  fragment Refetch_etching on RuneEtching @refetchable(queryName: "RefetchEtchingQuery") {
    id
    runeId
    spacedName
    number
    supply {
      minted
      mintable
    }
    location {
      blockHeight
      timestamp
    }
  }
`;

export const transfer = graphql`
  fragment Refetch_transfer on InscriptionTransfer @refetchable(queryName: "RefetchTransferQuery") {
    id
    inscriptionId
    number
    from {
      blockHeight
      address
    }
    to {
      blockHeight
      blockHash
      txId
      address
      value
    }
  }
`;

export const token = graphql`
  fragment Refetch_token on Brc20Token @refetchable(queryName: "RefetchTokenQuery") {
    id
    inscriptionId
    ticker
    maxSupply
    mintedSupply
    txCount
  }
`;

export const lists = graphql`
  query RefetchListsQuery($block: BlockId!, $ticker: String!) {
    etchingsConnection(first: 2) {
      edges {
        node {
          ...Refetch_etching
        }
      }
    }
    transfers(block: $block) {
      results {
        ...Refetch_transfer
      }
    }
    brc20Token(ticker: $ticker) {
      token {
        ...Refetch_token
      }
    }
  }
`;

export const etchingsList = graphql`
  query RefetchEtchingsQuery {
    etchingsConnection(first: 2) @connection(key: "Refetch_etchingsConnection") {
      edges {
        node {
          ...Refetch_etching
        }
      }
    }
  }
`;

export const etchingAdded = graphql`
  subscription RefetchEtchingAddedSubscription($connections: [ID!]!) {
    etchingAddedEdge @prependEdge(connections: $connections) {
      cursor
      node {
        ...Refetch_etching
      }
    }
  }
`;
