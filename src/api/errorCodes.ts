/**
 * The exchange's error codes (api-notes.md), with whether a retry can help. The sandbox answers
 * with these messages; the client classifies failures by them.
 */
export interface ErrorCodeInfo {
  readonly msg: string;
  readonly retry: 'no' | 'after-pause' | 'fresh-timestamp' | 'yes';
}

export const errorCodes = {
  '429': { msg: 'Too Many Requests', retry: 'after-pause' },
  '40001': { msg: 'ACCESS_KEY cannot be empty', retry: 'no' },
  '40002': { msg: 'ACCESS_SIGN cannot be empty', retry: 'no' },
  '40003': { msg: 'Signature cannot be empty', retry: 'no' },
  '40005': { msg: 'Invalid ACCESS_TIMESTAMP', retry: 'no' },
  '40006': { msg: 'Invalid ACCESS_KEY', retry: 'no' },
  '40008': { msg: 'Request timestamp expired', retry: 'fresh-timestamp' },
  '40009': { msg: 'sign signature error', retry: 'no' },
  '40011': { msg: 'ACCESS_PASSPHRASE cannot be empty', retry: 'no' },
  '40012': { msg: 'apikey/password is incorrect', retry: 'no' },
  '40014': { msg: 'Incorrect permissions, need {0} permissions', retry: 'no' },
  '40017': { msg: 'Parameter verification failed {0}', retry: 'no' },
  '40018': { msg: 'Invalid IP', retry: 'no' },
  '40019': { msg: 'Parameter {0} cannot be empty', retry: 'no' },
  '40034': { msg: 'Parameter {0} does not exist', retry: 'no' },
  '40037': { msg: 'Apikey does not exist', retry: 'no' },
  '40038': { msg: 'The current request IP is not in the whitelist', retry: 'no' },
  '40099': { msg: 'The exchange environment is incorrect', retry: 'no' },
  '40704': { msg: 'Can only check the data of the last three months', retry: 'no' },
  '40705': { msg: 'The start and end time cannot exceed 90 days', retry: 'no' },
  '00001': { msg: 'startTime and endTime interval cannot be greater than {0} days', retry: 'no' },
  '40078': { msg: 'Request outside receiveWindow', retry: 'no' },
  '40079': { msg: 'receiveWindow must be less than 60000', retry: 'no' },
  '45001': { msg: 'Unknown error', retry: 'yes' },
  '40725': { msg: 'Service return an error', retry: 'yes' },
  '40808': { msg: 'Parameter verification exception', retry: 'yes' },
  '40015': { msg: 'System is abnormal, please try again later', retry: 'yes' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof errorCodes;

/** Fills `{0}` in a message template. */
export function errorMessage(code: ErrorCode, arg = ''): string {
  return errorCodes[code].msg.replace('{0}', arg);
}
