/** Small rules for the values of a request, shared by the charge rules. */

/** Trimmed text, or undefined when nothing is left: proto3 sends an empty string for "not given". */
export function nonEmpty(value: string | undefined | null): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** A free-form object, or null when it is absent or empty. */
export function objectOrNull(value: Record<string, unknown> | undefined): Record<string, unknown> | null {
  return value && Object.keys(value).length > 0 ? value : null;
}

/** Today's date in Brasília, where boletos fall due. */
export function brazilDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}
