import { errorMessage, type ErrorCode } from '../../api/errorCodes.js';

/**
 * A request the sandbox refuses, carrying the exchange's code and message. Handlers throw it;
 * the server turns it into the error envelope `{code, msg, requestTime, data: null}`.
 *
 * @example
 * throw ApiFailure.of('40017', 'limit must be at most 100 (got 500)');
 */
export class ApiFailure extends Error {
  constructor(readonly code: string, message: string, readonly httpStatus = 400) {
    super(message);
    this.name = 'ApiFailure';
  }

  /** Builds the failure from the shared code table, filling its `{0}`. */
  static of(code: ErrorCode, arg = '', httpStatus = 400): ApiFailure {
    return new ApiFailure(code, errorMessage(code, arg), httpStatus);
  }
}
