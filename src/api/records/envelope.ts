/** The response envelope of every V2 endpoint (spec §2.0). */
export interface Envelope<T> {
  code: string;
  msg: string;
  requestTime: number;
  data: T;
}

/** Everything inside `data` is a string on the wire; `Str` marks where the spec promises that. */
export type Str = string;
