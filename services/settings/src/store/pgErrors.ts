/** 23503: the row points at a parent that does not exist (here: an unknown client id). */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === '23503';
}
