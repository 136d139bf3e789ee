// Found from this folder or any below it: lint, validate, registry, verbs, tree show, run and serve all use it.
export default {
  // wave: a verb of our own; patient-navigate: navigate@2.0.0, beside the built-in navigate@1.0.0.
  capabilities: ['./capabilities/wave.mjs', './capabilities/patient-navigate.mjs'],
  trees: ['./trees'],
  world: { kind: 'sim', seed: 3 },
};
