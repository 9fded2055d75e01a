/**
 * The words demo tickets are made of: title templates and their fillers, categories, types,
 * priorities, statuses, each PSA provider's vocabulary and note texts. Plain data, so the ticket
 * generator stays readable.
 */

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
