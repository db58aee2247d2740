const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids are checked before they reach SQL, so a malformed one is an unknown id and never a database error. */
export function isUuid(value: string | undefined): value is string {
  return value !== undefined && UUID.test(value);
}
