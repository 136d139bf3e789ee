export { observation } from './observation.js';
