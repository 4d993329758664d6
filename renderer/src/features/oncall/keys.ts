// The On call screen's query keys, in one place (data.ts reads under them; live.ts updates them).
/** Every key this screen caches under, built in one place. */
export const oncallKeys = {
  all: ['paging'] as const,
  incidents: () => ['paging', 'incidents'] as const,
  held: () => ['paging', 'incidents', 'held'] as const,
  incident: (id: number) => ['paging', 'incident', id] as const,
  routes: () => ['paging', 'routes'] as const,
  policies: () => ['paging', 'policies'] as const,
  schedules: () => ['paging', 'schedules'] as const,
  maintenance: () => ['paging', 'maintenance'] as const,
  receiver: () => ['paging', 'receiver'] as const,
};
