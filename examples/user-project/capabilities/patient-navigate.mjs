// A second version of a built-in verb: navigate@2.0.0, the built-in navigate with more patience for long
// walks (its own tree, trees/patient_navigate.mdsl: five tries, a minute per state). Same arguments, same
// acceptance. With it registered, a step that names no version gets the newest, 2.0.0; a plan that wants
// the built-in one pins it with "version": "^1" (see plans/greet.plan.json).
import { builtinCapabilities } from 'verbtree/capabilities';

const navigate = builtinCapabilities.find((spec) => spec.name === 'navigate' && spec.version === '1.0.0');
if (!navigate) throw new Error('this verbtree ships no navigate@1.0.0 to build on');

export const patientNavigate = {
  ...navigate,
  version: '2.0.0',
  description: 'Walk to a block, near a point, or into a column, with five tries and a minute per state.',
  expectedDurationMs: 60_000,
  tree: 'patient_navigate',
};

export default [patientNavigate];
