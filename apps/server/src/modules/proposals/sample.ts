import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ImportFile, ProposalDocument } from '@cr/contract/proposals';

/**
 * The demo's proposals: the real Catalyst Voices templates in `sample-data/` (byte-exact copies, see sample-data/SOURCES.md)
 * with documents built from the real example proposal, six per category and one on the generic template (no
 * category). Only titles, summaries, proposers, amounts and the category questions vary; every other answer is
 * the example's.
 */

const folder = join(dirname(fileURLToPath(import.meta.url)), 'sample-data');
type Json = Record<string, any>;
const read = (name: string): Json => JSON.parse(readFileSync(join(folder, name), 'utf8'));

export interface SampleCategory {
  template: string;
  category: string | null;
  title: string | null;
  /** Requested funds: the template's range. */
  funds: [number, number];
  proposals: [string, string][];
}

const CATEGORIES: SampleCategory[] = [
  {
    template: '0199802c-21b4-7f75-b14a-331cd1605f74',
    category: '0199802c-21b4-7c84-873c-f55119cdc811',
    title: 'Cardano Open: Ecosystem',
    funds: [15_000, 60_000],
    proposals: [
      [
        'Stake Pool Operator Academy in Swahili',
        'Free video courses and live workshops that teach East African operators to run reliable stake pools.',
      ],
      [
        'Cardano Governance Explained for Voters',
        'A weekly explainer series that turns on-chain governance actions into plain language for ada holders.',
      ],
      [
        'Community Hubs Meetup Toolkit',
        'Ready-made slides, budgets and checklists so that local hubs can host their first Cardano meetup.',
      ],
      ['Open Catalyst Proposal Writing Clinic', 'Monthly clinics where experienced proposers review drafts from first-time applicants.'],
      ['Cardano for Journalists Fellowship', 'A six-week fellowship that trains reporters to cover Cardano accurately and independently.'],
      ['Accessible Wallet Guides for Screen Readers', 'Step-by-step wallet guides written and tested with blind and low-vision users.'],
    ],
  },
  {
    template: '0199802c-21b4-7982-ba3f-ec0cd0207b11',
    category: '0199802c-21b4-7dc8-8537-7eae5ea4c4d3',
    title: 'Cardano Use Cases: Prototype & Launch',
    funds: [15_000, 200_000],
    proposals: [
      [
        'Farm-to-Market Crop Receipts on Cardano',
        'Tokenised warehouse receipts that let smallholder farmers borrow against stored harvests.',
      ],
      [
        'Verifiable Diplomas for Vocational Schools',
        'A launch-ready issuer portal for vocational schools to publish tamper-proof certificates.',
      ],
      ['Micro-Insurance for Motorcycle Taxis', 'Parametric accident cover paid out in stablecoins within a day of a verified claim.'],
      ['Community Solar Energy Credits', 'A prototype that meters rooftop solar and trades surplus credits between neighbours.'],
      ['Transparent Charity Donations Tracker', 'Donors follow every ada from their gift to the invoice it paid, on chain.'],
      ['Event Ticketing Without Scalpers', 'NFT tickets with resale caps enforced by a Plutus validator, piloted with three venues.'],
    ],
  },
  {
    template: '0199802c-21b4-7d6c-aacd-54aa31fe1e4c',
    category: '0199802c-21b4-7161-a16e-a77af492780f',
    title: 'Midnight: Compact DApps',
    funds: [2_500, 10_000],
    proposals: [
      ['Private Payroll DApp in Compact', 'Salaries paid on Midnight with amounts hidden from everyone but employer and employee.'],
      ['Zero-Knowledge Age Check', 'Prove you are over 18 to a merchant without revealing your birth date.'],
      ['Sealed-Bid Auction Template', 'An open-source Compact contract for sealed-bid auctions with a step-by-step tutorial.'],
      ['Confidential Voting for DAOs', 'Ballots that stay secret until the tally while every voter can verify inclusion.'],
      ['Private Medical Consent Records', 'Patients share consent proofs with clinics without exposing their medical history.'],
      ['Selective Disclosure KYC Wallet', 'A wallet plug-in that proves KYC status to DApps without handing over documents.'],
    ],
  },
  {
    template: '0199802c-21b4-717d-9619-11357877f471',
    category: '0199802c-21b4-721f-aa1d-5123b006879e',
    title: 'Cardano Partners: Tier-1 Enterprise Integrations',
    funds: [250_000, 750_000],
    proposals: [
      [
        'Cardano Settlement Rail for a Regional Bank',
        'Integrate Cardano stablecoin settlement into a regional bank’s cross-border payments.',
      ],
      ['Supply-Chain Provenance for a Coffee Exporter', 'Track every bag from farm cooperative to roaster for a top-ten coffee exporter.'],
      ['Airline Loyalty Points as Native Tokens', 'Move an airline partner’s loyalty programme onto Cardano native tokens.'],
      ['Telecom Identity Bridge', 'Let a national telecom issue verifiable credentials to its thirty million subscribers.'],
      ['Automotive Parts Authenticity Ledger', 'A parts manufacturer proves the origin of safety-critical components on chain.'],
      ['Retail Chain Stablecoin Checkout', 'Stablecoin payments at the tills of a five-hundred-store retail chain.'],
    ],
  },
  {
    template: '0194d492-1daa-79c7-a222-2c3b581443a8',
    category: '0194d490-30bf-7e75-95c1-a6cf0e8086d9',
    title: 'Cardano Open: Developers',
    funds: [15_000, 100_000],
    proposals: [
      ['Plutus Property Testing Library', 'QuickCheck-style generators and shrinkers for Plutus validators, with CI examples.'],
      [
        'TypeScript Transaction Builder Docs Sprint',
        'Complete reference docs and recipes for the most used TypeScript transaction builder.',
      ],
      ['Local Devnet in One Command', 'A single command that starts a node, indexer and faucet for local development.'],
      ['Aiken Smart Contract Audit Checklist', 'An open checklist and linter rules distilled from fifty public Aiken audits.'],
      ['Mithril Client for Mobile Wallets', 'A lightweight Mithril client library so that mobile wallets sync in seconds.'],
      ['Chain Indexer Benchmarks', 'Reproducible benchmarks of five open-source Cardano indexers on the same hardware.'],
    ],
  },
  {
    template: '0ce8ab38-9258-4fbc-a62e-7faa6e58318f',
    category: null,
    title: null,
    funds: [15_000, 1_000_000],
    proposals: [['Example Catalyst Proposal', 'Our solution provides a comprehensive toolkit for developers building on Cardano.']],
  },
];

const PROPOSERS = [
  'Amara Okafor',
  'Lucas Moreau',
  'Priya Natarajan',
  'Kenji Watanabe',
  'Sofia Lindqvist',
  'Mateo Alvarez',
  'Hana Novak',
  'Tomás Ribeiro',
  'Zanele Dlamini',
  'Ivan Petrov',
];

const ANSWER_TEXT =
  'We will measure this with public dashboards updated every month. The first milestone sets the baseline, the second shows ' +
  'adoption by at least two hundred active users, and the final report compares both against the targets in this proposal.';

/** Answers for a template's own category questions and self-assessment checklist (both differ per template). */
function categoryAnswers(template: Json): Json {
  const answers: Json = {};
  const questions = template.properties?.campaign_category?.properties?.category_questions?.properties ?? {};
  const filled: Json = {};
  for (const [key, node] of Object.entries<Json>(questions)) {
    if (String(node.$ref ?? '').endsWith('borderGroup')) continue;
    filled[key] = ANSWER_TEXT;
  }
  if (Object.keys(filled).length > 0) answers.campaign_category = { category_questions: filled };
  const checklist = template.properties?.self_assessment?.properties?.self_assessment_checklist?.properties;
  if (checklist)
    answers.self_assessment = { self_assessment_checklist: Object.fromEntries(Object.keys(checklist).map((key) => [key, true])) };
  return answers;
}

/** A uuid7-shaped, stable document id; like real ones (time first) they differ in their first part, the short id. */
const documentId = (n: number) =>
  `${(0x019a5e00 + n * 0x1f3).toString(16).padStart(8, '0')}-${(0x1000 + n).toString(16)}-7${n.toString(16).padStart(3, '0')}-8000-${(0xc0ffee000000 + n).toString(16)}`;

/** The sample upload file; `authorOf` chooses the author of the proposal with this index (demo conflicts of interest). */
export function sampleImportFile(options: { authorOf?: (index: number) => string } = {}): ImportFile {
  return buildSampleFile(CATEGORIES, 0, options);
}

/**
 * An upload file of sample documents built from the real example; document ids (and so short ids) count from
 * `firstIndex`, so that another set's documents never share one with this sample's.
 */
export function buildSampleFile(
  samples: SampleCategory[],
  firstIndex: number,
  options: { authorOf?: (index: number) => string } = {},
): ImportFile {
  const example = read('example.proposal.json');
  const templates: ImportFile['templates'] = {};
  const categories: Record<string, string> = {};
  const documents: ProposalDocument[] = [];
  let n = firstIndex;
  for (const sample of samples) {
    const schema = read(`${sample.template}.schema.json`);
    templates[sample.template] = { category: sample.category, schema };
    if (sample.category && sample.title) categories[sample.category] = sample.title;
    const extra = categoryAnswers(schema);
    sample.proposals.forEach(([title, summary], i) => {
      const [min, max] = sample.funds;
      const funds = Math.round((min + ((max - min) * ((i * 37) % 100)) / 100) / 500) * 500;
      const payload: Json = structuredClone(example);
      delete payload.$schema;
      payload.setup.title.title = title;
      payload.setup.proposer.applicant = PROPOSERS[n % PROPOSERS.length];
      payload.summary.solution.summary = summary;
      payload.summary.budget.requestedFunds = funds;
      Object.assign(payload, extra);
      const id = documentId(n);
      documents.push({
        id,
        ver: id,
        template: sample.template,
        category: sample.category,
        authors: [options.authorOf?.(n) ?? `id.catalyst://cardano/demo-proposer-${(n % 12) + 1}`],
        collaborators: [],
        url: `https://app.projectcatalyst.io/proposal/${id}`,
        payload,
      });
      n += 1;
    });
  }
  return { format: 'catalyst-voices-proposals/1', categories, templates, documents };
}
