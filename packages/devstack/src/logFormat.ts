import { stripVTControlCharacters } from 'node:util';
import { prettyFactory } from 'pino-pretty';

/**
 * How the launcher prints its children's lines: `pretty` (one readable, colored line per log entry) for a
 * person at a terminal, `json` (each line as the process wrote it, behind the process name) for a file, a pipe
 * to jq or grep, or anyone who asks with LOG_FORMAT=json.
 */
export type LogFormat = 'pretty' | 'json';

export function logFormat(env: NodeJS.ProcessEnv, isTTY: boolean | undefined): LogFormat {
  return isTTY === true && env.LOG_FORMAT !== 'json' ? 'pretty' : 'json';
}

const prefixed = (name: string, line: string) => `[${name.padEnd(9)}] ${line}`;

/** A JSON line from the platform's logger (pino): an object with a level. Anything else is printed as it is. */
function logEntry(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !('level' in value)) return undefined;
    return value as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Turns a child's output line into the line the launcher prints (without the newline). In `pretty`, a log
 * entry becomes `12:04:31.250 INFO  (payments): charge authorized {"requestId":"..."}`; an error's stack
 * follows on the lines below it, indented, as pino-pretty prints it. `colorize` defaults to what the terminal
 * supports.
 */
export function lineFormatter(options: { format: LogFormat; colorize?: boolean }): (name: string, line: string) => string {
  if (options.format === 'json') return prefixed;
  const pretty = prettyFactory({
    ...(options.colorize === undefined ? {} : { colorize: options.colorize }),
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // `name` is replaced by the launcher's process name below; `service` repeats it.
    ignore: 'pid,hostname,service',
    customPrettifiers: {
      time: (time) => String(time),
      // Levels padded to one width keep the process names in a column.
      // (pino-pretty's `label` extra is empty when the levels are labels already, as the platform logs them.)
      level: (_level, _key, _log, { labelColorized }) => `${labelColorized}${' '.repeat(Math.max(0, 5 - stripVTControlCharacters(labelColorized).length))}`,
      name: (name, _key, _log, { colors }) => colors.bold(String(name)),
    },
  });
  return (name, line) => {
    const entry = logEntry(line);
    if (!entry) return prefixed(name, line);
    return pretty({ ...shortAccessLine(entry), name }).replace(/\r?\n$/, '');
  };
}

/**
 * The gateway's line for each request (it has `req` and `res`): at a terminal only its message (`POST /v1/charges 201`)
 * and how long it took, not its headers and ids, which the JSON lines keep.
 */
function shortAccessLine(entry: Record<string, unknown>): Record<string, unknown> {
  if (typeof entry.req !== 'object' || typeof entry.res !== 'object') return entry;
  const { level, time, msg, durationMs } = entry;
  return { level, time, msg: typeof durationMs === 'number' ? `${String(msg)} ${durationMs} ms` : msg };
}
