// Turns an API error into what a form shows: a message under each field the problem names (`body.email` → `email`)
// and one message for the rest, announced by the form's alert.
import { ApiError } from '../api/client';

export interface FormErrors<F extends string> {
  /** Inline errors, by the form's field name (nested fields dotted: `organization.key`; `body.tags[2]` shows under `tags`). */
  fields: Partial<Record<F, string>>;
  /** What no field shows: the problem's detail, or the issues of fields the form does not have. Null when all are inline. */
  message: string | null;
}

export function formErrors<F extends string>(error: unknown, fieldNames: readonly F[]): FormErrors<F> {
  if (!(error instanceof ApiError))
    return { fields: {}, message: error instanceof Error ? error.message : 'Something went wrong.' };
  const fields: Partial<Record<F, string>> = {};
  const rest: string[] = [];
  for (const issue of error.issues) {
    const path = issue.path.replace(/^body\.?/, '');
    // The field itself, or the field holding the part named (an item of a list, a header of a map).
    const name =
      fieldNames.find((f) => f === path) ??
      fieldNames.find((f) => path.startsWith(`${f}.`) || path.startsWith(`${f}[`));
    if (name !== undefined && fields[name] === undefined) fields[name] = issue.message;
    // The same message again for a field (a union's branches agreeing) is said once, under the field.
    else if (name === undefined || fields[name] !== issue.message) rest.push(`${issue.path}: ${issue.message}`);
  }
  if (error.issues.length === 0) return { fields, message: error.detail ?? error.title };
  return { fields, message: rest.length > 0 ? rest.join('; ') : null };
}

/** No errors: the state of a form before it is sent. */
export function noFormErrors<F extends string>(): FormErrors<F> {
  return { fields: {}, message: null };
}
