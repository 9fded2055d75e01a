/** The demo tenant's goals: one to three per active company, with tasks and progress updates. */
import type { Goal } from '../model/goals.js'
import type { Sfc32 } from './prng.js'
import type { DemoCompany } from './people.js'
import { between, DAY, daysAgo, DEMO_NOW, iso, quarterEnd, quarterStart } from './time.js'

const GOAL_IDEAS: Record<string, ReadonlyArray<{ title: string; tasks: readonly string[] }>> = {
  Security: [
    {
      title: 'Enforce MFA for every account',
      tasks: [
        'Audit accounts without MFA',
        'Enable conditional access policies',
        'Enroll remaining users',
        'Disable legacy authentication',
      ],
    },
    {
      title: 'Run quarterly phishing simulations',
      tasks: [
        'Pick simulation templates',
        'Schedule first campaign',
        'Assign training to clickers',
        'Report results in QBR',
      ],
    },
    {
      title: 'Deploy EDR to all endpoints',
      tasks: ['Inventory unmanaged devices', 'Pilot on IT devices', 'Roll out company-wide', 'Tune alert policies'],
    },
  ],
  Infrastructure: [
    {
      title: 'Replace end-of-life firewall',
      tasks: [
        'Collect current rule set',
        'Order replacement appliance',
        'Schedule cut-over window',
        'Decommission old unit',
      ],
    },
    {
      title: 'Refresh laptops older than four years',
      tasks: [
        'Identify devices past lifecycle',
        'Approve hardware quote',
        'Image and ship new devices',
        'Wipe and recycle old devices',
      ],
    },
  ],
  'Cloud Migration': [
    {
      title: 'Move file shares to SharePoint',
      tasks: [
        'Map current share permissions',
        'Clean up stale data',
        'Migrate departments in waves',
        'Retire the file server',
      ],
    },
    {
      title: 'Migrate line-of-business app to hosted',
      tasks: ['Confirm vendor support', 'Size hosted environment', 'Run test migration', 'Cut over and monitor'],
    },
  ],
  Compliance: [
    {
      title: 'Complete HIPAA risk assessment',
      tasks: ['Gather policies', 'Interview department leads', 'Score risks', 'Deliver remediation plan'],
    },
    {
      title: 'Prepare for cyber-insurance renewal',
      tasks: ['Fill in insurer questionnaire', 'Evidence MFA and backups', 'Close open findings'],
    },
  ],
  Productivity: [
    {
      title: 'Roll out Teams telephony',
      tasks: ['Port phone numbers', 'Configure call queues', 'Train reception staff'],
    },
    {
      title: 'Standardise new-hire onboarding',
      tasks: ['Write onboarding checklist', 'Automate account creation', 'Pre-stage devices'],
    },
  ],
  'Cost Optimisation': [
    {
      title: 'Right-size Microsoft 365 licences',
      tasks: ['Export licence usage', 'Remove unused seats', 'Move light users to cheaper plans'],
    },
  ],
}

const UPDATE_TEXTS = [
  'Kicked off with the client; scope agreed.',
  'Good progress this month; on track for the due date.',
  'Waiting on a vendor quote before the next step.',
  'Client approved the plan in the business review.',
  'Blocked on a maintenance window; rescheduled.',
  'Most of the work is done; final checks remain.',
]

/** Goals of the active companies, with tasks and progress updates. */
export function makeGoals(rng: Sfc32, companies: readonly DemoCompany[]): Goal[] {
  const statuses = ['Not Started', 'On Track', 'At Risk', 'Off Track', 'Completed'].map((name) => ({
    id: rng.uuid(),
    name,
  }))
  const priorities = ['High', 'Medium', 'Low'].map((name) => ({ id: rng.uuid(), name }))
  const categories = Object.keys(GOAL_IDEAS).map((name) => ({ id: rng.uuid(), name }))
  const goals: Goal[] = []
  for (const company of companies) {
    if (!company.active) continue
    const count = rng.int(1, 3)
    for (let g = 0; g < count; g++) {
      const category = rng.pick(categories)
      const idea = rng.pick(GOAL_IDEAS[category.name] ?? [])
      const year = rng.pick([2025, 2025, 2026])
      const quarter = year === 2026 ? rng.int(1, 2) : rng.int(1, 4)
      const due = quarterEnd(year, quarter)
      const createdAt = between(
        rng,
        quarterStart(year, quarter) - 120 * DAY,
        Math.min(quarterStart(year, quarter), daysAgo(20)),
      )
      const status = due < DEMO_NOW ? rng.weighted(statuses, [0, 0, 1, 1, 6]) : rng.weighted(statuses, [2, 5, 2, 1, 0])
      const tasks = idea.tasks.map((title, t) => {
        const done = status.name === 'Completed' || (status.name !== 'Not Started' && rng.chance(0.5 - t * 0.1))
        return {
          id: rng.uuid(),
          title,
          description: rng.chance(0.5) ? null : `${title} for ${company.name}.`,
          isCompleted: done,
          dueDate: rng.chance(0.2) ? null : iso(Math.min(due, createdAt + (t + 1) * 21 * DAY)),
          createdAt: iso(createdAt + t * 60_000),
        }
      })
      const progress = Math.round((tasks.filter((t) => t.isCompleted).length / tasks.length) * 100)
      const updateCount = status.name === 'Not Started' ? 0 : rng.int(1, 4)
      const updates = Array.from({ length: updateCount }, (_, u) => ({
        id: rng.uuid(),
        updateText: rng.pick(UPDATE_TEXTS),
        progressPercentage: rng.chance(0.1) ? null : Math.round((progress * (u + 1)) / updateCount),
        createdAt: iso(
          between(rng, createdAt + u * 14 * DAY, Math.min(DEMO_NOW - DAY, createdAt + (u + 1) * 14 * DAY)),
        ),
      }))
      goals.push({
        id: rng.uuid(),
        title: idea.title,
        description: `${idea.title} at ${company.name}, agreed in the business review.`,
        dueDate: iso(due),
        progressPercentage: progress,
        quarter: `Q${quarter}`,
        year,
        company: { id: company.id, name: company.name },
        status,
        priority: rng.weighted(priorities, [3, 5, 2]),
        category,
        createdAt: iso(createdAt),
        updatedAt: iso(updates.reduce((latest, u) => Math.max(latest, Date.parse(u.createdAt)), createdAt)),
        tasks,
        updates,
      })
    }
  }
  return goals
}
