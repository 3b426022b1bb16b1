import { DAY_MS } from '../../api/endpoints.js';
import { ApiFailure } from './ApiFailure.js';
import type { RequestParams } from './RequestParams.js';

/** A request's time window: startTime inclusive, endTime exclusive; undefined means open. */
export interface TimeWindow {
  startTime?: number;
  endTime?: number;
}

export interface WindowRules {
  /** Both times must be given (E5, tax endpoints). */
  required?: boolean;
  maxSpanDays?: number;
  /**
   * Which error a too-wide span gets: the 90-day endpoints answer 40705, the others (E5, tax,
   * futures bills) 00001 naming the day count.
   */
  spanError?: '40705' | '00001';
  /** startTime older than now - horizon is refused with 40704; an omitted start becomes the horizon. */
  horizonDays?: number;
  /** E11: a missing end is start + span; a missing start is end - span, or now - span. */
  defaultSpanDays?: number;
}

/**
 * Reads startTime/endTime and applies an endpoint's span, horizon and default-window rules with
 * the exchange's error codes.
 *
 * @example
 * resolveWindow(params, Date.now(), { maxSpanDays: 90, spanError: '40705', horizonDays: 90 });
 */
export function resolveWindow(params: RequestParams, now: number, rules: WindowRules): TimeWindow {
  let startTime = params.time('startTime');
  let endTime = params.time('endTime');
  if (rules.required) {
    if (startTime === undefined) throw ApiFailure.of('40019', 'startTime');
    if (endTime === undefined) throw ApiFailure.of('40019', 'endTime');
  }
  if (rules.defaultSpanDays !== undefined) {
    const span = rules.defaultSpanDays * DAY_MS;
    if (startTime === undefined) startTime = (endTime ?? now) - span;
    else if (endTime === undefined) endTime = startTime + span;
  }
  if (startTime !== undefined && endTime !== undefined && startTime > endTime) {
    throw ApiFailure.of('40017', `startTime (${startTime}) must not be after endTime (${endTime})`);
  }
  if (rules.horizonDays !== undefined) {
    const horizon = now - rules.horizonDays * DAY_MS;
    if (startTime === undefined) startTime = horizon;
    else if (startTime < horizon) throw ApiFailure.of('40704');
  }
  if (rules.maxSpanDays !== undefined && startTime !== undefined && endTime !== undefined
    && endTime - startTime > rules.maxSpanDays * DAY_MS) {
    if (rules.spanError === '40705') throw ApiFailure.of('40705');
    throw ApiFailure.of('00001', String(rules.maxSpanDays));
  }
  const window: TimeWindow = {};
  if (startTime !== undefined) window.startTime = startTime;
  if (endTime !== undefined) window.endTime = endTime;
  return window;
}
