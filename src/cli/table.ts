import Table from 'cli-table3';

/** A cli-table3 table, coloured only when a person is watching (a TTY), plain in logs and pipes. */
export function newTable(
  options: ConstructorParameters<typeof Table>[0] & { head: string[] },
): InstanceType<typeof Table> {
  return new Table(process.stdout.isTTY ? options : { ...options, style: { head: [], border: [] } });
}
