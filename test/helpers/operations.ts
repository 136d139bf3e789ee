import { isOperationError, type OperationError } from '../../src/operations/errors.js';

/** The OperationError an operation refuses with; any other error is rethrown, and no refusal fails the test. */
export async function refusal(call: () => unknown): Promise<OperationError> {
  try {
    await call();
  } catch (error) {
    if (isOperationError(error)) return error;
    throw error;
  }
  throw new Error('the operation did not refuse');
}
