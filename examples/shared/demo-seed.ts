/** A few records of one demo tenant, shared by the examples: three tickets and three training enrollments. */
import type { SeedData } from 'tenant-public-api'

export const DEMO_TENANT = 'demo'

export function demoSeed(): SeedData {
  const course = { id: '0d5c1d7e-5a51-4a53-9d43-7a1c2b3c4d01', title: 'Phishing basics', courseType: 'video' }
  return {
    tickets: [1, 2, 3].map((n) => ({
      id: `ticket-${n}`,
      ticketNumber: `T-${1000 + n}`,
      title: `Printer ${n} jammed`,
      status: 'Open',
      isClosed: false,
      priority: 'High',
      provider: 'psa_a' as const,
      createdAt: `2025-01-0${n}T09:00:00.000Z`,
      notes: [],
    })),
    trainingEnrollments: [0, 1, 2].map((i) => ({
      id: `6b1f5a2e-3c4d-4e5f-8a9b-0c1d2e3f4a5${i}`,
      course,
      user: { id: `0d5c1d7e-5a51-4a53-9d43-7a1c2b3c4e0${i}`, fullName: `Learner ${i}`, email: `learner${i}@example.com` },
      status: 'in_progress' as const,
      progress: 50,
      enrolledAt: `2025-02-0${i + 1}T09:00:00.000Z`,
      timeSpentSeconds: 600,
    })),
  }
}
