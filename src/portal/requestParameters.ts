import type { Context } from 'hono';

/** The fields each form of the portal sends; anything else is refused (see {@link parameterProblem}). */
export const reportFields = ['account', 'period', 'year', 'from', 'to', 'tz', 'format', 'file', 'fiat', 'include_demo'] as const;
export const gainsFields = ['account', 'rules', 'year', 'fiat', 'tz', 'pools', 'file', 'include_demo'] as const;
export const chartFields = ['account', 'year', 'tz', 'fiat'] as const;

/**
 * What is wrong with a request's parameters, or undefined: a NUL byte in a path segment, a field
 * name or value (PostgreSQL cannot store one: it gave a 500 and skipped the audit); a field the
 * route does not read (a typo, or a probe); a field sent twice (which one counts would be a
 * guess); an uploaded file. A GET's fields are its query string; a POST's are its form body
 * (`_csrf` included) and its query string must be empty. The answer names the parameter and the
 * problem, never the value.
 *
 * @example
 * const problem = await parameterProblem(c, ['account', 'year']); if (problem) return refuse(c, problem);
 */
export async function parameterProblem(c: Context, allowed: readonly string[]): Promise<string | undefined> {
  for (const [name, value] of Object.entries(c.req.param() as Record<string, string>)) {
    if (value.includes('\0')) return `NUL byte in the path (${name})`;
  }
  if (c.req.path.includes('\0')) return 'NUL byte in the path';
  const query = c.req.queries();
  const post = c.req.method === 'POST';
  const queryProblem = fieldsProblem(Object.entries(query), post ? [] : allowed, 'query');
  if (queryProblem) return queryProblem;
  if (!post) return undefined;
  const type = c.req.header('content-type') ?? '';
  if (!type.includes('application/x-www-form-urlencoded') && !type.includes('multipart/form-data')) {
    return type === '' && (c.req.header('content-length') ?? '0') === '0' ? fieldsProblem([], allowed, 'form') : 'the body is not a form';
  }
  const body = await c.req.parseBody({ all: true });
  const entries: [string, unknown[]][] = Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]);
  for (const [name, values] of entries) {
    if (values.some((v) => typeof v !== 'string')) return `form field ${quoted(name)} is a file`;
  }
  return fieldsProblem(entries as [string, string[]][], allowed, 'form');
}

function fieldsProblem(entries: [string, string[]][], allowed: readonly string[], where: 'query' | 'form'): string | undefined {
  for (const [name, values] of entries) {
    if (name.includes('\0')) return `NUL byte in a ${where} field's name`;
    if (!allowed.includes(name)) return `unknown ${where} field ${quoted(name)}`;
    if (values.length > 1) return `${where} field ${quoted(name)} sent ${values.length} times`;
    if (values.some((v) => v.includes('\0'))) return `NUL byte in ${where} field ${quoted(name)}`;
  }
  return undefined;
}

// A field name as the audit may keep it: short, printable.
function quoted(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}

/**
 * A text as PostgreSQL can store it: NUL bytes (which `text` refuses) written as `\0`.
 *
 * @example
 * storable('10\u00000'); // '10\\00'
 */
export function storable(text: string): string {
  return text.replaceAll('\0', '\\0');
}
