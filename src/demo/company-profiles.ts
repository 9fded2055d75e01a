/**
 * The demo MSP and its customer companies: hand-written profiles, and words to compose more of them.
 * Plain data, so the generator stays readable.
 */

/** A customer company of the demo MSP: name, domain, industry and a typical head count. */
export interface CompanyProfile {
  name: string
  domain: string
  industry: string
  employees: number
}

/** The demo MSP itself. */
export const DEMO_MSP = { name: 'Harborline Managed Services', domain: 'harborline-it.com' } as const

/** Forty-eight hand-written customers; more are composed from {@link COMPANY_WORDS}. */
export const COMPANY_PROFILES: readonly CompanyProfile[] = [
  { name: 'Northwind Dental Group', domain: 'northwinddental.com', industry: 'Healthcare', employees: 85 },
  {
    name: 'Bluewater Logistics',
    domain: 'bluewaterlogistics.com',
    industry: 'Transportation & Logistics',
    employees: 240,
  },
  { name: 'Cedar Ridge Law LLP', domain: 'cedarridgelaw.com', industry: 'Legal', employees: 42 },
  { name: 'Summit Peak Accounting', domain: 'summitpeakcpa.com', industry: 'Accounting', employees: 28 },
  { name: 'Riverside Family Clinic', domain: 'riversidefamilyclinic.org', industry: 'Healthcare', employees: 64 },
  { name: 'Ironclad Manufacturing', domain: 'ironcladmfg.com', industry: 'Manufacturing', employees: 410 },
  { name: 'Greenfield Property Management', domain: 'greenfieldpm.com', industry: 'Real Estate', employees: 57 },
  { name: 'Lakeshore Credit Union', domain: 'lakeshorecu.org', industry: 'Financial Services', employees: 190 },
  { name: 'Maple & Birch Architects', domain: 'maplebirch.design', industry: 'Architecture', employees: 23 },
  { name: 'Copperline Engineering', domain: 'copperline-eng.com', industry: 'Engineering', employees: 134 },
  { name: 'St. Brendan Academy', domain: 'stbrendanacademy.org', industry: 'Education', employees: 118 },
  { name: 'Harbor View Hotels', domain: 'harborviewhotels.com', industry: 'Hospitality', employees: 310 },
  { name: 'Pinecrest Veterinary Hospital', domain: 'pinecrestvet.com', industry: 'Veterinary', employees: 36 },
  { name: 'Atlas Freight Brokers', domain: 'atlasfreight.co', industry: 'Transportation & Logistics', employees: 72 },
  {
    name: 'Brightside Marketing Co.',
    domain: 'brightsidemarketing.com',
    industry: 'Marketing & Advertising',
    employees: 31,
  },
  { name: 'Keystone Insurance Partners', domain: 'keystoneinsure.com', industry: 'Insurance', employees: 96 },
  { name: 'Silver Oak Wealth Advisors', domain: 'silveroakwealth.com', industry: 'Financial Services', employees: 19 },
  { name: 'Meridian Orthopedics', domain: 'meridianortho.com', industry: 'Healthcare', employees: 150 },
  { name: 'Redstone Construction', domain: 'redstonebuild.com', industry: 'Construction', employees: 275 },
  { name: 'Willow Creek Senior Living', domain: 'willowcreekliving.org', industry: 'Healthcare', employees: 220 },
  { name: 'Foxglove Biotech', domain: 'foxglovebio.com', industry: 'Life Sciences', employees: 88 },
  { name: 'Granite State Title', domain: 'granitestatetitle.com', industry: 'Real Estate', employees: 26 },
  {
    name: 'Oakmont Public Library',
    domain: 'oakmontlibrary.org',
    industry: 'Government & Public Sector',
    employees: 45,
  },
  { name: 'Tidewater Seafood Co.', domain: 'tidewaterseafood.com', industry: 'Food & Beverage', employees: 160 },
  {
    name: 'Vantage Point Consulting',
    domain: 'vantagepointconsult.com',
    industry: 'Professional Services',
    employees: 54,
  },
  {
    name: 'Clearwater Municipal Utilities',
    domain: 'clearwaterutilities.gov',
    industry: 'Government & Public Sector',
    employees: 130,
  },
  { name: 'Elm Street Pediatrics', domain: 'elmstreetpeds.com', industry: 'Healthcare', employees: 33 },
  { name: 'Quarry Hill Brewing', domain: 'quarryhillbrewing.com', industry: 'Food & Beverage', employees: 48 },
  { name: 'Northstar Staffing', domain: 'northstarstaffing.com', industry: 'Staffing & Recruiting', employees: 67 },
  { name: 'Beacon Hill Realty', domain: 'beaconhillrealty.com', industry: 'Real Estate', employees: 39 },
  { name: 'Sterling Auto Group', domain: 'sterlingautogroup.com', industry: 'Automotive', employees: 205 },
  { name: 'Mosaic Nonprofit Alliance', domain: 'mosaicalliance.org', industry: 'Nonprofit', employees: 29 },
  { name: 'Prairie Wind Energy', domain: 'prairiewindenergy.com', industry: 'Energy', employees: 112 },
  { name: 'Hawthorne & Pike CPAs', domain: 'hawthornepike.com', industry: 'Accounting', employees: 61 },
  { name: 'Blue Heron Dermatology', domain: 'blueherondermatology.com', industry: 'Healthcare', employees: 22 },
  { name: 'Cobalt Software Labs', domain: 'cobaltlabs.io', industry: 'Software', employees: 74 },
  { name: 'Evergreen Landscaping', domain: 'evergreenlandscape.com', industry: 'Construction', employees: 58 },
  { name: 'Union Square Dental', domain: 'unionsquaredental.com', industry: 'Healthcare', employees: 18 },
  { name: 'Westbrook Distribution', domain: 'westbrookdist.com', industry: 'Wholesale & Distribution', employees: 145 },
  { name: 'Ashford Private School', domain: 'ashfordschool.org', industry: 'Education', employees: 92 },
  { name: 'Highland Title & Escrow', domain: 'highlandescrow.com', industry: 'Real Estate', employees: 24 },
  { name: 'Crescent City Imaging', domain: 'crescentimaging.com', industry: 'Healthcare', employees: 77 },
  { name: 'Forge Fitness Clubs', domain: 'forgefitness.com', industry: 'Fitness & Recreation', employees: 126 },
  { name: 'Lighthouse Charter Bank', domain: 'lighthousecharter.bank', industry: 'Financial Services', employees: 168 },
  { name: 'Driftwood Marine Supply', domain: 'driftwoodmarine.com', industry: 'Retail', employees: 41 },
  { name: 'Kingsley Orthodontics', domain: 'kingsleyortho.com', industry: 'Healthcare', employees: 27 },
  { name: 'Aspen Grove Church', domain: 'aspengrovechurch.org', industry: 'Nonprofit', employees: 15 },
  { name: 'Paragon Precision Tools', domain: 'paragonprecision.com', industry: 'Manufacturing', employees: 198 },
]

/** Parts for composing more customers than {@link COMPANY_PROFILES} holds. */
export const COMPANY_WORDS = {
  first: [
    'Silverline',
    'Brookfield',
    'Stonegate',
    'Red Maple',
    'Clearview',
    'Oakridge',
    'Fairhaven',
    'Westgate',
    'Eastfield',
    'Coastal',
    'Pioneer',
    'Frontier',
    'Hillcrest',
    'Bayside',
    'Crossroads',
    'Sunrise',
  ],
  second: [
    ['Dental', 'Healthcare'],
    ['Logistics', 'Transportation & Logistics'],
    ['Legal Group', 'Legal'],
    ['Accounting', 'Accounting'],
    ['Manufacturing', 'Manufacturing'],
    ['Realty', 'Real Estate'],
    ['Insurance', 'Insurance'],
    ['Engineering', 'Engineering'],
    ['Medical Partners', 'Healthcare'],
    ['Builders', 'Construction'],
  ] as const,
}
