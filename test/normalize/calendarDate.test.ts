import { describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import {
  addDays, addYears, calendarDateProblem, dayNumber, daysBetween, isCalendarDate, localTimestamp, oneYearAfter, startOfYear, utcDate, utcYear, yearStarting,
} from '../../src/normalize/calendarDate.js';

dayjs.extend(utc);

describe('calendar dates', () => {
  it('knows real dates from impossible ones', () => {
    for (const day of ['2024-02-29', '2000-02-29', '2025-01-31', '2025-04-30', '2025-12-31', '1970-01-01']) expect(isCalendarDate(day)).toBe(true);
    for (const day of ['2025-02-29', '1900-02-29', '2025-04-31', '2025-13-01', '2025-00-10', '2025-01-00', '2025-1-5', '2025-01-05T00:00', '', '0050-01-01']) {
      expect(isCalendarDate(day)).toBe(false);
    }
  });

  it('adds days across month ends, leap days and year boundaries', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-02-29', 1)).toBe('2024-03-01');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2025-01-31', 1)).toBe('2025-02-01');
    expect(addDays('2025-04-30', 1)).toBe('2025-05-01');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(addDays('2026-04-06', 31)).toBe('2026-05-07');
    expect(addDays('2025-12-01', 31)).toBe('2026-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });

  it('adds years, 29 February becoming 28 February', () => {
    expect(addYears('2024-02-29', 1)).toBe('2025-02-28');
    expect(addYears('2024-02-29', 4)).toBe('2028-02-29');
    expect(addYears('2023-06-15', 1)).toBe('2024-06-15');
    expect(startOfYear('2024-12-31')).toBe('2024-01-01');
    expect(startOfYear('2025-01-01')).toBe('2025-01-01');
    expect(yearStarting(2025)).toEqual({ from: '2025-01-01', to: '2026-01-01' });
    expect(yearStarting(2024, '04-06')).toEqual({ from: '2024-04-06', to: '2025-04-06' });
    expect(yearStarting(2025, '07-01')).toEqual({ from: '2025-07-01', to: '2026-07-01' });
  });

  it('counts days between dates', () => {
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2025-02-28', '2025-03-01')).toBe(1);
    expect(daysBetween('2024-01-01', '2025-01-01')).toBe(366);
    expect(daysBetween('2025-01-01', '2026-01-01')).toBe(365);
    expect(daysBetween('2025-03-31', '2025-04-30')).toBe(30);
    expect(daysBetween('2025-01-02', '2025-01-01')).toBe(-1);
    expect(dayNumber('1970-01-01')).toBe(0);
    expect(dayNumber('2025-04-30') - dayNumber('2025-03-31')).toBe(30);
  });

  it('reads the UTC date and year of a moment, and local timestamps from a date', () => {
    expect(utcDate(Date.UTC(2025, 0, 3, 23, 59, 59, 999))).toBe('2025-01-03');
    expect(utcDate(Date.UTC(2024, 1, 29))).toBe('2024-02-29');
    expect(utcYear(Date.UTC(2025, 11, 31, 23, 59, 59, 999))).toBe(2025);
    expect(utcYear(Date.UTC(2026, 0, 1))).toBe(2026);
    expect(localTimestamp('2025-01-31', 10)).toBe('2025-01-31 00:10:00');
    expect(localTimestamp('2025-01-31', 1440)).toBe('2025-02-01 00:00:00');
    expect(localTimestamp('2024-02-28', 2 * 1440 + 61)).toBe('2024-03-01 01:01:00');
    expect(localTimestamp('2025-12-31', 132_480)).toBe('2026-04-02 00:00:00'); // 92 days
  });

  it('keeps its plain-arithmetic day counts and anniversaries equal to dayjs, every day of 2023 to 2029', () => {
    const first = dayjs.utc('2023-01-01');
    for (let i = 0; i < 7 * 366; i++) {
      const d = first.add(i, 'day');
      const day = d.format('YYYY-MM-DD');
      expect(dayNumber(day)).toBe(d.diff(dayjs.utc('1970-01-01'), 'day'));
      expect(oneYearAfter(day)).toBe(addYears(day, 1));
      expect(addDays(day, 30)).toBe(d.add(30, 'day').format('YYYY-MM-DD'));
      expect(daysBetween(day, addDays(day, 31))).toBe(31);
    }
  });

  it('says why a YYYY-MM-DD text is no date, and nothing for a real one or another form', () => {
    expect(calendarDateProblem('2025-02-29')).toBe('February 2025 has no day 29 (it has 28)');
    expect(calendarDateProblem('2024-02-30')).toBe('February 2024 has no day 30 (it has 29)');
    expect(calendarDateProblem('2100-02-29')).toBe('February 2100 has no day 29 (it has 28)');
    expect(calendarDateProblem('2025-04-31')).toBe('April 2025 has no day 31 (it has 30)');
    expect(calendarDateProblem('2025-01-00')).toBe('January 2025 has no day 0 (it has 31)');
    expect(calendarDateProblem('2025-00-10')).toBe('there is no month 0');
    expect(calendarDateProblem('2025-13-01')).toBe('there is no month 13');
    for (const fine of ['2024-02-29', '2000-02-29', '2025-12-31', '25-1-1', '2025-1-01', 'yesterday']) expect(calendarDateProblem(fine), fine).toBeUndefined();
    // Every real day of four years, leap years among them, has no problem; every day past a month's end has one.
    for (let d = Date.UTC(2023, 0, 1); d < Date.UTC(2027, 0, 1); d += 86_400_000) {
      const day = new Date(d).toISOString().slice(0, 10);
      expect(calendarDateProblem(day), day).toBeUndefined();
      const next = new Date(d + 86_400_000).toISOString().slice(0, 10);
      if (next.endsWith('-01')) expect(calendarDateProblem(`${day.slice(0, 8)}${Number(day.slice(8)) + 1}`), day).toMatch(/ has no day /);
    }
  });
});
