export { findHostileInput } from './hostile.js';
export { formatPath, type JsonPath, type ValidationIssue } from './issue.js';
export { type ResolvedStep, type ValidationReport, validatePlan } from './validate-plan.js';
