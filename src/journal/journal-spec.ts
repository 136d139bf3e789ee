// What `--journal` names, told apart without loading either backend.

/** `postgres://…` or `postgresql://…`: a PostgreSQL journal. Anything else names a SQLite file. */
export function isPostgresUrl(spec: string): boolean {
  return /^postgres(ql)?:\/\//i.test(spec);
}

/** The URL with its password replaced by `***`, fit for messages and logs. */
export function maskUrl(spec: string): string {
  try {
    const url = new URL(spec);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return spec.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
  }
}
