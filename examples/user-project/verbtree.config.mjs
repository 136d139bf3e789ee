// Found from this folder or any below it: lint, validate, registry, verbs, tree show, run and serve all use it.
export default {
  capabilities: ['./capabilities/wave.mjs'],
  trees: ['./trees'],
  world: { kind: 'sim', seed: 3 },
};
