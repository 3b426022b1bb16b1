/** How long sessions live and how many failed logins are allowed. */
export interface SessionPolicy {
  /** A session unused this long ends; default 30 minutes. */
  idleMs: number;
  /** A session ends this long after login, however busy; default 12 hours. */
  absoluteMs: number;
  /** Failed logins for one user name within `windowMs` before it is locked; default 5. */
  maxFailuresPerUser: number;
  /** Failed logins from one address within `windowMs` before it is locked; default 20. */
  maxFailuresPerAddress: number;
  /** The rate limits' sliding window; default 15 minutes. */
  windowMs: number;
}

/** The defaults of {@link SessionPolicy}. */
export const defaultSessionPolicy: SessionPolicy = Object.freeze({
  idleMs: 30 * 60_000,
  absoluteMs: 12 * 3_600_000,
  maxFailuresPerUser: 5,
  maxFailuresPerAddress: 20,
  windowMs: 15 * 60_000,
});
