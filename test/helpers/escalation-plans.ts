/** Plans the escalation tests (HTTP and MCP) share. */

/** Planks from an empty pack in an empty world: the step fails past its sub-goals (no log anywhere). */
export const planks = (planId: string) => ({
  planId,
  intentId: 'i',
  steps: [{ stepId: 'planks', type: 'craft_item', args: { item: 'oak_planks', count: 4 } }],
});

/** A walk to x on the flat ground, a step a replace can send instead. */
export const walk = (stepId: string, x: number) => ({
  stepId,
  type: 'navigate',
  args: { target: { kind: 'block', x, y: 0, z: 0 } },
});
