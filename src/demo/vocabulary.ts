/**
 * The words the demo tenant is made of: customer companies, people, ticket titles and the
 * vocabularies of the PSA systems. Plain data, so the generator stays readable.
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

export const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Elijah',
  'Sophia',
  'James',
  'Isabella',
  'Lucas',
  'Mia',
  'Mason',
  'Amelia',
  'Ethan',
  'Harper',
  'Logan',
  'Evelyn',
  'Aiden',
  'Abigail',
  'Carter',
  'Emily',
  'Daniel',
  'Ella',
  'Henry',
  'Grace',
  'Jackson',
  'Chloe',
  'Sebastian',
  'Priya',
  'Mateo',
  'Aisha',
  'Wei',
  'Fatima',
  'Diego',
  'Hannah',
  'Omar',
  'Nora',
  'Samuel',
  'Zoe',
  'David',
  'Layla',
  'Kenji',
  'Maria',
  'Andre',
  'Rachel',
  'Tomás',
  'Leah',
  'Marcus',
]

export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Nguyen',
  'Patel',
  'Kim',
  'Chen',
  "O'Brien",
  'Murphy',
  'Okafor',
  'Kowalski',
]

/** Turns a name into the local part of an e-mail address. */
export function emailLocal(first: string, last: string): string {
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[^A-Za-z]/g, '')
      .toLowerCase()
  return `${clean(first)}.${clean(last)}`
}

/** Values substituted into ticket title templates. */
export const FILL = {
  device: ['laptop', 'desktop', 'MacBook', 'Surface', 'workstation', 'thin client', 'iPad', 'docking station'],
  app: [
    'Outlook',
    'Teams',
    'OneDrive',
    'SharePoint',
    'QuickBooks',
    'Adobe Acrobat',
    'Chrome',
    'Excel',
    'Zoom',
    'Dentrix',
    'Salesforce',
    'Sage 300',
  ],
  printer: [
    'front desk printer',
    'HP LaserJet on 2nd floor',
    'Ricoh copier',
    'label printer',
    'plotter',
    'check scanner',
  ],
  site: ['main office', 'warehouse', 'branch office', 'reception', 'conference room B', 'the clinic', 'remote site'],
  minutes: ['5', '10', '15', '20', '30'],
  n: ['2', '3', '4', '5', '6', '12'],
} as const

/** A ticket category: its title templates, the PSA type/subtype names and description lines. */
export interface TicketCategory {
  name: string
  weight: number
  issueTypes: readonly string[]
  titles: readonly string[]
  descriptions: readonly string[]
}

/** What tickets are about. `{device}` etc. are filled from {@link FILL}. */
export const TICKET_CATEGORIES: readonly TicketCategory[] = [
  {
    name: 'Email & Collaboration',
    weight: 18,
    issueTypes: ['Outlook', 'Exchange Online', 'Teams', 'Shared Mailbox'],
    titles: [
      'Outlook not syncing on {device}',
      'Outlook keeps asking for password',
      'Cannot send email with large attachments',
      'Shared mailbox missing from Outlook',
      'Teams calls dropping after {minutes} minutes',
      'Emails going to junk for external clients',
      'Calendar invites not showing for new hire',
      'Out-of-office not working',
      'Distribution list needs new members',
      'Teams not launching after update',
    ],
    descriptions: [
      'User reports the issue started this morning after a restart.',
      'Affects only this user; colleagues in the same office are fine.',
      'Happens on both the desktop client and the web app.',
    ],
  },
  {
    name: 'Network & Connectivity',
    weight: 15,
    issueTypes: ['VPN', 'Wi-Fi', 'Internet Outage', 'Firewall', 'Switching'],
    titles: [
      'VPN drops every {minutes} minutes',
      'Wi-Fi slow in {site}',
      'Internet down at {site}',
      'Cannot reach file server from {site}',
      'Firewall blocking vendor portal',
      'Guest Wi-Fi password needs rotating',
      'Network drive mapping missing after login',
      'Intermittent packet loss on ISP circuit',
      'Port needs to be patched for new desk',
      'Site-to-site VPN tunnel down',
    ],
    descriptions: [
      'Several users at the site are affected.',
      'Monitoring shows the WAN link flapping since early this morning.',
      'User is working from home and cannot reach internal resources.',
    ],
  },
  {
    name: 'Hardware',
    weight: 14,
    issueTypes: ['Laptop', 'Desktop', 'Monitor', 'Peripheral', 'Printer'],
    titles: [
      '{device} will not power on',
      '{device} battery drains in {n} hours',
      'Second monitor not detected on {device}',
      '{printer} jamming',
      'Cannot print to {printer}',
      'Keyboard and mouse unresponsive on {device}',
      'Replace cracked screen on {device}',
      '{device} fan very loud and overheating',
      'Docking station not charging {device}',
      'Scanner not sending to email',
    ],
    descriptions: [
      'Device is under warranty; serial number attached in the PSA.',
      'User needs this working before a client meeting.',
      'Issue started after the device was moved to a new desk.',
    ],
  },
  {
    name: 'Software & Applications',
    weight: 14,
    issueTypes: ['Line of Business App', 'Microsoft 365 Apps', 'Installation', 'Licensing'],
    titles: [
      '{app} crashes on launch',
      'Install {app} for new starter',
      '{app} license expired',
      '{app} running very slowly',
      'Update {app} to latest version',
      'Excel macros disabled after update',
      '{app} cannot connect to database',
      'PDF files open in the wrong application',
      'Browser extension needed for vendor portal',
      '{app} error after Windows update',
    ],
    descriptions: [
      'Error message screenshot attached by the user.',
      'Vendor support suggested reinstalling the client.',
      'Needed for month-end close.',
    ],
  },
  {
    name: 'Accounts & Access',
    weight: 16,
    issueTypes: ['Password Reset', 'New User', 'Offboarding', 'MFA', 'Permissions'],
    titles: [
      'Password reset for locked-out user',
      'New hire onboarding: create accounts',
      'Offboard departing employee',
      'MFA prompt not arriving on phone',
      'Grant access to finance shared folder',
      'Remove access for contractor',
      'User locked out after too many attempts',
      'Reset MFA for replaced phone',
      'Add user to {app} security group',
      'Name change: update display name and email',
    ],
    descriptions: [
      'Requested by the office manager; approval in the email thread.',
      'Start date is next Monday; equipment already ordered.',
      'User is travelling and needs access restored urgently.',
    ],
  },
  {
    name: 'Security',
    weight: 9,
    issueTypes: ['Phishing', 'Endpoint Alert', 'Suspicious Sign-in', 'Vulnerability'],
    titles: [
      'Suspicious email reported by user',
      'EDR alert: suspicious PowerShell on {device}',
      'Impossible travel sign-in detected',
      'User clicked phishing link',
      'Patch critical vulnerability on file server',
      'Antivirus definitions out of date on {n} devices',
      'Block sender domain after spoofing attempt',
      'Review inbox rules created by unknown app',
    ],
    descriptions: [
      'Alert raised automatically by the security stack.',
      'User forwarded the message to the phishing mailbox.',
      'Conditional access policy flagged the sign-in.',
    ],
  },
  {
    name: 'Backup & Infrastructure',
    weight: 8,
    issueTypes: ['Backup Failure', 'Server', 'Storage', 'Virtualization'],
    titles: [
      'Nightly backup failed on file server',
      'Server disk space below 10%',
      'Restore deleted folder from backup',
      'Hyper-V host high memory usage',
      'Domain controller replication errors',
      'Certificate expiring on remote desktop gateway',
      'UPS reporting battery fault',
      'Scheduled task failing on app server',
    ],
    descriptions: [
      'Raised by RMM monitoring.',
      'Backup job has failed two nights in a row.',
      'Client asked for the restore by end of day.',
    ],
  },
  {
    name: 'Phones & Mobile',
    weight: 6,
    issueTypes: ['VoIP', 'Mobile Device', 'Voicemail'],
    titles: [
      'Desk phone not registering',
      'Voicemail to email not working',
      'Set up company email on new iPhone',
      'Call forwarding needed for {site}',
      'Poor call quality on VoIP lines',
      'Enroll Android phone in device management',
    ],
    descriptions: ['Affects the main reception line.', 'User has a new phone and needs everything moved over.'],
  },
]

/** Ticket types (`typeName`) and their weights. */
export const TICKET_TYPES = {
  names: ['Incident', 'Service Request', 'Problem', 'Change Request', 'Alert'],
  weights: [46, 34, 5, 7, 8],
} as const

/** Priorities, common to the four PSAs as mirrored. */
export const PRIORITIES = { names: ['Critical', 'High', 'Medium', 'Low'], weights: [4, 16, 55, 25] } as const

/** Open statuses and their weights. */
export const OPEN_STATUSES = {
  names: ['New', 'In Progress', 'Waiting on Customer', 'Scheduled', 'Escalated', 'On Hold'],
  weights: [20, 40, 18, 10, 6, 6],
} as const

/** How each provider names its boards, queues, closing status and ticket sources. */
export const PROVIDER_PROFILES = {
  psa_a: {
    boards: ['Service Desk', 'Network Operations', 'Projects', 'Onboarding', 'Alerts'],
    queues: null,
    closed: 'Closed',
    sources: ['Email', 'Phone', 'Portal', 'Monitoring'],
  },
  psa_b: {
    boards: null,
    queues: ['Level 1 Support', 'Level 2 Support', 'Monitoring Alerts', 'Client Portal', 'Escalations'],
    closed: 'Complete',
    sources: ['Email', 'Phone', 'Client Portal', 'RMM'],
  },
  psa_c: {
    boards: ['Support', 'Projects'],
    queues: ['1st Line', '2nd Line', '3rd Line'],
    closed: 'Resolved',
    sources: ['Email', 'Web Form', 'Phone', 'Chat'],
  },
  psa_d: {
    boards: null,
    queues: ['Help Desk', 'Field Services'],
    closed: 'Closed',
    sources: ['Email', 'Phone', 'Portal'],
  },
} as const

/** Ticket notes: what technicians and contacts write. */
export const NOTE_TEXTS = {
  internal: [
    'Remoted in and reproduced the issue.',
    'Checked RMM: no related alerts in the last 24 hours.',
    'Escalated to L2 for further investigation.',
    'Cleared the cached credentials and rebuilt the profile.',
    'Vendor case opened; waiting on their engineer.',
    'Applied the latest patches and rebooted.',
    'Reviewed sign-in logs; nothing suspicious beyond the reported event.',
    'Scheduled onsite visit for tomorrow morning.',
  ],
  external: [
    'Thanks for reporting this. We are looking into it now.',
    'Could you confirm whether the issue still happens after a restart?',
    'We have applied a fix. Please let us know if you see it again.',
    'This is now resolved. Closing the ticket; reply to reopen.',
    'Still happening on my side, unfortunately.',
    'All working now, thank you!',
  ],
} as const
