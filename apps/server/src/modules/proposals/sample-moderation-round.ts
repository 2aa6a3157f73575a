import type { ImportFile } from '@cr/contract/proposals';
import { buildSampleFile, type SampleCategory } from './sample';

/**
 * The demo moderation round's own proposals (issue 26 item 14): twelve in two categories, built like the sample from
 * the real example and templates. The round is a current event next to *Fund 15 (demo)*, and the proposals list shows
 * the proposals of every current event: with the sample itself the list would hold each title twice.
 */
const MODERATION_ROUND_CATEGORIES: SampleCategory[] = [
  {
    template: '0199802c-21b4-7f75-b14a-331cd1605f74',
    category: '0199802c-21b4-7c84-873c-f55119cdc811',
    title: 'Cardano Open: Ecosystem',
    funds: [15_000, 60_000],
    proposals: [
      ['Cardano Podcast in Portuguese', 'A fortnightly podcast that brings Cardano news and interviews to Portuguese-speaking listeners.'],
      ['University Blockchain Clubs Starter Kit', 'Talks, workshops and a grant guide that help students start Cardano clubs on campus.'],
      [
        'Catalyst Town Halls with Live Captions',
        'Live captions and translated summaries so that deaf and non-English voters can follow town halls.',
      ],
      [
        'Stake Pool Ambassadors in Latin America',
        'Local ambassadors who help small operators find delegators and keep their pools healthy.',
      ],
      ['Cardano Glossary in Ten Languages', 'A community-maintained glossary of Cardano terms, translated and checked by native speakers.'],
      ['Women in Web3 Mentoring Circles', 'Six-month mentoring circles that pair women new to Cardano with experienced builders.'],
    ],
  },
  {
    template: '0194d492-1daa-79c7-a222-2c3b581443a8',
    category: '0194d490-30bf-7e75-95c1-a6cf0e8086d9',
    title: 'Cardano Open: Developers',
    funds: [15_000, 100_000],
    proposals: [
      ['Plutus Error Messages Decoder', 'A tool that explains failed Plutus scripts in plain language, with links to the usual fixes.'],
      ['Rust SDK for Native Token Minting', 'A documented Rust library for minting and burning native tokens, with end-to-end examples.'],
      ['Open Test Vectors for CIP-30 Connectors', 'Shared test vectors that every CIP-30 connector can run in its continuous integration.'],
      ['Hydra Head Tutorial Series', 'Hands-on tutorials that take developers from a first Hydra head to a working payment channel.'],
      ['Validator Execution Cost Profiler', 'A profiler that shows which lines of a validator spend the most execution units.'],
      ['Cardano Node Monitoring Dashboards', 'Ready-made dashboards and alerts for stake pool and relay operators.'],
    ],
  },
];

/** The moderation round's upload file; its document ids start after the sample's. */
export function moderationRoundImportFile(): ImportFile {
  return buildSampleFile(MODERATION_ROUND_CATEGORIES, 100);
}
