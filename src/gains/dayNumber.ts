/**
 * Days since 1970-01-01 of a local date YYYY-MM-DD: the calendar-day arithmetic of the 30-day
 * rule, with no time zone involved (the date is already local).
 *
 * @example
 * dayNumber('2025-04-30') - dayNumber('2025-03-31'); // 30
 */
export function dayNumber(day: string): number {
  return Math.floor(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) / 86_400_000);
}

/**
 * True when `later` is more than one year after `earlier`: the day after the anniversary or
 * later. This is the test of the US long term (IRS Pub. 544: "start counting on the day following
 * the day you acquired"; bought 15 June 2023, sold 15 June 2024 is not longer than one year),
 * of the German one-year period (§ 23 Abs. 1 Satz 1 Nr. 2 EStG: taxable when "nicht mehr als ein
 * Jahr") and of the Australian 12 months (ATO: acquired 2 February 2001, discount from
 * 3 February 2002). A 29 February acquisition has its anniversary on 28 February.
 *
 * @example
 * heldMoreThanOneYear('2023-06-15', '2024-06-15'); // false
 * heldMoreThanOneYear('2023-06-15', '2024-06-16'); // true
 */
export function heldMoreThanOneYear(earlier: string, later: string): boolean {
  const y = Number(earlier.slice(0, 4)) + 1;
  let md = earlier.slice(5);
  if (md === '02-29') md = '02-28';
  return later > `${y}-${md}`;
}
